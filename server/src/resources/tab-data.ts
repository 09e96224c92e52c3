import type { Knex } from 'knex';
import type { ListResponse } from '../../../shared/list';
import { can } from '../../../shared/permissions';
import { tabChildResources } from '../../../shared/resources';
import type { ResourceDeclaration } from '../../../shared/resources/declaration';
import type { RequestContext } from '../http/context';
import type { ResourceDefinition, Row } from './resource';
import { serviceWithin, type ResourceService } from './resource.service';

/** What `GET {path}/:id?tab=…` adds to the record for one tab (`ResourceDefinition.tabData`). */
export type TabData = NonNullable<ResourceDefinition['tabData']>[string];

/** The list a tab's data call answers first: the child route's own defaults (`ZListQuery`), page 1 of 20. */
export const TAB_LIST_PAGE = { page: 1, per_page: 20 } as const;

/** The key a child's list is answered under in its parent's tab: its segment in snake_case (`grade_reports`). */
export function tabKeyOf(child: ResourceDeclaration): string {
  return (child.parent?.segment ?? child.name).replace(/-/g, '_');
}

/**
 * The first page of a child resource's list inside one parent, exactly as its own route
 * (`GET /api{parent}/{id}/{segment}`) answers this caller: the same service with the parent column fixed, so the
 * same branch scope, filters, lookups and allow-listed columns; undefined when the caller lacks the child's view
 * permission (the route would refuse it). The parent itself has been read for this caller already.
 */
export async function childListFor(
  child: ResourceService,
  db: Knex,
  parentId: number,
  ctx: RequestContext,
  filters: Row = {},
): Promise<ListResponse<Row> | undefined> {
  const def = child.definition;
  const permission = def.permissions?.view ?? `${def.module}.view`;
  const holder = ctx.access ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions } : null;
  if (!can(holder, permission)) return undefined;
  return serviceWithin(db, def, parentId).list({ ...TAB_LIST_PAGE, ...filters }, ctx);
}

/**
 * The data of a declared record page's tabs (`GET /api{path}/{id}?tab=…`, the spec's data call of each tab): for a
 * tab listing child resources (`tabChildren`, or the child the tab names: `childOfTab`), the first page of each one
 * under its key (`{ subjects: { items, total, page, per_page } }`), as its own route answers; then what `more`
 * adds for the tab (a resource's own: attachments, the admission tab's answered applications). The services are
 * read when a tab is asked for, so a parent may be registered before its children.
 */
export function declaredTabData(
  db: Knex,
  decl: ResourceDeclaration,
  services: ReadonlyMap<string, ResourceService>,
  more: Readonly<Record<string, TabData>> = {},
): Record<string, TabData> {
  const fields = new Set([...Object.keys(decl.fields), ...Object.keys(decl.collections ?? {}), 'tab']);
  const out: Record<string, TabData> = {};
  for (const tab of decl.tabs ?? []) {
    const children = tabChildResources(decl, tab);
    for (const child of children) {
      if (fields.has(tabKeyOf(child)))
        throw new Error(
          `The ${tab} tab of ${decl.name} would answer ${tabKeyOf(child)}, a field of the record`,
        );
    }
    const own = more[tab];
    if (!children.length && !own) continue;
    out[tab] = async (trx, row, ctx) => {
      const answer: Row = {};
      for (const child of children) {
        const service = services.get(child.name);
        if (!service) throw new Error(`The declared resource ${child.name} is not registered`);
        const list = await childListFor(service, db, Number(row.id), ctx);
        if (list) answer[tabKeyOf(child)] = list;
      }
      return own ? { ...answer, ...(await own(trx, row, ctx)) } : answer;
    };
  }
  return out;
}

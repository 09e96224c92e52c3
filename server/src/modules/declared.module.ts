import { DECLARATIONS } from '../../../shared/resources';
import type { ResourceDeclaration } from '../../../shared/resources/declaration';
import { definitionFromDeclaration } from '../resources/declared';
import {
  registerChildResource,
  registerListedUnder,
  registerResource,
  registerResourceFamily,
} from '../resources/resource.routes';
import type { ResourceService } from '../resources/resource.service';
import { declaredTabData, type TabData } from '../resources/tab-data';
import { ZFileListQuery } from '../../../shared/files';
import { AppError } from '../lib/app-error';
import { fileOwner } from './files/file-owners';
import { filesServiceOf, registerDeclaredFileFields } from './files.module';
import type { ModuleDeps } from './module';
import { rulesOf } from './resource-rules';

/**
 * A family's members (the option lists at `/options/:key`): one definition each, its segment filled into the
 * path and fixed on its rows, served by one set of routes (`registerResourceFamily`).
 */
function registerFamily(deps: ModuleDeps, decl: ResourceDeclaration): Map<string, ResourceService> {
  const family = decl.family!;
  const members = Object.fromEntries(
    family.members.map((member) => {
      const path = decl.path.replace(`:${family.param}`, member);
      return [
        member,
        definitionFromDeclaration(decl, {
          path,
          exportName: path.replace(/^\//, '').replace(/\//g, '-'),
          fixed: { [family.param]: member },
          ...rulesOf(decl.name, { deps, member }),
        }),
      ];
    }),
  );
  return registerResourceFamily(deps.api, deps.db, { path: decl.path, param: family.param, members });
}

/**
 * Every declared resource (shared/resources), served by the generic routes: top-level ones at `/api{path}`,
 * children under their parent, a family's members under its path. Each gets its rules from
 * `RESOURCE_RULES` (resource-rules.ts). Returns the services by declaration name (a family's members as
 * `name:member`): other modules' routes and rules call them.
 */
export function registerDeclaredResources(deps: ModuleDeps): Map<string, ResourceService> {
  const services = new Map<string, ResourceService>();
  const pending = [...DECLARATIONS];
  while (pending.length) {
    const index = pending.findIndex(
      (d) =>
        (!d.parent || services.has(d.parent.resource)) &&
        (!d.listedUnder || services.has(d.listedUnder.resource)),
    );
    if (index < 0) throw new Error(`Declared parents missing: ${pending.map((d) => d.name).join(', ')}`);
    const [decl] = pending.splice(index, 1);
    if (decl.family) {
      for (const [member, service] of registerFamily(deps, decl))
        services.set(`${decl.name}:${member}`, service);
      continue;
    }
    const def = definitionFromDeclaration(decl, rulesOf(decl.name, { deps, resources: services }));
    if (decl.tabs?.length) {
      const own = { ...attachmentTab(deps, decl), ...def.tabData };
      def.tabData = { ...own, ...declaredTabData(deps.db, decl, services, own) };
    }
    const parent = decl.parent ? services.get(decl.parent.resource) : undefined;
    services.set(
      decl.name,
      parent
        ? registerChildResource(deps.api, deps.db, parent, def)
        : registerResource(deps.api, deps.db, def),
    );
    if (decl.listedUnder)
      registerListedUnder(deps.api, deps.db, resourceOf(services, decl.listedUnder.resource), def);
  }
  registerDeclaredFileFields(deps, services);
  return services;
}

/**
 * A record page's `attachment` tab (a school's, a student's): the first page of the files the record owns, as
 * `GET /api/files?owner_type={name}&owner_id={id}` answers this caller (`attachments`); nothing when that would be
 * refused, or the resource owns no attachments.
 */
function attachmentTab(deps: ModuleDeps, decl: ResourceDeclaration): Record<string, TabData> {
  if (!decl.tabs?.includes('attachment')) return {};
  const files = filesServiceOf(deps);
  return {
    attachment: async (_db, row, ctx) => {
      if (!fileOwner(decl.name)?.attachable) return {};
      const query = ZFileListQuery.parse({ owner_type: decl.name, owner_id: row.id });
      try {
        return { attachments: await files.list(query, ctx) };
      } catch (err) {
        if (err instanceof AppError && (err.code === 'not_found' || err.code === 'forbidden')) return {};
        throw err;
      }
    },
  };
}

/** A declared resource's service, by declaration name. */
export function resourceOf(resources: ReadonlyMap<string, ResourceService>, name: string): ResourceService {
  const service = resources.get(name);
  if (!service) throw new Error(`The declared resource ${name} is not registered`);
  return service;
}

import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { LOCALES } from '../../../shared/features';
import { ZListQuery } from '../../../shared/list';
import type { ApiRouter } from '../http/api-router';
import { abortSignalOf, contextOf } from '../http/context';
import { AppError } from '../lib/app-error';
import { EXPORT_FORMATS, exportLanguage, streamExport } from '../modules/exports/export.writer';
import type { ResourceAction, ResourceDefinition } from './resource';
import { createResourceService, type ResourceService } from './resource.service';
import { DECLARATIONS } from '../../../shared/resources';
import { registerImportRoutes } from './resource.import';

interface Bound {
  def: ResourceDefinition;
  service: ResourceService;
}

const zId = z.coerce.number().int().positive();

/**
 * The generic routes under `path`: `GET path`, `GET path/create`, `GET path/:id`, `POST path`,
 * `PUT path/:id`, `DELETE path/:id`, each behind the resource's permission keys, with strict bodies.
 * `GET path?format=xlsx|csv` exports every row of the current filter, search and sort (api.md "Exports"),
 * headed in `lang` (the screen's language) or else the user's own.
 * `template` gives the schemas and permissions; `pick` the resource a request is for.
 */
function mount(
  api: ApiRouter,
  path: string,
  template: ResourceDefinition,
  pick: (req: Request) => Bound,
  extra: {
    params: z.ZodRawShape;
    before: RequestHandler[];
    db?: Knex;
    /** only the lookup, one record and its state moves (a child at its own path) */
    recordOnly?: boolean;
  },
): void {
  const perm = (action: ResourceAction) => template.permissions?.[action] ?? `${template.module}.${action}`;
  const listQuery = (
    template.schemas.filters ? ZListQuery.extend(template.schemas.filters.shape) : ZListQuery
  ).extend({
    format: z.enum(EXPORT_FORMATS).optional(),
    /** the screen's language, in which an export's columns are headed (default: the user's own) */
    lang: z.enum(LOCALES).optional(),
  });
  const params = z.strictObject(extra.params);
  const idParams = z.strictObject({ ...extra.params, id: zId });
  const before = extra.before;
  const id = (req: Request): number => req.parsed.params.id;

  if (!extra.recordOnly) {
    api.add({
      method: 'get',
      path,
      access: 'staff',
      permission: perm('view'),
      before,
      schemas: { params, query: listQuery },
      handler: async (req, res) => {
        const { def, service } = pick(req);
        const { format, lang, ...listInput } = req.parsed.query;
        if (!format) {
          res.json(await service.list(listInput, { ...contextOf(req), signal: abortSignalOf(req) }));
          return;
        }
        const { page: _page, per_page: _perPage, ...query } = listInput;
        const ctx = contextOf(req);
        // a download link sends no Accept-Language: the screen's `lang` names the lookups too, as it heads the columns
        const language = lang ?? ctx.language;
        await streamExport(res, {
          format,
          name: def.exportName ?? def.path.replace(/^\//, '').replace(/\//g, '-'),
          language: exportLanguage(lang ?? (req.auth?.kind === 'staff' ? req.auth.user.language : undefined)),
          columns: def.exportColumns,
          batches: service.exportRows(query, { ...ctx, language, signal: abortSignalOf(req) }),
        });
      },
    });
  }
  if (!template.readOnly && !extra.recordOnly) {
    api.add({
      method: 'get',
      path: `${path}/create`,
      access: 'staff',
      permission: perm('create'),
      before,
      schemas: { params },
      handler: async (req, res) => {
        res.json(await pick(req).service.createForm(contextOf(req)));
      },
    });
  }
  if (template.label) {
    api.add({
      method: 'get',
      path: `${path}/lookup`,
      access: 'staff',
      permission: perm('view'),
      anyPermission: lookupPermissions(template),
      before,
      schemas: {
        params,
        // the list's own filters narrow the choices (`/api/areas/lookup?parent_id=3`: one area's districts)
        query: z.strictObject({
          ...(template.schemas.filters?.shape ?? {}),
          q: z.string().trim().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(50).optional(),
        }),
      },
      handler: async (req, res) => {
        const { q, limit, ...filters } = req.parsed.query;
        res.json(await pick(req).service.lookup(q, contextOf(req), limit, filters));
      },
    });
  }
  // before the `/:id` routes, so that `import` is never read as an id
  if (extra.db && !extra.recordOnly) registerImportRoutes(api, extra.db, template, pick, { path, ...extra });
  const tabs = template.declaration?.tabs;
  api.add({
    method: 'get',
    path: `${path}/:id`,
    access: 'staff',
    permission: perm('view'),
    before,
    schemas: {
      params: idParams,
      query: z.object({
        tab: (tabs?.length ? z.enum(tabs as [string, ...string[]]) : z.never()).optional(),
      }),
    },
    handler: async (req, res) => {
      res.json(await pick(req).service.get(id(req), contextOf(req), req.parsed.query.tab));
    },
  });
  for (const [action, move] of Object.entries(template.states?.actions ?? {})) {
    api.add({
      method: 'post',
      path: `${path}/:id/${action}`,
      access: 'staff',
      permission: move.permission ?? perm('update'),
      before,
      schemas: { params: idParams, body: z.strictObject({}).optional() },
      handler: async (req, res) => {
        res.json(await pick(req).service.act(id(req), action, contextOf(req)));
      },
    });
  }
  if (template.readOnly || extra.recordOnly) return;
  api.add({
    method: 'post',
    path,
    access: 'staff',
    permission: perm('create'),
    before,
    schemas: { params, body: template.schemas.create.strict() },
    handler: async (req, res) => {
      res.status(201).json(await pick(req).service.create(req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'put',
    path: `${path}/:id`,
    access: 'staff',
    permission: perm('update'),
    before,
    schemas: { params: idParams, body: template.schemas.update.strict() },
    handler: async (req, res) => {
      res.json(await pick(req).service.update(id(req), req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'delete',
    path: `${path}/:id`,
    access: 'staff',
    permission: perm('delete'),
    before,
    schemas: { params: idParams },
    handler: async (req, res) => {
      await pick(req).service.remove(id(req), contextOf(req));
      res.status(204).end();
    },
  });
}

/**
 * Who may read a lookup's choices: whoever may view the resource, or view, create or update a record of a
 * declared resource with a lookup field to it (a branch's name on a student's form).
 */
function lookupPermissions(def: ResourceDefinition): string[] {
  const modules = new Set<string>([def.module]);
  for (const other of DECLARATIONS) {
    const refers = Object.values(other.fields).some((f) => f.type === 'lookup' && f.resource === def.name);
    if (refers) modules.add(other.module);
  }
  return [...modules].flatMap((m) => [`${m}.view`, `${m}.create`, `${m}.update`]);
}

/**
 * A child resource under its parent: `/api{parent}/:parentId/{segment}` with the generic routes, its rows those
 * of one parent (the parent column fixed from the path). The parent is checked once per request, with the
 * caller's scope: a parent the caller cannot see answers 404 before anything else.
 */
export function registerChildResource(
  api: ApiRouter,
  db: Knex,
  parent: ResourceService,
  def: ResourceDefinition,
): ResourceService {
  const declared = def.declaration?.parent;
  if (!declared) throw new Error(`${def.name} declares no parent`);
  const service = createResourceService(db, def);
  const fixed = def.fixed ?? {};
  const parentSeen: RequestHandler = async (req, _res, next) => {
    const parentId = zId.safeParse(req.params.parentId);
    if (!parentId.success) throw new AppError('not_found');
    await parent.get(parentId.data, contextOf(req));
    next();
  };
  const pick = (req: Request): Bound => ({
    def,
    // the same resource seen inside one parent: its column fixed for reads and writes
    service: createResourceService(db, {
      ...def,
      fixed: { ...fixed, [declared.column]: req.parsed.params.parentId },
    }),
  });
  mount(api, `${parent.definition.path}/:parentId/${declared.segment}`, def, pick, {
    params: { parentId: zId },
    before: [parentSeen],
    db,
  });
  // at its own path: the lookup (narrowed by the parent column, a filter), one record, its moves; the record's
  // branch scope follows its parents (`branchVia`)
  const bound = { def, service };
  mount(api, def.path, def, () => bound, { params: {}, before: [], recordOnly: true });
  return service;
}

/** One declared resource at `/api{def.path}`, with the generic routes. */
export function registerResource(api: ApiRouter, db: Knex, def: ResourceDefinition): ResourceService {
  const bound = { def, service: createResourceService(db, def) };
  mount(api, def.path, def, () => bound, { params: {}, before: [], db });
  return bound.service;
}

/**
 * Resources that differ only by one path segment (the option lists: `/options/:key`), served by one set
 * of routes: the segment picks the member, an unknown one answers 404 before the body is read. Members share
 * their schemas and permissions (the first member's are used).
 */
export function registerResourceFamily(
  api: ApiRouter,
  db: Knex,
  family: { path: string; param: string; members: Record<string, ResourceDefinition> },
): Map<string, ResourceService> {
  const bound = new Map<string, Bound>(
    Object.entries(family.members).map(([key, def]) => [
      key,
      { def, service: createResourceService(db, def) },
    ]),
  );
  const template = Object.values(family.members)[0];
  const known: RequestHandler = (req, _res, next) => {
    if (!bound.has(String(req.params[family.param]))) throw new AppError('not_found');
    next();
  };
  const pick = (req: Request): Bound => bound.get(req.parsed.params[family.param]) as Bound;
  mount(api, family.path, template, pick, { params: { [family.param]: z.string() }, before: [known] });
  return new Map([...bound].map(([key, b]) => [key, b.service]));
}

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
import { createResourceService, serviceWithin, type ResourceService } from './resource.service';
import { DECLARATIONS } from '../../../shared/resources';
import { REPORTS } from '../../../shared/reports';
import { reportPermission } from '../../../shared/reports/definition';
import { registerImportRoutes } from './resource.import';
import { moveInputSchema } from '../../../shared/resources/derive';

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
    /** only the list and its export (a child listed under another record it names: `listedUnder`) */
    listOnly?: boolean;
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
      answers: { kind: 'list', resource: template.name },
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
  if (extra.listOnly) return;
  if (!template.readOnly && !extra.recordOnly) {
    api.add({
      method: 'get',
      path: `${path}/create`,
      access: 'staff',
      permission: perm('create'),
      before,
      schemas: { params },
      answers: { kind: 'create-form', resource: template.name },
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
      answers: { kind: 'lookup', resource: template.name },
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
        // a printable record as a PDF (`&tab=` one of its printable tabs: a quotation's contract)
        format: (template.print ? z.enum(['pdf']) : z.never()).optional(),
      }),
    },
    answers: { kind: 'record', resource: template.name },
    handler: async (req, res) => {
      const { tab, format } = req.parsed.query;
      if (format === 'pdf') {
        const { filename, pdf } = await pick(req).service.print(id(req), contextOf(req), tab);
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
        res.send(pdf);
        return;
      }
      res.json(await pick(req).service.get(id(req), contextOf(req), tab));
    },
  });
  for (const [action, move] of Object.entries(template.states?.actions ?? {})) {
    api.add({
      method: 'post',
      path: `${path}/:id/${action}`,
      access: 'staff',
      permission: move.permission ?? perm('update'),
      before,
      // a move with `input` takes its fields (an order's void reason); the others an empty body, or none
      schemas: {
        params: idParams,
        body: move.input ? moveInputSchema(move.input) : z.strictObject({}).optional(),
      },
      answers: { kind: 'record', resource: template.name },
      handler: async (req, res) => {
        const input = (req.parsed.body ?? {}) as Record<string, unknown>;
        res.json(await pick(req).service.act(id(req), action, contextOf(req), undefined, input));
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
    answers: { kind: 'record', resource: template.name, status: 201 },
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
    answers: { kind: 'record', resource: template.name },
    handler: async (req, res) => {
      res.json(await pick(req).service.update(id(req), req.parsed.body, contextOf(req)));
    },
  });
  if (template.declaration?.undeletable) return;
  api.add({
    method: 'delete',
    path: `${path}/:id`,
    access: 'staff',
    permission: perm('delete'),
    before,
    schemas: { params: idParams },
    answers: { kind: 'empty' },
    handler: async (req, res) => {
      await pick(req).service.remove(id(req), contextOf(req));
      res.status(204).end();
    },
  });
}

/**
 * Who may read a lookup's choices: whoever may view the resource, or view, create or update a record of a
 * declared resource with a lookup field to it (a branch's name on a student's form), or open a report whose
 * criteria pick it (a consultant in the students report).
 */
function lookupPermissions(def: ResourceDefinition): string[] {
  const modules = new Set<string>([def.module]);
  for (const other of DECLARATIONS) {
    const refers = Object.values(other.fields).some((f) => f.type === 'lookup' && f.resource === def.name);
    if (refers) modules.add(other.module);
  }
  const reports = REPORTS.filter((r) =>
    Object.values(r.criteria).some((c) => c.type === 'lookup' && c.resource === def.name),
  ).map((r) => reportPermission(r.group));
  return [...[...modules].flatMap((m) => [`${m}.view`, `${m}.create`, `${m}.update`]), ...new Set(reports)];
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
  const parentSeen: RequestHandler = async (req, _res, next) => {
    const parentId = zId.safeParse(req.params.parentId);
    if (!parentId.success) throw new AppError('not_found');
    await parent.get(parentId.data, contextOf(req));
    next();
  };
  // the same resource seen inside one parent: its column fixed for reads and writes
  const pick = (req: Request): Bound => ({
    def,
    service: serviceWithin(db, def, req.parsed.params.parentId),
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

/**
 * A child also listed under another record it names (`listedUnder`: an event's registrations on their student):
 * `GET /api{other}/:parentId/{segment}` lists, read only, the rows whose column holds that record, and exports them.
 * That record is read once per request with the caller's scope (404 outside it), as a parent is.
 */
export function registerListedUnder(
  api: ApiRouter,
  db: Knex,
  other: ResourceService,
  def: ResourceDefinition,
): void {
  const listed = def.declaration?.listedUnder;
  if (!listed) throw new Error(`${def.name} declares no listedUnder`);
  const seen: RequestHandler = async (req, _res, next) => {
    const id = zId.safeParse(req.params.parentId);
    if (!id.success) throw new AppError('not_found');
    await other.get(id.data, contextOf(req));
    next();
  };
  const pick = (req: Request): Bound => ({
    def,
    service: createResourceService(db, {
      ...def,
      fixed: { ...(def.fixed ?? {}), [listed.column]: req.parsed.params.parentId },
    }),
  });
  mount(api, `${other.definition.path}/:parentId/${listed.segment}`, def, pick, {
    params: { parentId: zId },
    before: [seen],
    listOnly: true,
  });
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

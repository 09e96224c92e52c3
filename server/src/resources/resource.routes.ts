import type { Knex } from 'knex';
import { z } from 'zod';
import { ZListQuery } from '../../../shared/list';
import type { ApiRouter } from '../http/api-router';
import { contextOf } from '../http/context';
import { ZIdParams } from '../http/validate';
import { EXPORT_FORMATS, exportLanguage, streamExport } from '../modules/exports/export.writer';
import type { ResourceAction, ResourceDefinition } from './resource';
import { createResourceService, type ResourceService } from './resource.service';

/**
 * The generic routes: `GET /x`, `GET /x/create`, `GET /x/:id`, `POST /x`, `PUT /x/:id`, `DELETE /x/:id`,
 * each behind the resource's permission keys, with strict bodies. `GET /x?format=xlsx|csv` exports every row
 * of the current filter, search and sort (api.md "Exports").
 */
export function registerResource(api: ApiRouter, db: Knex, def: ResourceDefinition): ResourceService {
  const service = createResourceService(db, def);
  const perm = (action: ResourceAction) => def.permissions?.[action] ?? `${def.module}.${action}`;
  const listQuery = (def.schemas.filters ? ZListQuery.extend(def.schemas.filters.shape) : ZListQuery).extend({
    format: z.enum(EXPORT_FORMATS).optional(),
  });

  api.add({
    method: 'get',
    path: def.path,
    access: 'staff',
    permission: perm('view'),
    schemas: { query: listQuery },
    handler: async (req, res) => {
      const { format, page: _page, per_page: _perPage, ...query } = req.parsed.query;
      if (!format) {
        res.json(await service.list(req.parsed.query, contextOf(req)));
        return;
      }
      await streamExport(res, {
        format,
        name: def.exportName ?? def.path.replace(/^\//, '').replace(/\//g, '-'),
        language: exportLanguage(req.auth?.kind === 'staff' ? req.auth.user.language : undefined),
        columns: def.exportColumns,
        batches: service.exportRows(query, contextOf(req)),
      });
    },
  });
  if (!def.readOnly) {
    api.add({
      method: 'get',
      path: `${def.path}/create`,
      access: 'staff',
      permission: perm('create'),
      handler: async (_req, res) => {
        res.json(await service.createForm());
      },
    });
  }
  api.add({
    method: 'get',
    path: `${def.path}/:id`,
    access: 'staff',
    permission: perm('view'),
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      res.json(await service.get(req.parsed.params.id, contextOf(req)));
    },
  });
  if (def.readOnly) return service;
  api.add({
    method: 'post',
    path: def.path,
    access: 'staff',
    permission: perm('create'),
    schemas: { body: def.schemas.create.strict() },
    handler: async (req, res) => {
      res.status(201).json(await service.create(req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'put',
    path: `${def.path}/:id`,
    access: 'staff',
    permission: perm('update'),
    schemas: { params: ZIdParams, body: def.schemas.update.strict() },
    handler: async (req, res) => {
      res.json(await service.update(req.parsed.params.id, req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'delete',
    path: `${def.path}/:id`,
    access: 'staff',
    permission: perm('delete'),
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      await service.remove(req.parsed.params.id, contextOf(req));
      res.status(204).end();
    },
  });
  return service;
}

import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { isOptionKey, OPTION_KEYS, ZOptionOrder } from '../../../../shared/schemas/options';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { registerResourceFamily } from '../../resources/resource.routes';
import { optionResource } from './options.resource';
import { createOptionsService } from './options.service';

/**
 * `GET /api/options` (the lists and their sizes), `PUT /api/options/{key}/order`, and the generic resource
 * routes at `/api/options/{key}` for every key of domain.md. A key that is not a list answers 404.
 */
export function registerOptionRoutes(api: ApiRouter, db: Knex): void {
  const service = createOptionsService(db);
  const knownKey: RequestHandler = (req, _res, next) => {
    if (!isOptionKey(String(req.params.key))) throw new AppError('not_found');
    next();
  };
  api.add({
    method: 'get',
    path: '/options',
    access: 'staff',
    permission: 'settings.view',
    handler: async (_req, res) => {
      res.json(await service.summary());
    },
  });
  // before the resource's `PUT /options/:key/:id`, which would take "order" for an id
  api.add({
    method: 'put',
    path: '/options/:key/order',
    access: 'staff',
    permission: 'settings.update',
    before: [knownKey],
    schemas: { params: z.strictObject({ key: z.enum(OPTION_KEYS) }), body: ZOptionOrder },
    handler: async (req, res) => {
      await service.reorder(req.parsed.params.key, req.parsed.body.ids, contextOf(req));
      res.status(204).end();
    },
  });
  registerResourceFamily(api, db, {
    path: '/options/:key',
    param: 'key',
    members: Object.fromEntries(OPTION_KEYS.map((key) => [key, optionResource(key)])),
  });
}

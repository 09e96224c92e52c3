import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { isOptionKey, OPTION_KEYS, ZOptionOrder } from '../../../../shared/schemas/options';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { createOptionsService } from './options.service';

/**
 * `GET /api/options` (the lists and their sizes) and `PUT /api/options/{key}/order`; registered before the
 * declared option lists' generic routes at `/api/options/{key}` (server/src/modules/declared.module.ts), whose
 * `PUT /options/:key/:id` would take "order" for an id. A key that is not a list answers 404.
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
}

import type { Knex } from 'knex';
import { OPTION_KEYS, ZOptionOrder } from '../../../../shared/schemas/options';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { registerResource } from '../../resources/resource.routes';
import { optionResource } from './options.resource';
import { createOptionsService } from './options.service';

/**
 * `GET /api/options` (the lists and their sizes), and for every key of domain.md the generic resource at
 * `/api/options/{key}` plus `PUT /api/options/{key}/order`. A key that is not a list answers 404.
 */
export function registerOptionRoutes(api: ApiRouter, db: Knex): void {
  const service = createOptionsService(db);
  api.add({
    method: 'get',
    path: '/options',
    access: 'staff',
    permission: 'settings.view',
    handler: async (_req, res) => {
      res.json(await service.summary());
    },
  });
  for (const key of OPTION_KEYS) {
    // before the resource's `PUT /options/{key}/:id`, which would take "order" for an id
    api.add({
      method: 'put',
      path: `/options/${key}/order`,
      access: 'staff',
      permission: 'settings.update',
      schemas: { body: ZOptionOrder },
      handler: async (req, res) => {
        await service.reorder(key, req.parsed.body.ids, contextOf(req));
        res.status(204).end();
      },
    });
    registerResource(api, db, optionResource(key));
  }
}

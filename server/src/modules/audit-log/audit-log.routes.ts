import { z } from 'zod';
import { ZListQuery } from '../../../../shared/list';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import type { ResourceService } from '../../resources/resource.service';

/** One record's history (`GET /api/audit-logs/{entity}/{id}`), through the declared audit log's service. */
export function registerAuditLogRoutes(api: ApiRouter, service: ResourceService): void {
  api.add({
    method: 'get',
    path: '/audit-logs/:entity/:id',
    access: 'staff',
    permission: ADMINS_ONLY,
    schemas: {
      params: z.strictObject({
        entity: z.string().regex(/^[a-z_]{1,60}$/),
        id: z.coerce.number().int().positive(),
      }),
      query: ZListQuery.pick({ page: true, per_page: true }),
    },
    handler: async (req, res) => {
      const { entity, id } = req.parsed.params;
      res.json(
        await service.list({ ...req.parsed.query, entity, entity_id: id, sort: 'id' }, contextOf(req)),
      );
    },
  });
}

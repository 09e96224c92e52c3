import type { Knex } from 'knex';
import { z } from 'zod';
import { ZListQuery } from '../../../../shared/list';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { registerResource } from '../../resources/resource.routes';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import { auditLogResource } from './audit-log.resource';

/** The audit log's list, record and export (generic, read-only), and one record's history. */
export function registerAuditLogRoutes(api: ApiRouter, db: Knex): void {
  const service = registerResource(api, db, auditLogResource);
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

import type { Knex } from 'knex';
import { ZNumberingPreviewQuery } from '../../../../shared/schemas/numbering';
import { ZSettingsUpdate } from '../../../../shared/schemas/settings';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { createSettingsService } from './settings.service';

/** `/api/settings` (document number formats and general settings) and the numbering preview. */
export function registerSettingsRoutes(api: ApiRouter, db: Knex): void {
  const service = createSettingsService(db);
  api.add({
    method: 'get',
    path: '/settings',
    access: 'staff',
    permission: 'settings.view',
    handler: async (_req, res) => {
      res.json(await service.read());
    },
  });
  api.add({
    method: 'put',
    path: '/settings',
    access: 'staff',
    permission: 'settings.update',
    schemas: { body: ZSettingsUpdate },
    handler: async (req, res) => {
      res.json(await service.update(req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'get',
    path: '/settings/numbering/preview',
    access: 'staff',
    permission: 'settings.view',
    schemas: { query: ZNumberingPreviewQuery },
    handler: async (req, res) => {
      const own = req.auth?.kind === 'staff' ? req.auth.user.branch_id : null;
      res.json(await service.preview(req.parsed.query, contextOf(req), own));
    },
  });
}

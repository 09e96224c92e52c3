import type { Knex } from 'knex';
import { ZNumberingPreviewQuery } from '../../../../shared/schemas/numbering';
import { ZSettingsUpdate } from '../../../../shared/schemas/settings';
import type { ApiRouter } from '../../http/api-router';
import type { z } from 'zod';
import { contextOf, type RequestContext } from '../../http/context';
import type { SettingsGuard } from './protected-settings';
import { createSettingsService } from './settings.service';

/**
 * One settings section: `GET path` reads it (settings.view), `PUT path` saves the validated body
 * (settings.update) through its service, which audits the change in its transaction and runs it through the
 * settings guard (protected-settings.ts). General settings, SMTP and the account settings are each one
 * section; the mail and security sections are for admins only (`permission: ADMINS_ONLY`).
 */
export function registerSettingsSection(
  api: ApiRouter,
  section: {
    path: string;
    body: z.ZodType;
    read: () => Promise<unknown>;
    update: (input: any, ctx: RequestContext) => Promise<unknown>;
    /** the key both routes need instead of settings.view / settings.update */
    permission?: string;
  },
): void {
  api.add({
    method: 'get',
    path: section.path,
    access: 'staff',
    permission: section.permission ?? 'settings.view',
    handler: async (_req, res) => {
      res.json(await section.read());
    },
  });
  api.add({
    method: 'put',
    path: section.path,
    access: 'staff',
    permission: section.permission ?? 'settings.update',
    schemas: { body: section.body },
    handler: async (req, res) => {
      res.json(await section.update(req.parsed.body, contextOf(req)));
    },
  });
}

/** `/api/settings` (document number formats and general settings) and the numbering preview. */
export function registerSettingsRoutes(api: ApiRouter, db: Knex, guard: SettingsGuard): void {
  const service = createSettingsService(db, guard);
  registerSettingsSection(api, {
    path: '/settings',
    body: ZSettingsUpdate,
    read: service.read,
    update: service.update,
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

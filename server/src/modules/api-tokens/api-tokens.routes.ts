import type { RequestHandler } from 'express';
import { ZApiTokenCreate, ZApiTokenUpdate } from '../../../../shared/schemas/profile';
import { contextOf } from '../../http/context';
import { ZIdParams } from '../../http/validate';
import type { AccountsServices } from '../accounts.module';
import type { ModuleDeps } from '../module';
import { ownAccount, requireConfirmedPassword, staffOf } from '../profile/own-account';
import { requireFeature } from '../users/account-settings';

/** `/user/api-tokens`: the user's own tokens (created after a password confirmation, shown once). */
export function registerApiTokenRoutes(deps: ModuleDeps, { tokens }: AccountsServices): void {
  const { api, db, config } = deps;
  const guards = (extra: RequestHandler[] = []) =>
    ownAccount([requireFeature(db, 'hasApiFeatures'), ...extra]);

  api.add({
    method: 'get',
    path: '/user/api-tokens',
    access: 'staff',
    before: guards(),
    handler: async (req, res) => {
      res.json(await tokens.list(staffOf(req)));
    },
  });
  api.add({
    method: 'post',
    path: '/user/api-tokens',
    access: 'staff',
    before: guards([requireConfirmedPassword(config)]),
    schemas: { body: ZApiTokenCreate },
    handler: async (req, res) => {
      res.status(201).json(await tokens.create(staffOf(req), req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'put',
    path: '/user/api-tokens/:id',
    access: 'staff',
    before: guards(),
    schemas: { params: ZIdParams, body: ZApiTokenUpdate },
    handler: async (req, res) => {
      res.json(await tokens.update(staffOf(req), req.parsed.params.id, req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'delete',
    path: '/user/api-tokens/:id',
    access: 'staff',
    before: guards(),
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      await tokens.revoke(staffOf(req), req.parsed.params.id, contextOf(req));
      res.status(204).end();
    },
  });
}

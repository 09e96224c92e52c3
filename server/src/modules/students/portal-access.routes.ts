import { z } from 'zod';
import { ZPortalPassword, ZPortalSetPassword } from '../../../../shared/schemas/portal-access';
import { contextOf } from '../../http/context';
import { ipKey } from '../../http/throttle';
import { AppError } from '../../lib/app-error';
import type { ModuleDeps } from '../module';
import type { PortalAccessService } from './portal-access.service';

const idParams = z.strictObject({ id: z.coerce.number().int().positive() });
const noBody = z.strictObject({}).optional();

/**
 * Portal access, staff side: `POST /api/students/{id}/portal/invite`, `POST /api/students/{id}/portal/password`
 * and `POST /api/students/{id}/reopen`, each behind `students.update` (and the student's branch scope: 404
 * outside it). On the portal host, the public `POST /api/password/set` spends an invitation link; anywhere else
 * it does not exist (404).
 */
export function registerPortalAccessRoutes(deps: ModuleDeps, service: PortalAccessService): void {
  const { api, throttle } = deps;

  api.add({
    method: 'post',
    path: '/students/:id/portal/invite',
    access: 'staff',
    permission: 'students.update',
    schemas: { params: idParams, body: noBody },
    handler: async (req, res) => {
      res.json(await service.invite(req.parsed.params.id, contextOf(req)));
    },
  });

  api.add({
    method: 'post',
    path: '/students/:id/portal/password',
    access: 'staff',
    permission: 'students.update',
    schemas: { params: idParams, body: ZPortalPassword },
    handler: async (req, res) => {
      res.json(await service.setPassword(req.parsed.params.id, req.parsed.body.password, contextOf(req)));
    },
  });

  api.add({
    method: 'post',
    path: '/students/:id/reopen',
    access: 'staff',
    permission: 'students.update',
    schemas: { params: idParams, body: noBody },
    handler: async (req, res) => {
      res.json(await service.reopen(req.parsed.params.id, contextOf(req)));
    },
  });

  api.add({
    method: 'post',
    path: '/password/set',
    access: 'public',
    before: [
      (req, _res, next) => {
        if (req.hostKind !== 'student') throw new AppError('not_found');
        next();
      },
      throttle({ name: 'portal-set-password', limit: 10, windowMs: 60_000, key: (req) => ipKey(req) }),
    ],
    schemas: { body: ZPortalSetPassword },
    handler: async (req, res) => {
      res.json(await service.setPasswordWithToken(req.parsed.body, contextOf(req)));
    },
  });
}

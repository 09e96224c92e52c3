import { ZForgotPassword, ZResetPassword } from '../../../../shared/schemas/auth';
import { contextOf } from '../../http/context';
import { ipKey } from '../../http/throttle';
import type { AccountsServices } from '../accounts.module';
import { normaliseEmail } from '../auth/auth.service';
import type { ModuleDeps } from '../module';

/**
 * The public password reset: request a link (same answer for every address), then reset with it. On the portal host
 * `POST /api/forgot-password` is the student's (a portal link, spent by `POST /api/password/set`), with the same
 * throttle and answer; `POST /api/reset-password` is staff's alone.
 */
export function registerPasswordResetRoutes(
  deps: ModuleDeps,
  { resets, portalAccount }: AccountsServices,
): void {
  const { api, throttle } = deps;
  api.add({
    method: 'post',
    path: '/forgot-password',
    access: 'public',
    before: [
      throttle({
        name: 'forgot-password',
        limit: 1,
        windowMs: 60_000,
        key: (req) => `email:${normaliseEmail(String(req.body?.email ?? ''))}`,
      }),
    ],
    schemas: { body: ZForgotPassword },
    handler: async (req, res) => {
      const service = req.hostKind === 'student' ? portalAccount.requestReset : resets.request;
      await service(req.parsed.body.email, contextOf(req), (answer) => res.json(answer));
    },
  });

  api.add({
    method: 'post',
    path: '/reset-password',
    access: 'public',
    before: [throttle({ name: 'reset-password', limit: 10, windowMs: 60_000, key: (req) => ipKey(req) })],
    schemas: { body: ZResetPassword },
    handler: async (req, res) => {
      res.json(await resets.reset(req.parsed.body, contextOf(req)));
    },
  });
}

import { ZForgotPassword, ZResetPassword } from '../../../../shared/schemas/auth';
import { contextOf } from '../../http/context';
import { ipKey } from '../../http/throttle';
import type { AccountsServices } from '../accounts.module';
import { normaliseEmail } from '../auth/auth.service';
import type { ModuleDeps } from '../module';

/** The public password reset: request a link (same answer for every address), then reset with it. */
export function registerPasswordResetRoutes(deps: ModuleDeps, { resets }: AccountsServices): void {
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
      await resets.request(req.parsed.body.email, contextOf(req), (answer) => res.json(answer));
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

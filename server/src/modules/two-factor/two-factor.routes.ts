import type { RequestHandler } from 'express';
import { ZTwoFactorChallenge } from '../../../../shared/schemas/auth';
import { ZTwoFactorConfirm } from '../../../../shared/schemas/profile';
import { contextOf } from '../../http/context';
import { ipKey } from '../../http/throttle';
import { ZIdParams } from '../../http/validate';
import { AppError } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import type { AccountsServices } from '../accounts.module';
import { auditService } from '../audit/audit.service';
import { beginSession } from '../auth/auth.controller';
import type { ModuleDeps } from '../module';
import { ownAccount, requireConfirmedPassword, staffOf } from '../profile/own-account';
import { requireFeature } from '../users/account-settings';

/** How long the password step of a 2FA sign-in stays good for the challenge. */
const PENDING_TWO_FACTOR_MS = 10 * 60_000;
const INVALID_CODE = 'twoFactorCodeInvalid';

/** The sign-in challenge, the user's own 2FA set-up, and an admin's reset of another user's 2FA. */
export function registerTwoFactorRoutes(deps: ModuleDeps, services: AccountsServices): void {
  const { api, db, config, auth, throttle } = deps;
  const { twoFactor, users } = services;

  api.add({
    method: 'post',
    path: '/two-factor-challenge',
    access: 'public',
    before: [
      throttle({
        name: 'two-factor',
        limit: 5,
        windowMs: 60_000,
        failuresOnly: true,
        // per pending user, whatever the IP
        key: (req) => `user:${req.session?.pendingTwoFactor?.userId ?? `none:${ipKey(req)}`}`,
      }),
    ],
    schemas: { body: ZTwoFactorChallenge },
    handler: async (req, res) => {
      const pending = req.session?.pendingTwoFactor;
      if (!pending || clock.now() - pending.at > PENDING_TWO_FACTOR_MS) throw new AppError('unauthenticated');
      const answer = req.parsed.body as { code?: string; recovery_code?: string };
      const ctx = contextOf(req);
      if (!(await twoFactor.verifyChallenge(pending.userId, answer))) {
        await auditService.record(db, ctx, {
          action: 'login_failed',
          entity: 'user',
          entityId: pending.userId,
          detail: { reason: 'two_factor', method: answer.code ? 'code' : 'recovery_code' },
        });
        throw AppError.field('validation', answer.code ? 'code' : 'recovery_code', INVALID_CODE);
      }
      const user = await auth.staffUserAfterChallenge(pending.userId);
      if (!user) throw new AppError('unauthenticated');
      const hash = await beginSession(req, (s) => {
        s.kind = 'staff';
        s.userId = user.id;
        s.pendingTwoFactor = undefined;
      });
      await auth.startStaffSession(user, hash, ctx);
      if (answer.recovery_code) {
        await auditService.record(
          db,
          { ...ctx, actor: { type: 'user', id: user.id } },
          {
            action: 'two_factor_recovery_code_used',
            entity: 'user',
            entityId: user.id,
          },
        );
      }
      res.json({ user });
    },
  });

  // an admin resets the 2FA of a user who lost their device (they enrol again at the next sign-in)
  api.add({
    method: 'delete',
    path: '/users/:id/two-factor-authentication',
    access: 'staff',
    permission: 'users.update',
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      const ctx = contextOf(req);
      // 404 outside the caller's branch scope, 403 for an account stronger than the caller's (access rules)
      const target = await users.mustBeChangeable(req.parsed.params.id, ctx);
      // one's own 2FA goes off on the profile, after a password confirmation (quality §5)
      if (target.id === ctx.actor.id) throw AppError.field('business_rule', 'id', 'ownTwoFactorOnProfile');
      await twoFactor.disable(Number(target.id), ctx);
      res.status(204).end();
    },
  });

  // the user's own two-factor authentication
  const confirmed = requireConfirmedPassword(config);
  const twoFa = (extra: RequestHandler[] = []) =>
    ownAccount([requireFeature(db, 'canManageTwoFactorAuthentication'), ...extra]);
  api.add({
    method: 'get',
    path: '/user/two-factor-authentication',
    access: 'staff',
    before: twoFa(),
    handler: async (req, res) => {
      res.json(await twoFactor.status(staffOf(req).id));
    },
  });
  api.add({
    method: 'post',
    path: '/user/two-factor-authentication',
    access: 'staff',
    before: twoFa([confirmed]),
    handler: async (req, res) => {
      res.json(await twoFactor.enable(staffOf(req).id, contextOf(req)));
    },
  });
  api.add({
    method: 'get',
    path: '/user/two-factor-qr-code',
    access: 'staff',
    before: twoFa([confirmed]),
    handler: async (req, res) => {
      res.json(await twoFactor.pendingSecret(staffOf(req).id));
    },
  });
  api.add({
    method: 'post',
    path: '/user/confirmed-two-factor-authentication',
    access: 'staff',
    before: twoFa([confirmed]),
    schemas: { body: ZTwoFactorConfirm },
    handler: async (req, res) => {
      res.json(await twoFactor.confirm(staffOf(req).id, req.parsed.body.code, contextOf(req)));
    },
  });
  api.add({
    method: 'post',
    path: '/user/two-factor-recovery-codes',
    access: 'staff',
    before: twoFa([confirmed]),
    handler: async (req, res) => {
      res.json(await twoFactor.regenerateRecoveryCodes(staffOf(req).id, contextOf(req)));
    },
  });
  api.add({
    method: 'delete',
    path: '/user/two-factor-authentication',
    access: 'staff',
    before: twoFa([confirmed]),
    handler: async (req, res) => {
      await twoFactor.disable(staffOf(req).id, contextOf(req));
      res.status(204).end();
    },
  });
}

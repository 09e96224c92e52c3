import { FIELD_MESSAGES } from '../../../../shared/messages';
import { ZVerifyEmail } from '../../../../shared/schemas/auth';
import { ZConfirmPassword, ZPasswordUpdate, ZProfileUpdate } from '../../../../shared/schemas/profile';
import { contextOf } from '../../http/context';
import { ipKey } from '../../http/throttle';
import { AppError } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import { endBrowserSession } from '../../sessions/session';
import type { AccountsServices } from '../accounts.module';
import { auditService } from '../audit/audit.service';
import type { ModuleDeps } from '../module';
import { loadFeatures, requireFeature } from '../users/account-settings';
import {
  ownAccount,
  passwordRecentlyConfirmed,
  requireConfirmedPassword,
  sessionHash,
  staffOf,
} from './own-account';
import { WRONG_PASSWORD } from './profile.service';

/**
 * The signed-in user's own account (`/user/profile`): details, password, password confirmation, browser
 * sessions, email verification and account deletion.
 */
export function registerProfileRoutes(deps: ModuleDeps, { profile }: AccountsServices): void {
  const { api, db, config, throttle } = deps;
  const confirmed = requireConfirmedPassword(config);

  api.add({
    method: 'post',
    path: '/email/verify',
    access: 'public',
    before: [requireFeature(db, 'hasEmailVerification')],
    schemas: { body: ZVerifyEmail },
    handler: async (req, res) => {
      res.json(await profile.verifyEmail(req.parsed.body, contextOf(req)));
    },
  });

  api.add({
    method: 'get',
    path: '/user/profile',
    access: 'staff',
    before: ownAccount(),
    handler: async (req, res) => {
      res.json({ user: await profile.show(staffOf(req)), features: await loadFeatures(db) });
    },
  });
  api.add({
    method: 'put',
    path: '/user/profile',
    access: 'staff',
    before: ownAccount([requireFeature(db, 'canUpdateProfileInformation')]),
    schemas: { body: ZProfileUpdate },
    handler: async (req, res) => {
      res.json(await profile.update(staffOf(req), req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'put',
    path: '/user/password',
    access: 'staff',
    before: ownAccount([requireFeature(db, 'canUpdatePassword')]),
    schemas: { body: ZPasswordUpdate },
    handler: async (req, res) => {
      const result = await profile.changePassword(
        staffOf(req).id,
        req.parsed.body,
        sessionHash(req),
        contextOf(req),
      );
      res.json({ message: FIELD_MESSAGES.passwordUpdated, ...result });
    },
  });
  api.add({
    method: 'post',
    path: '/user/confirm-password',
    access: 'staff',
    before: ownAccount([
      throttle({
        name: 'confirm-password',
        limit: 5,
        windowMs: 60_000,
        failuresOnly: true,
        key: (req) => `user:${req.auth?.kind === 'staff' ? req.auth.user.id : ipKey(req)}`,
      }),
    ]),
    schemas: { body: ZConfirmPassword },
    handler: async (req, res) => {
      const user = staffOf(req);
      if (!(await profile.checkPassword(user.id, req.parsed.body.password))) {
        await auditService.record(db, contextOf(req), {
          action: 'password_confirmation_failed',
          entity: 'user',
          entityId: user.id,
        });
        throw AppError.field('validation', 'password', WRONG_PASSWORD);
      }
      req.session.passwordConfirmedAt = clock.now();
      res.json({ confirmed: true, valid_for_seconds: Math.floor(config.session.passwordConfirmMs / 1000) });
    },
  });
  api.add({
    method: 'get',
    path: '/user/confirmed-password-status',
    access: 'staff',
    before: ownAccount(),
    handler: (req, res) => {
      res.json({ confirmed: passwordRecentlyConfirmed(req, config) });
    },
  });

  // browser sessions
  api.add({
    method: 'get',
    path: '/user/sessions',
    access: 'staff',
    before: ownAccount(),
    handler: async (req, res) => {
      res.json(await profile.sessions(staffOf(req).id, sessionHash(req)));
    },
  });
  api.add({
    method: 'post',
    path: '/user/sessions/logout-others',
    access: 'staff',
    before: ownAccount([confirmed]),
    handler: async (req, res) => {
      const ended = await profile.logoutOtherSessions(staffOf(req).id, sessionHash(req), contextOf(req));
      res.json({ ended });
    },
  });

  // email verification, account deletion
  api.add({
    method: 'post',
    path: '/user/email/verification-notification',
    access: 'staff',
    before: ownAccount([
      requireFeature(db, 'hasEmailVerification'),
      throttle({ name: 'verify-mail', limit: 6, windowMs: 60_000, key: (req) => `user:${staffOf(req).id}` }),
    ]),
    handler: async (req, res) => {
      await profile.sendVerification(staffOf(req).id);
      res.status(202).json({ message: 'A new verification link has been sent to your email address.' });
    },
  });
  api.add({
    method: 'delete',
    path: '/user',
    access: 'staff',
    before: ownAccount([requireFeature(db, 'hasAccountDeletionFeatures'), confirmed]),
    handler: async (req, res) => {
      await profile.deleteAccount(staffOf(req).id, contextOf(req));
      await endBrowserSession(req, res, config);
      res.status(204).end();
    },
  });
}

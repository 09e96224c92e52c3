import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { FEATURE_FLAGS, type FeatureFlag } from '../../../shared/features';
import {
  ZForgotPassword,
  ZRegister,
  ZResetPassword,
  ZTwoFactorChallenge,
  ZVerifyEmail,
} from '../../../shared/schemas/auth';
import {
  ZApiTokenCreate,
  ZApiTokenUpdate,
  ZConfirmPassword,
  ZPasswordUpdate,
  ZProfileUpdate,
  ZSmtpSettings,
  ZSmtpTest,
  ZTwoFactorConfirm,
} from '../../../shared/schemas/profile';
import { contextOf } from '../http/context';
import { ipKey } from '../http/throttle';
import { ZIdParams } from '../http/validate';
import { AppError } from '../lib/app-error';
import { clock } from '../lib/clock';
import { sha256 } from '../lib/crypto';
import { registerResource } from '../resources/resource.routes';
import { SESSION_COOKIE, destroySession } from '../sessions/session';
import { createApiTokensService } from './api-tokens/api-tokens.service';
import { auditService } from './audit/audit.service';
import { beginSession } from './auth/auth.controller';
import { normaliseEmail } from './auth/auth.service';
import { branchesResource } from './branches/branches.resource';
import { companiesResource } from './companies/companies.resource';
import { createMailService } from './mail/mail.service';
import type { ModuleDeps } from './module';
import { createPasswordResetService } from './password-reset/password-reset.service';
import { WRONG_PASSWORD, createProfileService } from './profile/profile.service';
import { createRegistrationService } from './registration/registration.service';
import { rolesResource } from './roles/roles.resource';
import { createTwoFactorService } from './two-factor/two-factor.service';
import { createAccountSettingsService, loadFeatures, requireFeature } from './users/account-settings';
import { usersResource } from './users/users.resource';
import { registerSettingsSection } from './settings/settings.routes';

/** How long the password step of a 2FA sign-in stays good for the challenge. */
const PENDING_TWO_FACTOR_MS = 10 * 60_000;
const INVALID_CODE = 'The provided two factor authentication code was invalid.';

const ZAccountSettings = z.strictObject({
  require_two_factor: z.boolean().optional(),
  registration_enabled: z.boolean().optional(),
  features: z.partialRecord(z.enum(FEATURE_FLAGS), z.boolean()).optional(),
});

function staffOf(req: Request) {
  if (req.auth?.kind !== 'staff') throw new AppError('unauthenticated');
  return req.auth.user;
}

/** Account routes belong to a browser session: an API token cannot manage its own account. */
const sessionOnly: RequestHandler = (req, _res, next) => {
  if (req.auth?.kind === 'staff' && req.auth.user.api_token_id) {
    throw new AppError('forbidden', 'This action needs a signed-in browser session.');
  }
  next();
};

/** Accounts and access (users, roles, companies, branches, profile, 2FA, API tokens, mail): routes registered here. */
export function registerAccountsModule(deps: ModuleDeps): void {
  const { api, db, config, auth, throttle } = deps;

  const users = registerResource(api, db, usersResource);
  for (const resource of [rolesResource, companiesResource, branchesResource])
    registerResource(api, db, resource);

  const mail = createMailService(db, config);
  const profile = createProfileService({ db, config, mail, users });
  const twoFactor = createTwoFactorService(db, config);
  const tokens = createApiTokensService(db);
  const resets = createPasswordResetService(db, config, mail);
  const registration = createRegistrationService(db);
  const feature = (flag: FeatureFlag) => requireFeature(db, flag);

  /** Sensitive actions need `POST /user/confirm-password` within the window (quality §5): else 423. */
  const confirmed: RequestHandler = (req, _res, next) => {
    const at = req.session?.passwordConfirmedAt;
    if (!at || clock.now() - at > config.session.passwordConfirmMs) {
      throw new AppError('password_confirmation_required');
    }
    next();
  };
  const sessionHash = (req: Request) => sha256(req.sessionID);

  // an admin resets the 2FA of a user who lost their device (they enrol again at the next sign-in)
  api.add({
    method: 'delete',
    path: '/users/:id/two-factor-authentication',
    access: 'staff',
    permission: 'users.update',
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      const ctx = contextOf(req);
      const target = await users.get(req.parsed.params.id, ctx);
      if (target.is_admin && !ctx.access?.isAdmin) throw new AppError('forbidden');
      await twoFactor.disable(target.id, ctx);
      res.status(204).end();
    },
  });

  // ---- sign-in second step, password reset, registration, email verification (public) ----
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
        s.isAdmin = user.is_admin;
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
      res.json(await resets.request(req.parsed.body.email, contextOf(req)));
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

  api.add({
    method: 'post',
    path: '/register',
    access: 'public',
    before: [
      async (_req, _res, next) => {
        if (!(await registration.enabled())) throw new AppError('not_found');
        next();
      },
      throttle({ name: 'register', limit: 5, windowMs: 60 * 60_000, key: (req) => ipKey(req) }),
    ],
    schemas: { body: ZRegister },
    handler: async (req, res) => {
      res.status(201).json(await registration.register(req.parsed.body, contextOf(req)));
    },
  });

  api.add({
    method: 'post',
    path: '/email/verify',
    access: 'public',
    before: [feature('hasEmailVerification')],
    schemas: { body: ZVerifyEmail },
    handler: async (req, res) => {
      res.json(await profile.verifyEmail(req.parsed.body, contextOf(req)));
    },
  });

  // ---- the signed-in user's own account ----
  const own = (before: RequestHandler[] = []) => [sessionOnly, ...before];

  api.add({
    method: 'get',
    path: '/user/profile',
    access: 'staff',
    before: own(),
    handler: async (req, res) => {
      res.json({ user: await profile.show(staffOf(req)), features: await loadFeatures(db) });
    },
  });
  api.add({
    method: 'put',
    path: '/user/profile',
    access: 'staff',
    before: own([feature('canUpdateProfileInformation')]),
    schemas: { body: ZProfileUpdate },
    handler: async (req, res) => {
      res.json(await profile.update(staffOf(req), req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'put',
    path: '/user/password',
    access: 'staff',
    before: own([feature('canUpdatePassword')]),
    schemas: { body: ZPasswordUpdate },
    handler: async (req, res) => {
      await profile.changePassword(staffOf(req).id, req.parsed.body, sessionHash(req), contextOf(req));
      res.json({ message: 'Your password has been updated.' });
    },
  });
  api.add({
    method: 'post',
    path: '/user/confirm-password',
    access: 'staff',
    before: own([
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
    before: own(),
    handler: (req, res) => {
      const at = req.session?.passwordConfirmedAt;
      res.json({ confirmed: Boolean(at && clock.now() - at <= config.session.passwordConfirmMs) });
    },
  });

  // two-factor authentication
  const twoFa = (extra: RequestHandler[] = []) =>
    own([feature('canManageTwoFactorAuthentication'), ...extra]);
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

  // browser sessions
  api.add({
    method: 'get',
    path: '/user/sessions',
    access: 'staff',
    before: own(),
    handler: async (req, res) => {
      res.json(await profile.sessions(staffOf(req).id, sessionHash(req)));
    },
  });
  api.add({
    method: 'post',
    path: '/user/sessions/logout-others',
    access: 'staff',
    before: own([confirmed]),
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
    before: own([
      feature('hasEmailVerification'),
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
    before: own([feature('hasAccountDeletionFeatures'), confirmed]),
    handler: async (req, res) => {
      await profile.deleteAccount(staffOf(req).id, contextOf(req));
      await destroySession(req);
      res.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: config.isProduction,
      });
      res.status(204).end();
    },
  });

  // API tokens
  const apiTokens = (extra: RequestHandler[] = []) => own([feature('hasApiFeatures'), ...extra]);
  api.add({
    method: 'get',
    path: '/user/api-tokens',
    access: 'staff',
    before: apiTokens(),
    handler: async (req, res) => {
      res.json(await tokens.list(staffOf(req)));
    },
  });
  api.add({
    method: 'post',
    path: '/user/api-tokens',
    access: 'staff',
    before: apiTokens([confirmed]),
    schemas: { body: ZApiTokenCreate },
    handler: async (req, res) => {
      res.status(201).json(await tokens.create(staffOf(req), req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'put',
    path: '/user/api-tokens/:id',
    access: 'staff',
    before: apiTokens(),
    schemas: { params: ZIdParams, body: ZApiTokenUpdate },
    handler: async (req, res) => {
      res.json(await tokens.update(staffOf(req), req.parsed.params.id, req.parsed.body, contextOf(req)));
    },
  });
  api.add({
    method: 'delete',
    path: '/user/api-tokens/:id',
    access: 'staff',
    before: apiTokens(),
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      await tokens.revoke(staffOf(req), req.parsed.params.id, contextOf(req));
      res.status(204).end();
    },
  });

  // ---- admin settings of this module ----
  registerSettingsSection(api, {
    path: '/settings/smtp',
    body: ZSmtpSettings,
    read: () => mail.show(),
    update: (input, ctx) => mail.save(input, ctx),
  });
  api.add({
    method: 'post',
    path: '/settings/smtp/test',
    access: 'staff',
    permission: 'settings.update',
    before: [
      throttle({ name: 'smtp-test', limit: 10, windowMs: 60_000, key: (req) => `user:${staffOf(req).id}` }),
    ],
    schemas: { body: ZSmtpTest },
    handler: async (req, res) => {
      await mail.send({
        to: req.parsed.body.to,
        subject: 'Test mail',
        text: 'This is a test mail from the study-abroad administration system. The SMTP settings work.',
      });
      res.json({ message: 'The test mail was sent.' });
    },
  });

  const accountSettings = createAccountSettingsService(db);
  registerSettingsSection(api, {
    path: '/settings/accounts',
    body: ZAccountSettings,
    read: accountSettings.read,
    update: accountSettings.update,
  });
}

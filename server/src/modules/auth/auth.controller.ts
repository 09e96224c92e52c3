import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import { sha256 } from '../../lib/crypto';
import { contextOf } from '../../http/context';
import { issueCsrfToken } from '../../http/csrf';
import type { Throttle } from '../../http/throttle';
import { endBrowserSession, regenerateSession, saveSession } from '../../sessions/session';
import { settingsRepository } from '../settings/settings.repository';
import { readSettings } from '../settings/settings.service';
import { loadFeatures } from '../users/account-settings';
import type { AuthService } from './auth.service';

/** Starts a signed-in session under a new id (a planted pre-login id never becomes authenticated). */
export async function beginSession(req: Request, fill: (s: Request['session']) => void): Promise<string> {
  await regenerateSession(req);
  const now = clock.now();
  req.session.createdAt = now;
  req.session.lastSeenAt = now;
  fill(req.session);
  await saveSession(req);
  return sha256(req.sessionID);
}

export function createAuthController(deps: {
  config: Config;
  db: Knex;
  auth: AuthService;
  loginThrottles: { key: (req: Request) => string; throttle: Throttle }[];
}) {
  const { auth, config, db } = deps;

  const controller = {
    heartbeat: ((req, res) => {
      // `timeout` tells an open tab why it was signed out, so it can say so on the sign-in screen
      res.json(req.authTimedOut ? { auth: false, timeout: true } : { auth: Boolean(req.auth) });
    }) satisfies RequestHandler,

    csrfToken: ((req, res) => {
      res.json({ token: issueCsrfToken(req, res, config) });
    }) satisfies RequestHandler,

    appConfig: (async (req, res) => {
      const registration = await settingsRepository.get(db, 'registration_enabled');
      res.json({
        portal: req.hostKind === 'student',
        registration_enabled: req.hostKind === 'staff' && registration === 'true',
        max_upload_mb: (await readSettings(db)).max_upload_mb,
        features: await loadFeatures(db),
      });
    }) satisfies RequestHandler,

    login: (async (req, res) => {
      const { email, password, remember } = req.parsed.body as {
        email: string;
        password: string;
        remember?: boolean;
      };
      const ctx = contextOf(req);
      if (req.hostKind === 'student') {
        const { student, mustChangePassword } = await auth.attemptStudentLogin(email, password, ctx);
        const hash = await beginSession(req, (s) => {
          s.kind = 'student';
          s.studentId = student.id;
        });
        await auth.startStudentSession(student, hash, ctx);
        // a password staff set must be changed before anything else (the portal issue builds that page)
        res.json({ student, must_change_password: mustChangePassword });
        return;
      }
      const result = await auth.attemptStaffLogin(email, password, ctx);
      for (const t of deps.loginThrottles) await t.throttle.resetKey(t.key(req));
      if (result.kind === 'two_factor') {
        await regenerateSession(req);
        req.session.pendingTwoFactor = {
          userId: result.userId,
          at: clock.now(),
          remember: Boolean(remember),
        };
        await saveSession(req);
        res.json({ two_factor: true });
        return;
      }
      const hash = await beginSession(req, (s) => {
        s.kind = 'staff';
        s.userId = result.user.id;
      });
      await auth.startStaffSession(result.user, hash, ctx);
      res.json({ user: result.user });
    }) satisfies RequestHandler,

    logout: (async (req, res) => {
      if (req.auth) await auth.recordLogout(contextOf(req), sha256(req.sessionID));
      await endBrowserSession(req, res, config);
      res.status(204).end();
    }) satisfies RequestHandler,

    user: (async (req, res) => {
      if (req.auth?.kind !== 'staff') throw new AppError('unauthenticated');
      const user = req.auth.user;
      res.json({
        user,
        features: await loadFeatures(db),
        // admins require 2FA and this account has none yet: only its profile's 2FA setup is open
        two_factor_setup_required: !user.two_factor_enabled && (await auth.twoFactorRequired()),
      });
    }) satisfies RequestHandler,
  };
  return controller;
}

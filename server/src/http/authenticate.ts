import type { Request, RequestHandler } from 'express';
import type { Config } from '../config';
import { AppError } from '../lib/app-error';
import { clock } from '../lib/clock';
import { sha256 } from '../lib/crypto';
import type { AuthService } from '../modules/auth/auth.service';
import { destroySession } from '../sessions/session';
import { contextOf, hostKindOf } from './context';

/**
 * What an account without confirmed 2FA may still reach when admins require 2FA for all staff: signing in
 * and out, and its own profile's 2FA setup (paths under /api).
 */
const TWO_FACTOR_SETUP =
  /^\/(heartbeat|csrf-token|app-config|login|logout|user|user\/(profile|confirm-password|confirmed-password-status|two-factor-authentication|confirmed-two-factor-authentication|two-factor-qr-code|two-factor-recovery-codes))\/?$/;

const HEARTBEAT = /^\/heartbeat\/?$/;

function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice('Bearer '.length).trim();
}

/**
 * Resolves the caller: a bearer API token (cookies ignored), or the session, where it enforces the idle and
 * absolute timeouts on the server, drops sessions whose browser-session row is gone, and ignores a session on
 * the other front end's host. Then the admins' "require 2FA" rule.
 */
export function authenticate(config: Config, auth: AuthService): RequestHandler {
  const touchEvery = Math.min(60_000, config.session.idleMs / 10);

  async function fromSession(req: Request): Promise<void> {
    const s = req.session;
    if (s?.timedOutAt) {
      // every request says so until the browser signs in again (or out), not only the first one after expiry
      req.authTimedOut = true;
      return;
    }
    if (!s?.kind || (!s.userId && !s.studentId)) return;
    const now = clock.now();
    const hash = sha256(req.sessionID);
    const idle = now - (s.lastSeenAt ?? 0) > config.session.idleMs;
    const tooOld = now - (s.createdAt ?? 0) > config.session.absoluteMs;
    if (idle || tooOld) {
      await auth.endSession(hash);
      s.kind = undefined;
      s.userId = undefined;
      s.studentId = undefined;
      s.pendingTwoFactor = undefined;
      s.timedOutAt = now;
      req.authTimedOut = true;
      return;
    }
    if (s.kind !== req.hostKind) return;
    const resolved = await auth.resolveSession(
      { kind: s.kind, userId: s.userId, studentId: s.studentId },
      hash,
      { ip: req.ip ?? null, now },
    );
    if (!resolved) {
      await destroySession(req);
      return;
    }
    req.auth = resolved;
    const confirmedAt = s.passwordConfirmedAt;
    req.recentPasswordConfirmation = Boolean(
      confirmedAt && now - confirmedAt <= config.session.adminConfirmMs,
    );
    // the heartbeat only asks: an open tab left alone still reaches the idle timeout
    if (!HEARTBEAT.test(req.path) && now - (s.lastSeenAt ?? 0) >= touchEvery) s.lastSeenAt = now;
  }

  return async (req, _res, next) => {
    req.hostKind = hostKindOf(req.hostname);
    const token = bearerToken(req);
    if (token !== null) {
      // a bearer request is the token's alone: a cookie sent along changes nothing
      if (token && req.hostKind === 'staff') req.auth = (await auth.resolveToken(sha256(token))) ?? undefined;
    } else {
      await fromSession(req);
    }
    if (
      req.auth?.kind === 'staff' &&
      !req.auth.user.two_factor_enabled &&
      !TWO_FACTOR_SETUP.test(req.path) &&
      (await auth.twoFactorRequired())
    ) {
      await auth.recordDenied(contextOf(req), 'two_factor_required', req.originalUrl.split('?')[0]);
      throw new AppError('two_factor_required');
    }
    next();
  };
}

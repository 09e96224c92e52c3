import type { RequestHandler } from 'express';
import type { Config } from '../config';
import { clock } from '../lib/clock';
import { sha256 } from '../lib/crypto';
import type { AuthService } from '../modules/auth/auth.service';
import { destroySession } from '../sessions/session';
import { hostKindOf } from './context';

/**
 * Resolves the caller from the session: enforces the idle and absolute timeouts on the server, drops
 * sessions whose browser-session row is gone, and ignores a session on the other front end's host.
 */
export function authenticate(config: Config, auth: AuthService): RequestHandler {
  const touchEvery = Math.min(60_000, config.session.idleMs / 10);
  return async (req, _res, next) => {
    req.hostKind = hostKindOf(req.hostname);
    const s = req.session;
    if (!s?.kind || (!s.userId && !s.studentId)) return next();
    const now = clock.now();
    const hash = sha256(req.sessionID);
    const idle = now - (s.lastSeenAt ?? 0) > config.session.idleMs;
    const tooOld = now - (s.createdAt ?? 0) > config.session.absoluteMs;
    if (idle || tooOld) {
      await auth.endSession(hash);
      await destroySession(req);
      req.authTimedOut = true;
      return next();
    }
    if (s.kind !== req.hostKind) return next();
    const resolved = await auth.resolveSession(
      { kind: s.kind, userId: s.userId, studentId: s.studentId, isAdmin: s.isAdmin },
      hash,
      { ip: req.ip ?? null, now },
    );
    if (!resolved) {
      await destroySession(req);
      return next();
    }
    req.auth = resolved;
    if (now - (s.lastSeenAt ?? 0) >= touchEvery) s.lastSeenAt = now;
    next();
  };
}

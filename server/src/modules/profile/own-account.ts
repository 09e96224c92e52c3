import type { Request, RequestHandler } from 'express';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import { sha256 } from '../../lib/crypto';

/** The signed-in staff user of a request (routes with `access: 'staff'`). */
export function staffOf(req: Request) {
  if (req.auth?.kind !== 'staff') throw new AppError('unauthenticated');
  return req.auth.user;
}

/** Account routes belong to a browser session: an API token cannot manage its own account. */
export const sessionOnly: RequestHandler = (req, _res, next) => {
  if (req.auth?.kind === 'staff' && req.auth.user.api_token_id) {
    throw new AppError('forbidden', 'browserSessionOnly');
  }
  next();
};

/** The guards of a route on the user's own account: a browser session, then `before`. */
export function ownAccount(before: RequestHandler[] = []): RequestHandler[] {
  return [sessionOnly, ...before];
}

/** Whether this session confirmed the password within the window (quality §5). */
export function passwordRecentlyConfirmed(req: Request, config: Config): boolean {
  const at = req.session?.passwordConfirmedAt;
  return Boolean(at && clock.now() - at <= config.session.passwordConfirmMs);
}

/** Sensitive actions need `POST /user/confirm-password` within the window (quality §5): else 423. */
export function requireConfirmedPassword(config: Config): RequestHandler {
  return (req, _res, next) => {
    if (!passwordRecentlyConfirmed(req, config)) throw new AppError('password_confirmation_required');
    next();
  };
}

/** The key of this browser session in `user_sessions` (the session id is never stored). */
export const sessionHash = (req: Request): string => sha256(req.sessionID);

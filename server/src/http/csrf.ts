import type { Request, RequestHandler } from 'express';
import { csrfSync } from 'csrf-sync';
import { AppError } from '../lib/app-error';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Synchroniser tokens kept in the session (csrf-sync; the named `csurf` is deprecated and archived). */
const csrf = csrfSync({
  getTokenFromRequest: (req) => req.get('x-csrf-token'),
});

export function csrfToken(req: Request): string {
  return csrf.generateToken(req, false);
}

function crossOrigin(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.get('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host !== req.get('host');
  } catch {
    return true;
  }
}

/**
 * Every state-changing request made with a session cookie carries the session's token in `X-CSRF-Token`,
 * and comes from this very host. Requests authorised by a bearer token carry no cookie and need none.
 */
export const csrfProtection: RequestHandler = (req, _res, next) => {
  if (SAFE.has(req.method)) return next();
  if (req.get('authorization')?.startsWith('Bearer ') && !req.get('cookie')) return next();
  if (crossOrigin(req)) throw new AppError('csrf', 'Cross-site request refused.');
  if (!csrf.isRequestValid(req)) throw new AppError('csrf');
  next();
};

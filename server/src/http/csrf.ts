import type { Request, RequestHandler, Response } from 'express';
import { parse as parseCookies } from 'cookie';
import { csrfSync } from 'csrf-sync';
import type { Config } from '../config';
import { AppError } from '../lib/app-error';
import { randomToken, safeEqual } from '../lib/crypto';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The anonymous visitor's token: in a cookie of its own, so that nothing is stored on the server for it. */
export const CSRF_COOKIE = 'sa_csrf';

/** Synchroniser tokens kept in the session (csrf-sync; the named `csurf` is deprecated and archived). */
const csrf = csrfSync({
  getTokenFromRequest: (req) => req.get('x-csrf-token'),
});

/**
 * Whether the request carries a session worth protecting with a synchroniser token: signed in, or half-way
 * through a 2FA sign-in. An anonymous visitor has none, and is given none (quality §36).
 */
function liveSession(req: Request): boolean {
  const s = req.session;
  return Boolean(s && (s.kind || s.pendingTwoFactor));
}

function anonymousToken(req: Request): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  const value = parseCookies(header)[CSRF_COOKIE];
  return value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
}

/**
 * The token the client sends back in `X-CSRF-Token`. A live session keeps its token in the session (csrf-sync);
 * an anonymous visitor gets it in an HttpOnly cookie (a double-submit token: a cross-site page can neither read
 * it nor set the header), so that fetching it stores nothing — no session row per visitor.
 */
export function issueCsrfToken(req: Request, res: Response, config: Config): string {
  if (liveSession(req)) return csrf.generateToken(req, false);
  const existing = anonymousToken(req);
  if (existing) return existing;
  const token = randomToken(32);
  res.cookie(CSRF_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    path: '/',
  });
  return token;
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
 * Every state-changing request carries the token in `X-CSRF-Token` — a signed-in session's own, or an anonymous
 * visitor's cookie token — and comes from this very host. Requests authorised by a bearer token carry no cookie
 * and need none.
 */
export const csrfProtection: RequestHandler = (req, _res, next) => {
  if (SAFE.has(req.method)) return next();
  if (req.get('authorization')?.startsWith('Bearer ') && !req.get('cookie')) return next();
  if (crossOrigin(req)) throw new AppError('csrf', 'crossSite');
  if (liveSession(req)) {
    if (!csrf.isRequestValid(req)) throw new AppError('csrf');
    return next();
  }
  const expected = anonymousToken(req);
  const sent = req.get('x-csrf-token');
  if (!expected || !sent || !safeEqual(sent, expected)) throw new AppError('csrf');
  next();
};

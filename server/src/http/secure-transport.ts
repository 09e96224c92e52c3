import type { Request, RequestHandler } from 'express';
import type { Config } from '../config';
import { AppError } from '../lib/app-error';
import { logger } from '../lib/logger';

/** The calls that begin a browser's session: its CSRF token, the sign-in (staff and portal) and its 2FA step. */
const SESSION_STARTS = new Set([
  'GET /csrf-token',
  'HEAD /csrf-token',
  'POST /login',
  'POST /two-factor-challenge',
]);

/** The operator hears of refusals at most this often (with the count since), not once per request. */
export const HTTPS_WARNING_INTERVAL_MS = 10 * 60_000;

function startsSession(req: Request): boolean {
  // as Express routes them: case-insensitive, a trailing slash allowed
  return SESSION_STARTS.has(`${req.method} ${req.path.toLowerCase().replace(/\/$/, '')}`);
}

/**
 * Sign-in over plain HTTP while the cookies are `Secure` (production without COOKIE_SECURE=false). A browser keeps
 * no Secure cookie from a plain-HTTP answer and express-session sets none, so the sign-in answered 200 and did not
 * stick (`http://localhost`), or failed as "CSRF token mismatch" (a named host), and nothing was logged. Now the
 * calls that start a session answer 403 `https_required` (the sign-in pages say HTTPS is needed, in the user's
 * language), and the log says why and what to change. "Plain HTTP" is `req.secure`: the socket's TLS, or the
 * `X-Forwarded-Proto` of a proxy `TRUST_PROXY` names (an untrusted proxy's header is not believed, as
 * express-session does not believe it either). Mounted under `/api`, before the session and the CSRF check.
 */
export function requireSecureTransport(config: Config): RequestHandler {
  if (!config.cookieSecure) return (_req, _res, next) => next();
  let lastWarned = -Infinity;
  let refused = 0;
  return (req, _res, next) => {
    if (req.secure || !startsSession(req)) return next();
    refused += 1;
    const now = Date.now();
    if (now - lastWarned >= HTTPS_WARNING_INTERVAL_MS) {
      logger.warn(
        'Sign-in refused over plain HTTP: the session cookie is Secure (production), so a browser would not keep ' +
          'it. Serve the site over HTTPS (docker/compose.yaml has Caddy); behind a TLS proxy, set TRUST_PROXY to ' +
          'its address so that its X-Forwarded-Proto is believed; on a trusted LAN only, set COOKIE_SECURE=false.',
        {
          host: req.get('host') ?? null,
          path: req.originalUrl.split('?')[0],
          x_forwarded_proto: req.get('x-forwarded-proto') ?? null,
          remote_address: req.socket.remoteAddress ?? null,
          trust_proxy: config.trustProxy,
          refused_since_last_warning: refused,
        },
      );
      lastWarned = now;
      refused = 0;
    }
    throw new AppError('https_required');
  };
}

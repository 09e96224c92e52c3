import type { Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import type { Redis } from 'ioredis';
import { RedisStore } from 'connect-redis';
import type { Knex } from 'knex';
import type { Config } from '../config';
import { KnexSessionStore } from './knex-session-store';

export type SessionKind = 'staff' | 'student';

declare module 'express-session' {
  interface SessionData {
    kind?: SessionKind;
    userId?: number;
    studentId?: number;
    /** ms since epoch: when the user signed in, and when the session last served a request */
    createdAt?: number;
    lastSeenAt?: number;
    /** the password step is done, the 2FA step is not */
    pendingTwoFactor?: { userId: number; at: number; remember: boolean };
    passwordConfirmedAt?: number;
    /** the signed-in session expired (idle or absolute): answered with the timeout flag until the next sign-in */
    timedOutAt?: number;
    csrfToken?: string;
  }
}

/** The session cookie: a non-default name, host-only, HttpOnly, SameSite=Lax, Secure in production. */
export const SESSION_COOKIE = 'sa_session';

export function createSessionMiddleware(
  config: Config,
  db: Knex,
  redis?: Redis,
  prefix = 'sess:',
): RequestHandler {
  const store = redis
    ? new RedisStore({
        client: redis,
        prefix,
        ttl: Math.ceil(config.session.absoluteMs / 1000),
        // no EXPIRE per request: the key lives as long as the cookie (the absolute timeout) from each save
        disableTouch: true,
      })
    : new KnexSessionStore(db, config.session.absoluteMs);
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    proxy: config.trustProxy ? true : undefined,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure,
      maxAge: config.session.absoluteMs,
      path: '/',
    },
  });
}

export function regenerateSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

export function saveSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}

/** Ends the browser's session: the stored session goes and the cookie is cleared (logout, account deletion). */
export async function endBrowserSession(req: Request, res: Response, config: Config): Promise<void> {
  await destroySession(req);
  res.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
  });
}

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Config } from './config';
import { ApiRouter } from './http/api-router';
import { authenticate } from './http/authenticate';
import { contextOf } from './http/context';
import { csrfProtection } from './http/csrf';
import { errorHandler, notFoundApi } from './http/error-handler';
import { spaRouter } from './http/spa';
import { readJsonBody } from './http/validate';
import { ipKey, throttleFactory } from './http/throttle';
import { logger, requestScope } from './lib/logger';
import { configurePasswords } from './lib/passwords';
import { createAuthController } from './modules/auth/auth.controller';
import { loginKeys, registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { registerPortalModule } from './modules/portal/portal.module';
import { registerAccountsModule } from './modules/accounts.module';
import { registerFilesModule } from './modules/files.module';
import { registerCalendarModule } from './modules/calendar/calendar.module';
import { registerStudentsModule } from './modules/students/students.module';
import { registerReferenceModule, registerReferenceRecordRoutes } from './modules/reference.module';
import { registerDeclaredResources } from './modules/declared.module';
import { createSessionMiddleware } from './sessions/session';
import { createBackgroundWork, type BackgroundWork } from './lib/background';
import { createMailService } from './modules/mail/mail.service';
import { createSettingsGuard } from './modules/settings/protected-settings';

export interface AppDeps {
  config: Config;
  db: Knex;
  redis?: Redis;
  /** keeps Redis keys of one app apart from another's (tests run many apps on one Redis) */
  redisPrefix?: string;
  clientDist?: string;
}

export interface App {
  app: Express;
  api: ApiRouter;
  /** work the app does after its replies (mail): `flush` waits for it (tests, shutdown) */
  background: BackgroundWork;
}

export const DEFAULT_CLIENT_DIST = path.resolve(__dirname, '../../client/dist');

export function createApp(deps: AppDeps): App {
  const { config, db, redis } = deps;
  const prefix = deps.redisPrefix ?? 'sa:';
  configurePasswords(config.bcryptCost);
  const app = express();
  app.disable('x-powered-by');
  // API answers are `Cache-Control: no-store`: an ETag (a SHA-1 of every body) would never be used (static files
  // keep their own, from serve-static)
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  // a request id on every log line, and on the response for support
  app.use((req, res, next) => {
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    requestScope.run({ requestId }, () => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        logger.http('request', {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        });
      });
      next();
    });
  });

  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // antd writes its component styles at run time
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
        },
      },
      // not in the trusted-LAN mode (COOKIE_SECURE=false), which serves plain HTTP
      strictTransportSecurity:
        config.isProduction && config.cookieSecure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );

  const auth = createAuthService(db);
  const api = new ApiRouter({
    onDenied: (req, permission) =>
      auth.recordDenied(contextOf(req), permission, req.originalUrl.split('?')[0]),
  });

  const throttle = throttleFactory(redis, prefix);
  const keys = loginKeys();
  const loginThrottles = {
    perAccount: throttle({
      name: 'login',
      limit: 5,
      windowMs: 60_000,
      key: keys.perAccount,
      failuresOnly: true,
    }),
    perIp: throttle({
      name: 'login-ip',
      limit: 100,
      windowMs: 86_400_000,
      key: (req) => ipKey(req),
      failuresOnly: true,
    }),
  };
  const authController = createAuthController({
    config,
    db,
    auth,
    loginThrottles: [{ key: keys.perAccount, throttle: loginThrottles.perAccount }],
  });
  registerAuthRoutes(api, authController, loginThrottles);
  const background = createBackgroundWork();
  const mail = createMailService(db, config, background);
  const settingsGuard = createSettingsGuard({ db, mail });
  const moduleDeps = { api, db, config, redis, auth, throttle, mail, background, settingsGuard };
  // the option lists' own routes before the declared resources' (`/options/:key/order` before `/:id`)
  registerReferenceModule(moduleDeps);
  const resources = registerDeclaredResources(moduleDeps);
  registerAccountsModule(moduleDeps, resources);
  registerReferenceRecordRoutes(moduleDeps, resources);
  registerFilesModule(moduleDeps);
  registerCalendarModule(moduleDeps);
  registerStudentsModule(moduleDeps, resources);
  registerPortalModule(moduleDeps, resources);

  app.use(
    '/api',
    readJsonBody({ limit: '1mb' }),
    createSessionMiddleware(config, db, redis, `${prefix}sess:`),
    authenticate(config, auth),
    (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    csrfProtection,
    api.router,
    notFoundApi,
  );
  app.use(spaRouter(deps.clientDist ?? DEFAULT_CLIENT_DIST));
  app.use(errorHandler);
  return { app, api, background };
}

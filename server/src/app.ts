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
import { requireSecureTransport } from './http/secure-transport';
import { errorHandler, notFoundApi } from './http/error-handler';
import { assetsRouter, spaRouter } from './http/spa';
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
import { registerSalesModule } from './modules/sales/sales.module';
import { registerReferenceModule, registerReferenceRecordRoutes } from './modules/reference.module';
import { registerReportsModule } from './modules/reports/reports.module';
import { registerDashboardModule } from './modules/dashboard/dashboard.module';
import { registerDeclaredResources } from './modules/declared.module';
import { createSessionMiddleware } from './sessions/session';
import { createBackgroundWork, type BackgroundWork } from './lib/background';
import { createMailService } from './modules/mail/mail.service';
import { createInstanceCoherence } from './lib/instance-coherence';
import { idempotency } from './http/idempotency';
import { createIdempotencyService } from './modules/idempotency/idempotency.service';
import { createSettingsGuard } from './modules/settings/protected-settings';
import { createLifecycle, healthRouter, type Lifecycle } from './http/health';
import { createDatabaseReadiness } from './db/readiness';
import { registerRemindersModule } from './modules/reminders/reminders.routes';
import { registerOpenApiRoute } from './modules/openapi/openapi.routes';
import type { RemindersService } from './modules/reminders/reminders.service';

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
  /** serving or stopping: `lifecycle.stop()` makes /readyz answer 503 and closes connections after each answer */
  lifecycle: Lifecycle;
  /** the mail reminders: main.ts schedules `runIfDue` on every instance */
  reminders: RemindersService;
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
  const lifecycle = createLifecycle();
  app.use(lifecycle.closeWhenStopping);
  // the probes first: no request log, session or cookie for a health check every few seconds
  app.use(healthRouter({ database: createDatabaseReadiness(db), redis, lifecycle }));
  const clientDist = deps.clientDist ?? DEFAULT_CLIENT_DIST;
  // the build's hashed files first, with only the headers a sub-resource needs (http/spa.ts)
  app.use('/assets', assetsRouter(clientDist));

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
  registerSalesModule(moduleDeps, resources);
  registerPortalModule(moduleDeps, resources);
  registerReportsModule(moduleDeps);
  registerDashboardModule(moduleDeps);
  const reminders = registerRemindersModule(moduleDeps);
  // last: the API description reads every route registered before it
  registerOpenApiRoute(moduleDeps);

  // with Redis, other instances may share the database: each request first drops what they changed
  const coherence = redis ? createInstanceCoherence(redis, prefix) : null;
  app.use(
    '/api',
    ...(coherence ? [coherence.middleware] : []),
    // sign-in over plain HTTP with Secure cookies: 403 https_required, not a sign-in that does not stick
    requireSecureTransport(config),
    readJsonBody({ limit: '1mb' }),
    createSessionMiddleware(config, db, redis, `${prefix}sess:`),
    authenticate(config, auth),
    (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    csrfProtection,
    // a repeated POST with the same Idempotency-Key answers the first answer again (double clicks, retries)
    idempotency(createIdempotencyService(db)),
    api.router,
    notFoundApi,
  );
  app.use(spaRouter(clientDist));
  app.use(errorHandler);
  return { app, api, background, lifecycle, reminders };
}

import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig, startupWarnings, type Config } from './config';
import { createApp } from './app';
import { createDb } from './db/knex';
import { prepareDatabase } from './db/startup';
import { configureLogger, logger } from './lib/logger';
import { configurePasswords } from './lib/passwords';
import { DEMO_ADMIN, DEMO_STUDENT } from '../../seeds';
import { activeAdmins } from './cli/first-admin';
import { startSessionSweeper } from './sessions/sweep';
import { startReminderSchedule } from './modules/reminders/reminders.service';
import { appUrl } from './modules/profile/profile.service';
import { portalUrl } from './modules/students/portal-access.service';

/**
 * A start-up line: in production a JSON line through the one logger (as every other line there), elsewhere the
 * friendly text on the console.
 */
function say(production: boolean, text: string, fields: Record<string, unknown> = {}): void {
  if (production) logger.info(text, fields);
  else console.log(text);
}

/** How long the app keeps an idle connection open: longer than any client or proxy in front of it keeps one. */
const KEEP_ALIVE_MS = 75_000;

/** Where the app listens, as people read it: `127.0.0.1:3000`, `[::1]:3000`, `every interface, port 3000`. */
function listeningOn(address: AddressInfo, config: Config): string {
  if (!config.host) return `every interface, port ${address.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${host}:${address.port}`;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      // the logger writes JSON lines until configured: production's log stays JSON from its first line
      if (process.env.NODE_ENV === 'production') logger.error(err.message);
      else console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  configureLogger(config.logLevel, config.isProduction);
  configurePasswords(config.bcryptCost);
  const db = createDb(config.databaseUrl, { statementTimeoutMs: config.statementTimeoutMs });
  // the migrations and the reference data (holidays, areas, option lists) at every start, one instance at a time
  const { applied, demoSeeded } = await prepareDatabase(db, { seedDemo: config.seedDemo });
  if (applied.length) logger.info(`applied ${applied.length} migration(s)`, { migrations: applied });
  for (const warning of startupWarnings(config)) logger.warn(warning);
  const admins = await activeAdmins(db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  const { app, background, lifecycle, reminders } = createApp({
    config,
    db,
    redis,
    redisPrefix: config.redisPrefix,
  });
  const stopSweeper = startSessionSweeper(db, config);
  // every instance asks whether the day's reminders are due; the database lock lets one of them send them
  const stopReminders = startReminderSchedule(reminders);
  const onListening = () => {
    const address = server.address() as AddressInfo;
    const port = address.port;
    // the addresses people type (APP_URL, the portal's host), and where this process listens
    const site = appUrl({ ...config, port });
    const portal = portalUrl({ ...config, port });
    const sessions = redis ? 'Redis' : 'the app database';
    const production = config.isProduction;
    say(
      production,
      `Study-abroad admin is running at ${site} (portal: ${portal}), listening on ${listeningOn(address, config)}`,
      { url: site, portal_url: portal, address: address.address, port },
    );
    say(production, `Database: ${config.databaseClient}; sessions: ${sessions}`, {
      database: config.databaseClient,
      sessions: redis ? 'redis' : 'database',
    });
    if (config.seedDemo) {
      say(
        production,
        `Demo sign-in: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}${demoSeeded ? ' (demo data seeded)' : ''}`,
      );
      say(production, `Demo student portal sign-in: ${DEMO_STUDENT.email} / ${DEMO_STUDENT.password}`);
    } else if (!admins.length) {
      logger.warn(
        'No administrator exists yet: create the first one with `npm run admin:create` ' +
          '(in the compose stack: `docker compose -f docker/compose.yaml exec app npm run admin:create`).',
      );
    }
  };
  // HOST unset: every interface, as Node listens by default
  const server = config.host
    ? app.listen(config.port, config.host, onListening)
    : app.listen(config.port, onListening);
  /**
   * An idle kept-alive connection is closed by the client or the proxy before the app closes it (decision 0015):
   * a request sent on a connection the app is closing at that moment is lost to a client that does not retry
   * (a script's HTTP client; Caddy never sends a POST twice). Node closes after 5 s; Caddy here after 4 s
   * (docker/Caddyfile), browsers and other load balancers after 60 s or more.
   */
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;

  /**
   * Stopping without losing a request (decision 0015). SIGTERM (docker stop, systemd, the load test): /readyz
   * answers 503 at once and every answer closes its connection, while requests are still served for
   * SHUTDOWN_DRAIN_SECONDS — the proxy's health check takes the instance out meanwhile; then the listener closes
   * (a proxy that still dials is refused before anything reached the app, and retries the other instance), the
   * requests under way are answered, the mail queued is sent, and the process exits. SIGINT (Ctrl-C in a terminal)
   * skips the drain.
   */
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    lifecycle.stop();
    stopSweeper();
    stopReminders();
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    logger.info(`${signal}: stopping`, { drain_ms: drainMs });
    setTimeout(() => {
      server.close(() => {
        void background
          .flush()
          .then(() => Promise.all([db.destroy(), redis?.quit()]))
          .then(() => process.exit(0));
      });
      // a request still running after this long (a huge export) is cut rather than keeping the stop waiting
      setTimeout(() => server.closeAllConnections(), 30_000).unref();
    }, drainMs);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  logger.error('start-up failed', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});

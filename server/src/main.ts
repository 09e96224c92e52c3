import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from './config';
import { createApp } from './app';
import { createDb } from './db/knex';
import { prepareDatabase } from './db/startup';
import { configureLogger, logger } from './lib/logger';
import { configurePasswords } from './lib/passwords';
import { DEMO_ADMIN, DEMO_STUDENT } from '../../seeds';
import { activeAdmins } from './cli/first-admin';
import { startSessionSweeper } from './sessions/sweep';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
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
  if (config.isProduction && !config.cookieSecure) {
    logger.warn(
      'COOKIE_SECURE=false: session cookies travel over plain HTTP. Use this only on a trusted LAN; anyone on ' +
        'the network can read and reuse a session. Put TLS in front (docker/compose.yaml has Caddy) instead.',
    );
  }
  if (config.trustProxy === true) {
    logger.warn('TRUST_PROXY=true believes X-Forwarded-For from anyone: name the proxy’s address instead.');
  }
  const admins = await activeAdmins(db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  const { app, background } = createApp({ config, db, redis });
  const stopSweeper = startSessionSweeper(db, config);
  const server = app.listen(config.port, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://localhost:${port}`;
    console.log(`Study-abroad admin is running at ${url} (portal: http://student.localhost:${port})`);
    console.log(`Database: ${config.databaseClient}; sessions: ${redis ? 'Redis' : 'the app database'}`);
    if (config.seedDemo) {
      console.log(
        `Demo sign-in: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}${demoSeeded ? ' (demo data seeded)' : ''}`,
      );
      console.log(`Demo student portal sign-in: ${DEMO_STUDENT.email} / ${DEMO_STUDENT.password}`);
    } else if (!admins.length) {
      logger.warn(
        'No administrator exists yet: create the first one with `npm run admin:create` ' +
          '(in the compose stack: `docker compose -f docker/compose.yaml exec app npm run admin:create`).',
      );
    }
  });
  const shutdown = () => {
    stopSweeper();
    server.close(() => {
      void background
        .flush()
        .then(() => Promise.all([db.destroy(), redis?.quit()]))
        .then(() => process.exit(0));
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from './config';
import { createApp } from './app';
import { createDb, migrateLatest } from './db/knex';
import { configureLogger, logger } from './lib/logger';
import { configurePasswords } from './lib/passwords';
import { seedDemo, DEMO_ADMIN } from '../../seeds';
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
  const applied = await migrateLatest(db);
  if (applied.length) logger.info(`applied ${applied.length} migration(s)`, { migrations: applied });
  let demoSeeded = false;
  if (config.seedDemo) demoSeeded = await seedDemo(db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  const { app, background } = createApp({ config, db, redis });
  const stopSweeper = startSessionSweeper(db, config);
  const server = app.listen(config.port, () => {
    const url = `http://localhost:${config.port}`;
    console.log(`Study-abroad admin is running at ${url} (portal: http://student.localhost:${config.port})`);
    console.log(`Database: ${config.databaseClient}; sessions: ${redis ? 'Redis' : 'the app database'}`);
    if (config.seedDemo) {
      console.log(
        `Demo sign-in: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}${demoSeeded ? ' (demo data seeded)' : ''}`,
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

/** The admins' database CLI: `npm run migrate`, `npm run migrate:rollback`, `npm run seed`. */
import { ConfigError, loadConfig } from '../config';
import { createDb, migrateLatest, migrateRollback, withDatabaseLock } from '../db/knex';
import { prepareDatabase, STARTUP_LOCK } from '../db/startup';
import { configurePasswords } from '../lib/passwords';

async function run(command: string | undefined): Promise<void> {
  const config = loadConfig();
  configurePasswords(config.bcryptCost);
  const db = createDb(config.databaseUrl);
  try {
    if (command === 'migrate') {
      const names = await withDatabaseLock(db, STARTUP_LOCK, () => migrateLatest(db));
      console.log(names.length ? `Applied: ${names.join(', ')}` : 'Already up to date.');
    } else if (command === 'rollback') {
      const names = await migrateRollback(db, process.argv.includes('--all'));
      console.log(names.length ? `Rolled back: ${names.join(', ')}` : 'Nothing to roll back.');
    } else if (command === 'seed') {
      const { demoSeeded } = await prepareDatabase(db, { seedDemo: config.seedDemo });
      if (config.seedDemo)
        console.log(demoSeeded ? 'Demo data seeded.' : 'Reference data checked; demo data already present.');
      else console.log('Reference data seeded (the demo accounts are never seeded here).');
    } else {
      console.error('Usage: tsx server/src/cli/db.ts migrate|rollback [--all]|seed');
      process.exitCode = 2;
    }
  } finally {
    await db.destroy();
  }
}

run(process.argv[2]).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

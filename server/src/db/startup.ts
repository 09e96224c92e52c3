import type { Knex } from 'knex';
import { seedDemo, seedReference } from '../../../seeds';
import { migrateLatest, withDatabaseLock } from './knex';

/** The lock the starts of one database take turns on. */
export const STARTUP_LOCK = 'study-abroad:startup';

export interface Prepared {
  /** the migrations this start applied (none when another instance, or an earlier start, had) */
  applied: string[];
  /** whether this start added demo data */
  demoSeeded: boolean;
}

/**
 * What every start does to the database before serving: the migrations, then the reference data (holidays,
 * areas, option lists; the demo's too with SEED_DEMO), each only what was never there. Instances starting together
 * on one database take turns (a lock on the database server): the first migrates and seeds, the others then find
 * nothing left to do, instead of failing on knex's migration lock or adding the reference data twice.
 */
export async function prepareDatabase(db: Knex, options: { seedDemo: boolean }): Promise<Prepared> {
  return withDatabaseLock(db, STARTUP_LOCK, async () => {
    const applied = await migrateLatest(db);
    let demoSeeded = false;
    if (options.seedDemo) demoSeeded = await seedDemo(db);
    else await seedReference(db);
    return { applied, demoSeeded };
  });
}

import type { Knex } from 'knex';
import { migrationSource } from '../../../migrations';

/** What `/readyz` reports of the database: reachable, and how many of this code's migrations are not applied. */
export interface DatabaseReadiness {
  reachable: boolean;
  /** this code's migrations the database has not applied (null when it could not be asked) */
  pending: number | null;
}

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Asks the database two things, each bounded by `timeoutMs`: does it answer (`SELECT 1`), and has it applied every
 * migration this code knows (`knex_migrations`). Once every migration was seen applied the second question is not
 * asked again: migrations are not taken back under a running instance (a newer instance may add more; this one's
 * own stay applied).
 */
export function createDatabaseReadiness(db: Knex, timeoutMs = 2000) {
  let migrationsCurrent = false;
  return async function readiness(): Promise<DatabaseReadiness> {
    try {
      await within(timeoutMs, db.raw('SELECT 1'));
    } catch {
      return { reachable: false, pending: null };
    }
    if (migrationsCurrent) return { reachable: true, pending: 0 };
    try {
      const known = await migrationSource.getMigrations([]);
      const applied = new Set(
        (await within(timeoutMs, db('knex_migrations').select('name'))).map(
          (row: { name: string }) => row.name,
        ),
      );
      const pending = known.filter((name) => !applied.has(migrationSource.getMigrationName(name))).length;
      migrationsCurrent = pending === 0;
      return { reachable: true, pending };
    } catch {
      // no migrations table yet: nothing applied
      return { reachable: true, pending: (await migrationSource.getMigrations([])).length };
    }
  };
}

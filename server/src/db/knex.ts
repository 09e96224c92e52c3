import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { migrationSource } from '../../../migrations';

export type Db = Knex;
export type Trx = Knex | Knex.Transaction;

/** Builds the one Knex instance: better-sqlite3 for `sqlite:<path>`, mysql2 for `mysql://…`. */
export function createDb(databaseUrl: string): Knex {
  if (databaseUrl.startsWith('mysql://')) {
    return knex({
      client: 'mysql2',
      connection: {
        uri: databaseUrl,
        // DATE and DATETIME come back as the strings they were stored as, in UTC: no time-zone drift.
        dateStrings: true,
        timezone: 'Z',
        supportBigNumbers: true,
        bigNumberStrings: false,
        charset: 'utf8mb4',
      } as Knex.MySql2ConnectionConfig,
      pool: { min: 0, max: 10 },
    });
  }
  const file = databaseUrl.slice('sqlite:'.length);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma: (s: string) => void }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('synchronous = NORMAL');
        done(null, conn);
      },
    },
  });
}

export function isMysql(db: Knex): boolean {
  return db.client.config.client === 'mysql2';
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, names] = await db.migrate.latest({ migrationSource });
  return names as string[];
}

export async function migrateRollback(db: Knex, all = false): Promise<string[]> {
  const [, names] = await db.migrate.rollback({ migrationSource }, all);
  return names as string[];
}

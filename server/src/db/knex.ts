import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { migrationSource } from '../../../migrations';
import { AppError } from '../lib/app-error';
import { watchWrites } from './write-watch';

export type Db = Knex;
export type Trx = Knex | Knex.Transaction;

export interface DbOptions {
  /**
   * how long a list, count or export query may run before it is killed and answered 503 `query_timeout`
   * (MariaDB/MySQL; SQLite runs in-process and cannot be interrupted)
   */
  statementTimeoutMs?: number;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

const statementTimeouts = new WeakMap<object, number>();

/** The statement timeout of `db` (a transaction reads its own as the default). */
export function statementTimeoutOf(db: Trx): number {
  return statementTimeouts.get(db) ?? DEFAULT_STATEMENT_TIMEOUT_MS;
}

/** Changes the statement timeout of `db` (start-up; a test's tiny one). */
export function setStatementTimeout(db: Knex, ms: number): void {
  statementTimeouts.set(db, ms);
}

/**
 * Builds the one Knex instance: better-sqlite3 for `sqlite:<path>`, mysql2 for `mysql://…`. Its writes tell the
 * caches what changed (write-watch.ts).
 */
export function createDb(databaseUrl: string, options: DbOptions = {}): Knex {
  const db = createKnex(databaseUrl);
  watchWrites(db);
  setStatementTimeout(db, options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  return db;
}

function createKnex(databaseUrl: string): Knex {
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

export function isMysql(db: Trx): boolean {
  return db.client.config.client === 'mysql2';
}

interface PooledConnection {
  threadId: number;
}
interface ClientInternals {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(conn: PooledConnection): Promise<unknown>;
  /** `KILL QUERY <threadId>` from a connection of its own, outside the pool (knex's own timeout cancel) */
  cancelQuery(conn: PooledConnection): Promise<unknown>;
}

/** The request went away before its query answered: the query was killed, nobody is waiting for an answer. */
export function cancelledError(): AppError {
  return new AppError('request_cancelled');
}

function isTimeout(err: unknown): boolean {
  const e = err as { name?: string; code?: string; errno?: number } | null;
  // knex's own timer, or the server's max_statement_time / max_execution_time
  return e?.name === 'KnexTimeoutError' || e?.errno === 1969 || e?.errno === 3024;
}

/**
 * Runs a read that may be heavy (a list page, its count, an export batch) with the statement timeout, and kills
 * it when `signal` aborts (the client went away): on MariaDB/MySQL the query runs on a connection taken from the
 * pool for it, whose thread `KILL QUERY` ends from another connection, exactly as knex's `.timeout(ms, { cancel:
 * true })` does on its own timer. A timeout answers 503 `query_timeout`; an abort `request_cancelled` (499, which
 * nobody reads). SQLite runs the query in-process: it cannot be interrupted, only not started.
 */
export async function guardedQuery<T>(db: Trx, query: Knex.QueryBuilder, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) throw cancelledError();
  if (!isMysql(db)) return (await query) as T;
  const ms = statementTimeoutOf(db);
  const inTransaction = (db as Knex.Transaction).isTransaction === true;
  if (!signal || inTransaction) {
    try {
      return (await query.timeout(ms, { cancel: true })) as T;
    } catch (err) {
      throw isTimeout(err) ? new AppError('query_timeout') : err;
    }
  }
  const client = db.client as unknown as ClientInternals;
  const conn = await client.acquireConnection();
  let kill: Promise<unknown> | null = null;
  const onAbort = () => {
    kill ??= client.cancelQuery(conn).catch(() => undefined);
  };
  try {
    if (signal.aborted) throw cancelledError();
    signal.addEventListener('abort', onAbort, { once: true });
    return (await query.connection(conn).timeout(ms, { cancel: true })) as T;
  } catch (err) {
    if (kill || signal.aborted) throw cancelledError();
    throw isTimeout(err) ? new AppError('query_timeout') : err;
  } finally {
    signal.removeEventListener('abort', onAbort);
    // the KILL must land before the connection serves anyone else
    if (kill) await kill;
    await client.releaseConnection(conn);
  }
}

/**
 * Runs `work` while this instance holds the named lock of its database, waiting up to `waitSeconds` for another
 * instance to let it go (MariaDB/MySQL `GET_LOCK`, held by a connection kept aside for it and freed when that
 * connection ends, a crash included; the server's locks are server-wide, so the name gets the database's hash).
 * SQLite serves one process: the work just runs.
 */
export async function withDatabaseLock<T>(
  db: Knex,
  name: string,
  work: () => Promise<T>,
  waitSeconds = 600,
): Promise<T> {
  if (!isMysql(db)) return work();
  const client = db.client as unknown as ClientInternals;
  const conn = await client.acquireConnection();
  try {
    const lock = db.raw("CONCAT(?, ':', SHA1(DATABASE()))", [name]);
    const [rows] = (await db.raw('SELECT GET_LOCK(?, ?) AS got', [lock, waitSeconds]).connection(conn)) as [
      { got: number | null }[],
    ];
    if (Number(rows[0]?.got) !== 1) {
      throw new Error(`Another instance held the database lock "${name}" for more than ${waitSeconds} s.`);
    }
    try {
      return await work();
    } finally {
      await db.raw('SELECT RELEASE_LOCK(?)', [lock]).connection(conn);
    }
  } finally {
    await client.releaseConnection(conn);
  }
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, names] = await db.migrate.latest({ migrationSource });
  return names as string[];
}

export async function migrateRollback(db: Knex, all = false): Promise<string[]> {
  const [, names] = await db.migrate.rollback({ migrationSource }, all);
  return names as string[];
}

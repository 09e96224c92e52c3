import type { Knex } from 'knex';
import type { Trx } from '../db/knex';
import type { AfterCommit } from './resource';

/**
 * One transaction for one service call, shared by every repository and service it calls: a parent and its
 * children, a write, its audit row and its side effects commit or roll back together. What must wait for the
 * commit (removing bytes from the disk) is queued on the unit and runs after. Caches hear of the writes from the
 * database itself (db/write-watch.ts).
 */
export interface UnitOfWork {
  readonly trx: Trx;
  /** run once the transaction has committed (never after a rollback) */
  afterCommit(work: AfterCommit): void;
}

export async function unitOfWork<T>(db: Knex, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const after: AfterCommit[] = [];
  const result = await db.transaction((trx) => work({ trx, afterCommit: (fn) => after.push(fn) }));
  for (const fn of after) await fn();
  return result;
}

/** The caller's unit when it has one (a rule saving children with their parent), else a new one. */
export function withinUnit<T>(
  db: Knex,
  uow: UnitOfWork | undefined,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  return uow ? work(uow) : unitOfWork(db, work);
}

/** A row lock for a read-modify-write inside a unit: `FOR UPDATE` on MariaDB; SQLite has one writer at a time. */
export function lockForUpdate(trx: Trx, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  const client = String((trx as unknown as { client: { config: { client: unknown } } }).client.config.client);
  return client.includes('mysql') ? qb.forUpdate() : qb;
}

import type { Knex } from 'knex';
import { changeEvents } from '../lib/change-events';
import { guardedQuery, type Trx } from './knex';

/**
 * Reads in flight, by database and statement: a burst of identical reads (a deep page many people open at once,
 * the dashboard's sums for everyone of one branch) waits for one run of the statement instead of running it once
 * each. Only reads in flight are shared, never kept: any change to any table, on this instance or another, drops
 * them (later requests read anew, so a request never gets a read that began before a change it saw), and none is
 * shared while the caches are suspended or inside a transaction.
 */
const reads = new Map<string, Promise<unknown>>();
const dbIds = new WeakMap<object, number>();
let nextDbId = 0;

changeEvents.on(() => reads.clear());

/** A value's text with its object keys in one order (the same bindings give the same text). */
export function stableText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableText(v)}`).join(',')}}`;
}

/** A number of its own for each database handle (two test apps in one process never share a read). */
export function databaseId(db: Trx): number {
  let id = dbIds.get(db);
  if (id === undefined) dbIds.set(db, (id = ++nextDbId));
  return id;
}

/**
 * `guardedQuery`, its run shared with the identical reads in flight. A shared run is not cancelled by a request
 * going away (others may be waiting for it; the statement timeout bounds it).
 */
export function sharedRead<T>(db: Trx, query: Knex.QueryBuilder, signal?: AbortSignal): Promise<T> {
  if ((db as Knex.Transaction).isTransaction || !changeEvents.cachesUsable())
    return guardedQuery<T>(db, query, signal);
  const sql = query.toSQL();
  const key = `${databaseId(db)}:${sql.sql}:${stableText(sql.bindings)}`;
  const pending = reads.get(key) as Promise<T> | undefined;
  if (pending) return pending;
  if (signal?.aborted) return guardedQuery<T>(db, query, signal);
  const reading = guardedQuery<T>(db, query).finally(() => {
    if (reads.get(key) === reading) reads.delete(key);
  });
  reads.set(key, reading);
  return reading;
}

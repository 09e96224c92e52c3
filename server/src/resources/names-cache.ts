import type { Knex } from 'knex';
import type { Trx } from '../db/knex';
import { changeEvents } from '../lib/change-events';
import type { Row } from './resource';
import { resourceRepository } from './resource.repository';

/**
 * The names a list page shows beside its rows — related records' label columns (`branch_name`, a consultant's
 * name), option labels, a category's colour — read by key and kept per table, so that a warm page runs its page
 * query (and its count when it needs one) and nothing else, instead of one `IN` query per relation per page.
 *
 * Kept as the other caches of derived reads are (decision 0013): every change to a table (db/write-watch.ts, and
 * other instances' through lib/instance-coherence.ts) makes what was kept of it unusable at once; a read that a
 * change overtook is answered but not kept (the table's generation is compared after the read); nothing is
 * answered from or kept while the caches are suspended; and inside a transaction the database is read (the
 * transaction may have changed the rows itself).
 */

/** The most keys kept per set (table, key column, columns, conditions): the oldest go first. */
const MAX_KEYS = 10_000;

interface Kept {
  generation: string;
  rows: Map<string, Row | null>;
}

/** per database (a test process has several): per set of names */
const kept = new WeakMap<object, Map<string, Kept>>();
/** what was kept of a table before any change to it is not used again */
const generationOf = (table: string) => changeEvents.generation([table]);

export interface NamesOf {
  table: string;
  /** the column the referring rows hold (default `id`) */
  key?: string;
  columns: readonly string[];
  /** more conditions on `table` (an option list's key) */
  where?: Readonly<Row>;
}

const keyOf = (value: unknown) => String(value);

/**
 * `columns` (and `key`) of the rows of `names.table` whose `key` is one of `values`: from what is kept of the table
 * when it has not changed since, the others read with one `IN` query and kept.
 */
export async function keptRowsByKey(db: Trx, names: NamesOf, values: readonly unknown[]): Promise<Row[]> {
  const key = names.key ?? 'id';
  const read = (of: readonly unknown[]) =>
    resourceRepository.rowsByKey(db, names.table, key, of, names.columns, names.where);
  if (!values.length) return [];
  if ((db as Knex.Transaction).isTransaction || !changeEvents.cachesUsable()) return read(values);

  let sets = kept.get(db);
  if (!sets) kept.set(db, (sets = new Map()));
  const setKey = JSON.stringify([names.table, key, names.columns, names.where ?? null]);
  const generation = generationOf(names.table);
  let set = sets.get(setKey);
  if (!set || set.generation !== generation) sets.set(setKey, (set = { generation, rows: new Map() }));

  const out: Row[] = [];
  const missing: unknown[] = [];
  for (const value of values) {
    const row = set.rows.get(keyOf(value));
    if (row === undefined) missing.push(value);
    else if (row !== null) out.push(row);
  }
  if (!missing.length) return out;

  const found = await read(missing);
  out.push(...found);
  if (generationOf(names.table) === generation && changeEvents.cachesUsable() && sets.get(setKey) === set) {
    const byKey = new Map(found.map((row) => [keyOf(row[key]), row]));
    // a key with no row is kept too (named null): a new row of the table is a change, which drops it
    for (const value of missing) set.rows.set(keyOf(value), byKey.get(keyOf(value)) ?? null);
    for (const oldest of set.rows.keys()) {
      if (set.rows.size <= MAX_KEYS) break;
      set.rows.delete(oldest);
    }
  }
  return out;
}

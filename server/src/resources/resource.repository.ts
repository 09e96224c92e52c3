import type { Knex } from 'knex';
import { guardedQuery, type Trx } from '../db/knex';
import { containsPattern, orWhereContains } from '../db/search';
import { changeEvents } from '../lib/change-events';
import { toDbDateTime } from '../lib/clock';
import type { CollectionDeclaration } from '../../../shared/resources/declaration';
import type { BranchVia, ResourceDefinition, Row } from './resource';
import { binding } from './rows';
import { lockForUpdate } from './unit-of-work';

/** The branch a branch-scoped caller is limited to; null for callers who see every branch. */
export type BranchScope = { branchId: number | null } | null;

/** The ids of `via.table` in branch `branchId` (following `via` further up): a child's parents in scope. */
function parentsInBranch(via: BranchVia, branchId: number): (this: Knex.QueryBuilder) => void {
  return function (this: Knex.QueryBuilder) {
    this.select(`${via.table}.id`).from(via.table);
    if (via.branchColumn) this.where(`${via.table}.${via.branchColumn}`, branchId);
    else this.whereIn(`${via.table}.${via.via!.column}`, parentsInBranch(via.via!, branchId));
  };
}

function applyScope(qb: Knex.QueryBuilder, def: ResourceDefinition, scope: BranchScope): void {
  for (const [column, value] of Object.entries(def.fixed ?? {})) {
    qb.where(`${def.table}.${column}`, binding(value));
  }
  if (!scope || (!def.branchColumn && !def.branchVia)) return;
  if (scope.branchId === null) qb.whereRaw('1 = 0');
  else if (def.branchColumn) qb.where(`${def.table}.${def.branchColumn}`, scope.branchId);
  else qb.whereIn(`${def.table}.${def.branchVia!.column}`, parentsInBranch(def.branchVia!, scope.branchId));
}

export interface ListParams {
  page: number;
  perPage: number;
  q?: string;
  sort: { column: string; direction: 'asc' | 'desc' };
  filters: Row;
  scope: BranchScope;
}

export type ListFilter = Omit<ListParams, 'page' | 'perPage'>;

/** Sizes of the list machinery (a test lowers them). */
export const listLimits = {
  /** a list counts at most this many rows: beyond, it answers `total: countCap, total_capped: true` ("10,000+") */
  countCap: 10_000,
  /** how long a list's count is kept for the same filter; a committed write to the table drops it at once */
  countCacheMs: 30_000,
  /** counts below this are not kept (0: every count is kept until its table changes or it expires) */
  countCacheMinRows: 0,
  /** from this offset on, a page of a list whose exact size is known is read from the far end when nearer it */
  reverseFrom: 10_000,
  /** rows per export batch */
  exportBatch: 1_000,
};

/**
 * The generic repository: the only place resource rows are read and written. Every resource table has
 * `created_at`, `updated_at`, `created_by` and `updated_by` (domain.md conventions).
 */
/** The rows a list shows: branch scope, fixed columns, filters and search, not yet sorted or paged. */
function listQuery(db: Trx, def: ResourceDefinition, params: ListFilter) {
  const base = db(def.table);
  applyScope(base, def, params.scope);
  def.applyFilters?.(base, params.filters);
  if (params.q && def.searchable.length) {
    const pattern = containsPattern(params.q);
    base.where((w) => {
      orWhereContains(w, def.searchable, pattern);
      def.searchAlso?.(w, pattern);
    });
  }
  return base;
}

/**
 * The sort column identifies a row of the list on its own: `id`, or a column unique by itself (a unique set of
 * that column alone, or with the resource's fixed columns: an option's `value` within its list). Its order needs
 * no `id` tie-break, which would keep MariaDB from walking the unique index (a full scan and a filesort).
 */
export function sortIsUnique(def: ResourceDefinition, column: string): boolean {
  if (column === 'id') return true;
  const fixed = def.fixed ?? {};
  return (def.unique ?? []).some(
    (set) => set.includes(column) && set.every((c) => c === column || c in fixed),
  );
}

/** The list's order: the sort column, then `id` unless the column is unique (the index `(column, id)` serves). */
function ordered(qb: Knex.QueryBuilder, def: ResourceDefinition, sort: ListParams['sort']) {
  qb.orderBy(`${def.table}.${sort.column}`, sort.direction);
  if (!sortIsUnique(def, sort.column)) qb.orderBy(`${def.table}.id`, sort.direction);
  return qb;
}

/** Rows by id, in the order of `ids`. */
async function rowsByIds(db: Trx, def: ResourceDefinition, ids: number[], signal?: AbortSignal) {
  if (!ids.length) return [];
  const rows = await guardedQuery<Row[]>(db, db(def.table).whereIn('id', ids).select('*'), signal);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.map((id) => byId.get(Number(id))).filter((row): row is Row => row !== undefined);
}

/**
 * One page, as a deferred join: its ids first, found on the index alone (`select id … order by … limit …
 * offset …`: the index `(column, id)` holds both, so the rows skipped are never read and no filesort is needed,
 * whatever the optimiser thinks of a small table), then those rows by primary key. The last page of a million
 * costs little more than the first.
 */
async function pageRows(db: Trx, def: ResourceDefinition, params: ListParams, signal?: AbortSignal) {
  const offset = (params.page - 1) * params.perPage;
  if (offset === 0) {
    // the first page in one statement: `ORDER BY … LIMIT` walks the index `(column, id)` on a large table
    const first = ordered(listQuery(db, def, params).select(`${def.table}.*`), def, params.sort).limit(
      params.perPage,
    );
    return guardedQuery<Row[]>(db, first, signal);
  }
  let sort = params.sort;
  let limit = params.perPage;
  let skip = offset;
  let reversed = false;
  if (offset >= listLimits.reverseFrom) {
    // a page near the end of a long list: the same rows, read backwards from the end (the exact size is counted
    // once per filter and kept), so the last page costs what the first does
    const size = await exactCount(db, def, params, signal);
    if (offset >= size) return [];
    if (offset > size / 2) {
      reversed = true;
      sort = { column: sort.column, direction: sort.direction === 'asc' ? 'desc' : 'asc' };
      limit = Math.min(params.perPage, size - offset);
      skip = size - offset - limit;
    }
  }
  const idQuery = ordered(listQuery(db, def, params).select(`${def.table}.id`), def, sort)
    .limit(limit)
    .offset(skip);
  const ids = (await guardedQuery<{ id: number }[]>(db, idQuery, signal)).map((row) => row.id);
  return rowsByIds(db, def, reversed ? ids.reverse() : ids, signal);
}

// ---- the count: capped, kept per filter until the table changes ----

interface CountEntry {
  table: string;
  total: number;
  capped: boolean;
  expires: number;
}
const counts = new Map<string, CountEntry>();
const MAX_COUNTS = 1_000;
/** bumped by every committed change to a table: a count read across a change is not kept */
const generations = new Map<string, number>();
const dbIds = new WeakMap<object, number>();
let nextDbId = 0;

function tablesChanged(tables: readonly string[]): void {
  for (const table of tables) generations.set(table, (generations.get(table) ?? 0) + 1);
  for (const [key, entry] of counts) if (tables.includes(entry.table)) counts.delete(key);
}
changeEvents.on(tablesChanged);

const WRITE =
  /^\s*(?:insert\s+(?:ignore\s+)?into|replace\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+[`"]?(\w+)/i;
const watched = new WeakSet<object>();

/**
 * Counts are dropped by any write statement to their table on this database, not only by the machinery's
 * announcements after commit: a write made outside the resources (a repository, a test) shows in the next count.
 */
function watchWrites(db: Trx): void {
  const root = ((db as Knex.Transaction).isTransaction ? null : db) as Knex | null;
  if (!root || watched.has(root)) return;
  watched.add(root);
  root.on('query', (q: { sql?: string }) => {
    const table = q.sql ? WRITE.exec(q.sql)?.[1] : undefined;
    if (table) tablesChanged([table]);
  });
}

function stable(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  const entries = Object.entries(value as Row).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
}

function countKey(db: Trx, def: ResourceDefinition, params: ListFilter): string {
  watchWrites(db);
  let id = dbIds.get(db);
  if (id === undefined) dbIds.set(db, (id = ++nextDbId));
  return stable([id, def.table, def.fixed ?? null, params.scope, params.filters, params.q ?? '']);
}

/**
 * How many rows the list holds, counting at most `countCap + 1` of them (`select count(*) from (select id …
 * limit cap+1)`): a table of a million rows costs a walk of ten thousand index entries, not a scan. A count
 * of at least `countCacheMinRows` is kept for `countCacheMs` per (table, fixed columns, scope, filters, q),
 * dropped as soon as a write to the table commits (change-events).
 */
async function countRows(
  db: Trx,
  def: ResourceDefinition,
  params: ListFilter,
  signal?: AbortSignal,
): Promise<{ total: number; capped: boolean }> {
  const isRoot = !(db as Knex.Transaction).isTransaction;
  const key = isRoot ? countKey(db, def, params) : null;
  const hit = key ? counts.get(key) : undefined;
  if (hit && hit.expires > Date.now() && hit.total >= listLimits.countCacheMinRows) return hit;
  const generation = generations.get(def.table) ?? 0;
  const cap = listLimits.countCap;
  const inner = listQuery(db, def, params)
    .select(`${def.table}.id`)
    .limit(cap + 1)
    .as('capped');
  const row = await guardedQuery<{ n: number | string } | undefined>(
    db,
    db.from(inner).count({ n: '*' }).first(),
    signal,
  );
  const n = Number(row?.n ?? 0);
  const counted = { total: Math.min(n, cap), capped: n > cap };
  if (key && n >= listLimits.countCacheMinRows && (generations.get(def.table) ?? 0) === generation) {
    counts.delete(key);
    counts.set(key, { table: def.table, ...counted, expires: Date.now() + listLimits.countCacheMs });
    if (counts.size > MAX_COUNTS) counts.delete(counts.keys().next().value as string);
  }
  return counted;
}

/** The list's exact size (a deep page needs it), kept like the capped count. */
async function exactCount(db: Trx, def: ResourceDefinition, params: ListFilter, signal?: AbortSignal) {
  const isRoot = !(db as Knex.Transaction).isTransaction;
  const key = isRoot ? `exact:${countKey(db, def, params)}` : null;
  const hit = key ? counts.get(key) : undefined;
  if (hit && hit.expires > Date.now()) return hit.total;
  const generation = generations.get(def.table) ?? 0;
  const row = await guardedQuery<{ n: number | string } | undefined>(
    db,
    listQuery(db, def, params).count({ n: '*' }).first(),
    signal,
  );
  const total = Number(row?.n ?? 0);
  if (key && (generations.get(def.table) ?? 0) === generation) {
    counts.set(key, {
      table: def.table,
      total,
      capped: false,
      expires: Date.now() + listLimits.countCacheMs,
    });
    if (counts.size > MAX_COUNTS) counts.delete(counts.keys().next().value as string);
  }
  return total;
}

// ---- exports: by key, never OFFSET ----

type Phase = 'null' | 'value';

/**
 * The rows after `after` in the list's order (the first rows when null), at most `size`, found on the index by
 * key (`(column, id)` after the last row's), never by OFFSET: the last batch of an export costs what the first
 * does. NULLs of the sort column come first ascending and last descending, as the list orders them; each part
 * is read with its own key.
 */
async function keysetBatch(
  db: Trx,
  def: ResourceDefinition,
  params: ListFilter,
  after: Row | null,
  size: number,
  signal?: AbortSignal,
): Promise<Row[]> {
  const { column, direction } = params.sort;
  const col = `${def.table}.${column}`;
  const idCol = `${def.table}.id`;
  const unique = sortIsUnique(def, column);
  const op = direction === 'asc' ? '>' : '<';
  const phases: Phase[] = direction === 'asc' ? ['null', 'value'] : ['value', 'null'];
  const afterValue = after ? after[column] : undefined;
  const afterPhase: Phase | null = after
    ? afterValue === null || afterValue === undefined
      ? 'null'
      : 'value'
    : null;
  const out: Row[] = [];
  for (const phase of afterPhase ? phases.slice(phases.indexOf(afterPhase)) : phases) {
    if (column === 'id' && phase === 'null') continue;
    const qb = listQuery(db, def, params).select(`${def.table}.*`);
    const keyed = after !== null && phase === afterPhase;
    if (phase === 'null') {
      qb.whereNull(col);
      if (keyed) qb.where(idCol, op, binding(after.id));
      qb.orderBy(idCol, direction);
    } else {
      if (column !== 'id') qb.whereNotNull(col);
      if (keyed && unique) qb.where(col, op, binding(afterValue));
      else if (keyed) {
        qb.where((w) => {
          w.where(col, op, binding(afterValue)).orWhere((same) =>
            same.where(col, binding(afterValue)).where(idCol, op, binding(after.id)),
          );
        });
      }
      ordered(qb, def, params.sort);
    }
    out.push(...(await guardedQuery<Row[]>(db, qb.limit(size - out.length), signal)));
    if (out.length >= size) break;
  }
  return out;
}

export const resourceRepository = {
  /** One page of a list and its count (capped, cached per filter); both are cancelled with `signal`. */
  async list(
    db: Trx,
    def: ResourceDefinition,
    params: ListParams,
    signal?: AbortSignal,
  ): Promise<{ rows: Row[]; total: number; totalCapped: boolean }> {
    const rows = await pageRows(db, def, params, signal);
    const offset = (params.page - 1) * params.perPage;
    // a page that is not full ends the list: its size is known without counting
    if (rows.length < params.perPage && (rows.length > 0 || offset === 0)) {
      return { rows, total: offset + rows.length, totalCapped: false };
    }
    const counted = await countRows(db, def, params, signal);
    return { rows, total: counted.total, totalCapped: counted.capped };
  },

  /**
   * One batch of an export: the list's rows in its order after `after` (the last row of the previous batch, null
   * for the first), without counting.
   */
  batch(
    db: Trx,
    def: ResourceDefinition,
    params: ListFilter,
    after: Row | null,
    size: number = listLimits.exportBatch,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    return keysetBatch(db, def, params, after, size, signal);
  },

  hasTable(db: Trx, table: string): Promise<boolean> {
    return db.schema.hasTable(table);
  },

  findById(
    db: Trx,
    def: ResourceDefinition,
    id: number,
    scope: BranchScope = null,
  ): Promise<Row | undefined> {
    const qb = db(def.table).where(`${def.table}.id`, id);
    applyScope(qb, def, scope);
    return qb.first();
  },

  /**
   * Locks the row `id` of `table` for the rest of the transaction (`SELECT id … FOR UPDATE` on MariaDB; SQLite
   * has one writer at a time): a read-modify-write of that record.
   */
  async lockById(db: Trx, table: string, id: number): Promise<void> {
    await lockForUpdate(db, db(table).where('id', id).select('id'));
  },

  findWhere(
    db: Trx,
    table: string,
    where: (qb: Knex.QueryBuilder) => void,
    columns: string[] = ['*'],
  ): Promise<Row[]> {
    const qb = db(table);
    where(qb);
    return qb.select(columns);
  },

  async insert(db: Trx, def: ResourceDefinition, data: Row, actorId: number | null): Promise<number> {
    const now = toDbDateTime();
    const [id] = await db(def.table).insert({
      ...data,
      created_at: now,
      updated_at: now,
      created_by: actorId,
      updated_by: actorId,
    });
    return Number(id);
  },

  async update(
    db: Trx,
    def: ResourceDefinition,
    id: number,
    data: Row,
    actorId: number | null,
  ): Promise<void> {
    await db(def.table)
      .where({ id })
      .update({
        ...data,
        updated_at: toDbDateTime(),
        updated_by: actorId,
      });
  },

  async delete(db: Trx, def: ResourceDefinition, id: number): Promise<void> {
    await db(def.table).where({ id }).delete();
  },

  /** Rows of `table` whose `column` holds `value` (and that match `where`): what still refers to a record. */
  async count(
    db: Trx,
    table: string,
    column: string,
    value: unknown,
    where: Readonly<Row> = {},
  ): Promise<number> {
    const qb = db(table).where(column, binding(value));
    for (const [c, v] of Object.entries(where)) qb.where(c, binding(v));
    const row = await qb.count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  },

  /** `columns` of the rows of `table` whose `key` is one of `values` (and that match `where`): related names. */
  rowsByKey(
    db: Trx,
    table: string,
    key: string,
    values: readonly unknown[],
    columns: readonly string[],
    where: Readonly<Row> = {},
  ): Promise<Row[]> {
    if (!values.length) return Promise.resolve([]);
    const qb = db(table)
      .whereIn(key, values.map(binding) as readonly string[])
      .select([...new Set([key, ...columns])]);
    for (const [column, value] of Object.entries(where)) qb.where(column, binding(value));
    return qb;
  },

  /** The rows a collection holds for each of `ownerIds`, in their order (then `id`). */
  collectionRows(db: Trx, collection: CollectionDeclaration, ownerIds: readonly number[]): Promise<Row[]> {
    if (!ownerIds.length) return Promise.resolve([]);
    const qb = db(collection.table).whereIn(collection.column, ownerIds as number[]);
    if (collection.orderColumn) qb.orderBy(collection.orderColumn);
    return qb.orderBy('id');
  },

  collectionInsert(db: Trx, collection: CollectionDeclaration, rows: Row[]): Promise<unknown> {
    return rows.length ? db(collection.table).insert(rows) : Promise.resolve();
  },

  async collectionUpdate(db: Trx, collection: CollectionDeclaration, id: number, data: Row): Promise<void> {
    await db(collection.table).where({ id }).update(data);
  },

  /** Deletes the owner's rows of a collection: all of them, or those with the given ids. */
  async collectionDelete(
    db: Trx,
    collection: CollectionDeclaration,
    ownerId: number,
    ids?: readonly number[],
  ): Promise<void> {
    if (ids && !ids.length) return;
    const qb = db(collection.table).where(collection.column, ownerId);
    if (ids) qb.whereIn('id', ids as number[]);
    await qb.delete();
  },

  /** A lookup's choices: `columns` of the rows in scope whose label columns contain `q`, by the first column. */
  lookup(
    db: Trx,
    def: ResourceDefinition,
    o: {
      q?: string;
      columns: string[];
      /** searched besides `columns`, not answered */
      searchIn?: readonly string[];
      scope: BranchScope;
      activeOnly: boolean;
      limit: number;
      filters?: Row;
    },
  ): Promise<Row[]> {
    const qb = db(def.table);
    applyScope(qb, def, o.scope);
    def.applyFilters?.(qb, o.filters ?? {});
    if (o.activeOnly) qb.where(`${def.table}.is_active`, true);
    if (o.q) {
      const pattern = containsPattern(o.q);
      qb.where((w) => {
        orWhereContains(w, [...o.columns, ...(o.searchIn ?? [])], pattern);
        def.searchAlso?.(w, pattern);
      });
    }
    return qb
      .select(['id', ...o.columns])
      .orderBy(o.columns[0])
      .orderBy('id')
      .limit(o.limit);
  },

  /** A row other than `excludeId` holding the same values in `columns` (NULL equal to NULL). */
  async findDuplicate(
    db: Trx,
    table: string,
    values: Row,
    excludeId: number | null,
  ): Promise<Row | undefined> {
    const qb = db(table);
    for (const [column, value] of Object.entries(values)) {
      if (value === null || value === undefined) qb.whereNull(column);
      else qb.where(column, value);
    }
    if (excludeId !== null) qb.whereNot('id', excludeId);
    return qb.first('id');
  },
};

import type { Knex } from 'knex';
import { guardedQuery, type Trx } from '../db/knex';
import {
  containsPattern,
  fromMatching,
  matchingRecords,
  orWhereContains,
  searchTerms,
  searchWords,
  whereAmongMatches,
  whereHasWord,
} from '../db/search';
import { matchesFromPostings } from '../db/search-postings';
import { changeEvents, EVERY_TABLE } from '../lib/change-events';
import { databaseId, sharedRead, stableText } from '../db/shared-read';
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
  /** every row of a tree, children too (an export), not only the top rows the list shows */
  everyRow?: boolean;
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
  /**
   * a search on the terms with at most this many matches reads them by id and sorts them (its count is their
   * number); with more, its page walks the sort's index (db/search.ts `whereAmongMatches`) and its count is capped
   */
  searchFew: 2_000,
};

/**
 * The generic repository: the only place resource rows are read and written. Every resource table has
 * `created_at`, `updated_at`, `created_by` and `updated_by` (domain.md conventions).
 */
/**
 * A tree's list and lookup show its top rows (their children come with them) unless the filters name a parent:
 * `?parent_id=3` lists one area's districts.
 */
function topRowsOfTree(qb: Knex.QueryBuilder, def: ResourceDefinition, filters: Row): void {
  const column = def.tree?.column;
  if (column && (filters[column] === undefined || filters[column] === null))
    qb.whereNull(`${def.table}.${column}`);
}

/**
 * The search `q` (db/search.ts): each of its words must match. On a resource with `searchTerms`, a word is a
 * prefix of one of the record's terms (the terms index); elsewhere it is found anywhere in one of `columns` (or by
 * `searchAlso`).
 */
function applySearch(
  qb: Knex.QueryBuilder,
  def: ResourceDefinition,
  q: string | undefined,
  columns: string[],
) {
  const words = searchWords(q);
  if (!words.length) return;
  if (def.searchTerms) {
    for (const word of words) whereHasWord(qb, def.table, `${def.table}.id`, word);
    return;
  }
  if (!columns.length) return;
  for (const word of words) {
    const pattern = containsPattern(word);
    qb.where((w) => {
      orWhereContains(w, columns, pattern);
      def.searchAlso?.(w, pattern);
    });
  }
}

/**
 * How the rows a list shows are read, for a search on the terms: `count` reads the matching records first and joins
 * the table to them (`fromMatching`); `walk` walks the sort's index and looks each row up in the matches
 * (`whereAmongMatches`: a search with many matches); `rows` leaves it to the database (`id in (…)` per word: an
 * export's batches).
 */
type ReadMode = 'rows' | 'count' | 'walk';

/**
 * The rows a list shows: branch scope, fixed columns, filters and search, not yet sorted or paged. A tree's top
 * rows only, unless `everyRow` (an export: every row, each naming its parent).
 */
function listQuery(db: Trx, def: ResourceDefinition, params: ListFilter, mode: ReadMode = 'rows') {
  const words = def.searchTerms ? searchWords(params.q) : [];
  const termsFirst = mode === 'count' && words.length > 0;
  const base = termsFirst ? fromMatching(db, def.table, words) : db(def.table);
  applyScope(base, def, params.scope);
  if (!params.everyRow) topRowsOfTree(base, def, params.filters);
  def.applyFilters?.(base, params.filters);
  if (termsFirst) return base;
  if (mode === 'walk' && words.length) whereAmongMatches(base, db, def.table, `${def.table}.id`, words);
  else applySearch(base, def, params.q, def.searchable);
  return base;
}

/**
 * The records of a search on the terms, when they are few (at most `searchFew`): their ids (not yet in scope or
 * filtered); null when they are more, or when the list is no such search.
 */
async function fewMatches(
  db: Trx,
  def: ResourceDefinition,
  q: string | undefined,
  signal?: AbortSignal,
): Promise<number[] | null> {
  const words = def.searchTerms ? searchWords(q) : [];
  if (!words.length) return null;
  const few = listLimits.searchFew;
  // each word's records, kept (db/search-postings.ts); a word with very many records is left to the database
  const kept = await matchesFromPostings(db, def.table, words, signal);
  if (kept) return kept.length > few ? null : kept;
  const rows = await guardedQuery<{ record_id: number }[]>(
    db,
    matchingRecords(db, def.table, words).limit(few + 1),
    signal,
  );
  return rows.length > few ? null : rows.map((row) => Number(row.record_id));
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
 * The ids `query` answers (`select id …`), its read shared with the identical reads in flight (db/shared-read.ts): a
 * burst of requests for the same page waits for one read of its ids instead of walking the index once each; each
 * request then reads its own rows by id.
 */
async function readIds(db: Trx, query: Knex.QueryBuilder, signal?: AbortSignal): Promise<number[]> {
  const rows = await sharedRead<{ id: number }[]>(db, query, signal);
  return rows.map((row) => Number(row.id));
}

/**
 * The exact size last counted for a list (by `exactCount`), kept across changes: only to choose which end a deep
 * page is read from, never answered. A page read forwards is right whatever the size; a page read backwards is
 * placed with an exact size counted anew (or kept unchanged since).
 */
const sizeHints = new Map<string, number>();

/**
 * One page, as a deferred join: its ids first, found on the index alone (`select id … order by … limit …
 * offset …`: the index `(filter columns…, column, id)` holds all it reads, so the rows skipped are never read and
 * no filesort is needed), then those rows by primary key. A page past the middle of a long list is read from the
 * other end (the order reversed, the offset from the end, the rows turned back), so the last page costs what the
 * first does. Answers the rows and, when it had to count it, the list's exact size.
 */
async function pageRows(
  db: Trx,
  def: ResourceDefinition,
  params: ListParams,
  signal?: AbortSignal,
): Promise<{ rows: Row[]; size: number | null }> {
  const offset = (params.page - 1) * params.perPage;
  if (offset === 0) {
    // the first page in one statement: `ORDER BY … LIMIT` walks the index `(column, id)` on a large table
    const first = ordered(
      listQuery(db, def, params, 'walk').select(`${def.table}.*`),
      def,
      params.sort,
    ).limit(params.perPage);
    return { rows: await guardedQuery<Row[]>(db, first, signal), size: null };
  }
  let sort = params.sort;
  let limit = params.perPage;
  let skip = offset;
  let reversed = false;
  let size: number | null = null;
  const hint = sizeHints.get(exactKey(db, def, params) ?? '');
  // a page in the first half of a list whose size was once counted is read forwards without counting again
  if (offset >= listLimits.reverseFrom && !(hint !== undefined && offset + params.perPage <= hint / 2)) {
    // a page near the end of a long list: the same rows, read backwards from the end (the exact size is counted
    // once per filter and kept until the table changes), so the last page costs what the first does
    size = await exactCount(db, def, params, signal);
    if (offset >= size) return { rows: [], size };
    if (offset > size / 2) {
      reversed = true;
      sort = { column: sort.column, direction: sort.direction === 'asc' ? 'desc' : 'asc' };
      limit = Math.min(params.perPage, size - offset);
      skip = size - offset - limit;
    }
  }
  const idQuery = ordered(listQuery(db, def, params, 'walk').select(`${def.table}.id`), def, sort)
    .limit(limit)
    .offset(skip);
  const ids = await readIds(db, idQuery, signal);
  // a copy: the array may be shared with other requests
  const inOrder = reversed ? [...ids].reverse() : ids;
  return { rows: await rowsByIds(db, def, inOrder, signal), size };
}

// ---- the count: capped, kept per filter until the table changes ----

interface Counted {
  total: number;
  capped: boolean;
}
interface CountEntry extends Counted {
  /** every table the count's query reads (its own, a filter's `via`, a parent's scope): a change to any drops it */
  tables: readonly string[];
  expires: number;
}
const counts = new Map<string, CountEntry>();
/** counts being read: a burst of requests for one cold (or expired) count waits for the same query */
const counting = new Map<string, { tables: readonly string[]; reading: Promise<Counted> }>();
const MAX_COUNTS = 1_000;

/**
 * Counts are dropped by every change to their table: any write statement on this database (db/write-watch.ts), a
 * commit, and another instance's commit (lib/instance-coherence.ts).
 */
changeEvents.on((tables) => {
  if (tables.includes(EVERY_TABLE)) {
    counts.clear();
    counting.clear();
    return;
  }
  const touched = (read: readonly string[]) => read.some((table) => tables.includes(table));
  for (const [key, entry] of counts) if (touched(entry.tables)) counts.delete(key);
  for (const [key, pending] of counting) if (touched(pending.tables)) counting.delete(key);
});

/** a count read across a change to a table it reads is not kept */
const generationOf = (tables: readonly string[]) => changeEvents.generation(tables);

/**
 * The tables a query reads, from its SQL (`from` and `join`, subqueries included): a count whose filter reads
 * another table (students with an application to an intake) or whose scope reads a parent's is dropped by a
 * change to that table too, not only by its own.
 */
export function tablesReadBy(qb: Knex.QueryBuilder): string[] {
  const found = new Set<string>();
  for (const m of qb.toSQL().sql.matchAll(/\b(?:from|join)\s+[`"]?([A-Za-z_][A-Za-z0-9_]*)[`"]?/gi))
    found.add(m[1]);
  return [...found];
}

function countKey(db: Trx, def: ResourceDefinition, params: ListFilter): string {
  return stableText([
    databaseId(db),
    def.table,
    def.fixed ?? null,
    params.scope,
    params.filters,
    params.q ?? '',
  ]);
}

/**
 * A count kept per key until a table it reads changes or `countCacheMs` passes, read by one query at a time per key
 * (the requests in flight for it share that query), and neither answered from nor kept while the caches are
 * suspended. Inside a transaction nothing is kept: the count may see the transaction's own writes.
 */
async function keptCount(
  tables: readonly string[],
  key: string | null,
  read: () => Promise<Counted>,
  keep: (counted: Counted) => boolean,
): Promise<Counted> {
  if (!key || !changeEvents.cachesUsable()) return read();
  const hit = counts.get(key);
  if (hit && hit.expires > Date.now() && keep(hit)) return hit;
  const pending = counting.get(key);
  if (pending) return pending.reading;
  const generation = generationOf(tables);
  const reading: Promise<Counted> = read().then(
    (counted) => {
      if (counting.get(key)?.reading === reading) counting.delete(key);
      if (keep(counted) && generationOf(tables) === generation && changeEvents.cachesUsable()) {
        counts.delete(key);
        counts.set(key, { tables, ...counted, expires: Date.now() + listLimits.countCacheMs });
        if (counts.size > MAX_COUNTS) counts.delete(counts.keys().next().value as string);
      }
      return counted;
    },
    (err: unknown) => {
      if (counting.get(key)?.reading === reading) counting.delete(key);
      throw err;
    },
  );
  counting.set(key, { tables, reading });
  return reading;
}

/**
 * How many rows the list holds, counting at most `countCap + 1` of them (`select count(*) from (select id …
 * limit cap+1)`): a table of a million rows costs a walk of ten thousand index entries, not a scan. A count
 * of at least `countCacheMinRows` is kept for `countCacheMs` per (table, fixed columns, scope, filters, q).
 */
function countRows(
  db: Trx,
  def: ResourceDefinition,
  params: ListFilter,
  signal?: AbortSignal,
): Promise<Counted> {
  const isRoot = !(db as Knex.Transaction).isTransaction;
  const key = isRoot ? countKey(db, def, params) : null;
  return keptCount(
    key ? tablesReadBy(listQuery(db, def, params, 'count')) : [],
    key,
    async () => {
      const cap = listLimits.countCap;
      const inner = listQuery(db, def, params, 'count')
        .select(`${def.table}.id`)
        .limit(cap + 1)
        .as('capped');
      // shared by the requests in flight: one request going away does not cancel the others' count
      const row = await guardedQuery<{ n: number | string } | undefined>(
        db,
        db.from(inner).count({ n: '*' }).first(),
        key ? undefined : signal,
      );
      const n = Number(row?.n ?? 0);
      return { total: Math.min(n, cap), capped: n > cap };
    },
    (counted) => counted.total >= listLimits.countCacheMinRows,
  );
}

/** The key of a list's exact size (null inside a transaction: nothing kept). */
function exactKey(db: Trx, def: ResourceDefinition, params: ListFilter): string | null {
  const isRoot = !(db as Knex.Transaction).isTransaction;
  return isRoot ? `exact:${countKey(db, def, params)}` : null;
}

/** The list's exact size (a deep page needs it), kept like the capped count. */
async function exactCount(db: Trx, def: ResourceDefinition, params: ListFilter, signal?: AbortSignal) {
  const key = exactKey(db, def, params);
  const counted = await keptCount(
    key ? tablesReadBy(listQuery(db, def, params, 'count')) : [],
    key,
    async () => {
      const row = await guardedQuery<{ n: number | string } | undefined>(
        db,
        listQuery(db, def, params, 'count').count({ n: '*' }).first(),
        key ? undefined : signal,
      );
      return { total: Number(row?.n ?? 0), capped: false };
    },
    () => true,
  );
  if (key) {
    sizeHints.delete(key);
    sizeHints.set(key, counted.total);
    if (sizeHints.size > MAX_COUNTS) sizeHints.delete(sizeHints.keys().next().value as string);
  }
  return counted.total;
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
    // a search with few matches: those in scope and filters, in the list's order, are the list (no count to read)
    const few = await fewMatches(db, def, params.q, signal);
    if (few) {
      const found = few.length
        ? await guardedQuery<{ id: number }[]>(
            db,
            ordered(
              listQuery(db, def, { ...params, q: undefined })
                .whereIn(`${def.table}.id`, few)
                .select(`${def.table}.id`),
              def,
              params.sort,
            ),
            signal,
          )
        : [];
      const from = (params.page - 1) * params.perPage;
      const ids = found.slice(from, from + params.perPage).map((row) => Number(row.id));
      return { rows: await rowsByIds(db, def, ids, signal), total: found.length, totalCapped: false };
    }
    const { rows, size } = await pageRows(db, def, params, signal);
    const offset = (params.page - 1) * params.perPage;
    // a page that is not full ends the list: its size is known without counting
    if (rows.length < params.perPage && (rows.length > 0 || offset === 0)) {
      return { rows, total: offset + rows.length, totalCapped: false };
    }
    // a deep page counted the list exactly: the capped count is that, read again for nothing
    if (size !== null) {
      const cap = listLimits.countCap;
      return { rows, total: Math.min(size, cap), totalCapped: size > cap };
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
   * Whether record `id` of `via.table` is in the branch scope (following `via` up to a branch column): a record a
   * branch-scoped caller may name in a row whose branch follows it.
   */
  async inBranch(db: Trx, via: BranchVia, id: unknown, scope: BranchScope): Promise<boolean> {
    if (!scope) return true;
    if (scope.branchId === null) return false;
    const qb = db(via.table).where(`${via.table}.id`, binding(id));
    if (via.branchColumn) qb.where(`${via.table}.${via.branchColumn}`, scope.branchId);
    else qb.whereIn(`${via.table}.${via.via!.column}`, parentsInBranch(via.via!, scope.branchId));
    return Boolean(await qb.first('id'));
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

  /** A new row (and its search terms, in the same transaction). */
  async insert(db: Trx, def: ResourceDefinition, data: Row, actorId: number | null): Promise<number> {
    const now = toDbDateTime();
    const [inserted] = await db(def.table).insert({
      ...data,
      created_at: now,
      updated_at: now,
      created_by: actorId,
      updated_by: actorId,
    });
    const id = Number(inserted);
    if (def.searchTerms) await searchTerms.refresh(db, def.table, def.searchTerms, [id]);
    return id;
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
    // its search terms, when a column they come from changed
    const terms = def.searchTerms;
    if (terms && Object.keys(data).some((column) => column in terms))
      await searchTerms.refresh(db, def.table, terms, [id]);
  },

  async delete(db: Trx, def: ResourceDefinition, id: number): Promise<void> {
    if (def.searchTerms) await searchTerms.drop(db, def.table, [id]);
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

  /**
   * A lookup's choices: `columns` of the rows in scope that the search `q` finds (each word in the label columns and
   * `searchIn`; on the terms with `searchTerms`), by the first column.
   */
  async lookup(
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
    topRowsOfTree(qb, def, o.filters ?? {});
    def.applyFilters?.(qb, o.filters ?? {});
    if (o.activeOnly) qb.where(`${def.table}.is_active`, true);
    // on the terms: few matches by id, many down the order's index (as a list's page)
    const few = await fewMatches(db, def, o.q);
    const words = def.searchTerms ? searchWords(o.q) : [];
    if (few) qb.whereIn(`${def.table}.id`, few);
    else if (words.length) whereAmongMatches(qb, db, def.table, `${def.table}.id`, words);
    else applySearch(qb, def, o.q, [...o.columns, ...(o.searchIn ?? [])]);
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

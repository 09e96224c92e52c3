import type { Knex } from 'knex';
import { guardedQuery, isMysql, type Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { binding } from '../../resources/rows';
import { dayStartUtc } from '../calendar/calendar.sources';
import { addDays } from '../../../../shared/reports/criteria';
import type { ResolvedRange } from '../../../../shared/reports/criteria';

/**
 * The reads every report's detail rows share (the report's own repository builds the query: its table, joins,
 * criteria and branch scope): one page in an order, their number, and every row in batches by key — never OFFSET —
 * for a file. Each read runs with the statement timeout and is killed when the client goes away (`guardedQuery`).
 */

/** A detail order: an expression that is never null (a column, `st.created_at`), then the row's key. */
export interface ReportOrder {
  expression: string;
  /** rows with one sort value kept together by this column before the key (a document's lines: the document) */
  within?: string;
  key: string;
  direction: 'asc' | 'desc';
}

/** Rows per batch of a file. */
export const REPORT_BATCH = 1_000;

/** A range of Hong Kong days on a DATETIME column (UTC): from the first day's midnight to the day after the last. */
export function whereInstantIn(
  qb: Knex.QueryBuilder,
  column: string,
  range: ResolvedRange | undefined,
): void {
  if (!range) return;
  if (range.from) qb.where(column, '>=', dayStartUtc(range.from));
  if (range.to) qb.where(column, '<', dayStartUtc(addDays(range.to, 1)));
}

/** The branches a report's rows are limited to (null: every branch; empty: none). */
export function whereInBranches(
  qb: Knex.QueryBuilder,
  column: string,
  branchIds: readonly number[] | null,
): void {
  if (branchIds === null) return;
  if (branchIds.length) qb.whereIn(column, [...branchIds]);
  else qb.whereRaw('1 = 0');
}

/** A DATETIME column's Hong Kong month, `YYYY-MM`, as SQL of the database at hand. */
export function hongKongMonth(db: Trx, column: string): Knex.Raw {
  return isMysql(db)
    ? db.raw(`DATE_FORMAT(DATE_ADD(??, INTERVAL 8 HOUR), '%Y-%m')`, [column])
    : db.raw(`strftime('%Y-%m', ??, '+8 hours')`, [column]);
}

export const reportRowsRepository = {
  /** One page of `query` in `order`. */
  page(
    db: Trx,
    query: Knex.QueryBuilder,
    order: ReportOrder,
    page: number,
    perPage: number,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    query.orderBy(order.expression, order.direction);
    if (order.within) query.orderBy(order.within, order.direction);
    query
      .orderBy(order.key, order.direction)
      .limit(perPage)
      .offset((page - 1) * perPage);
    return guardedQuery<Row[]>(db, query, signal);
  },

  /** How many rows `query` (its own selects dropped) gives. */
  async count(db: Trx, query: Knex.QueryBuilder, signal?: AbortSignal): Promise<number> {
    const row = await guardedQuery<{ n: number | string } | undefined>(
      db,
      query.clearSelect().clearOrder().count({ n: '*' }).first(),
      signal,
    );
    return Number(row?.n ?? 0);
  },

  /** The rows of a grouped (or otherwise small) read, as they come. */
  all(db: Trx, query: Knex.QueryBuilder, signal?: AbortSignal): Promise<Row[]> {
    return guardedQuery<Row[]>(db, query, signal);
  },

  /**
   * Every row of `build()` in `order`, batch by batch: each batch the rows after the last one's (sort value, key),
   * found on the order's index, so the last batch costs what the first does. `build` gives a fresh query each time.
   * The next batch is asked for as soon as a batch has come, before it is handed over: the database reads it while
   * the caller writes this one, so a file takes about the longer of reading and writing its rows, not their sum. At
   * most one read is ahead; when the caller stops, its rows are dropped (a client gone away stops it through the
   * signal).
   */
  async *batches(
    db: Trx,
    build: () => Knex.QueryBuilder,
    order: ReportOrder,
    signal?: AbortSignal,
    size: number = REPORT_BATCH,
  ): AsyncGenerator<Row[]> {
    // the keyset is (sort value, key): rows kept together by another column are read by their documents
    if (order.within) throw new Error('batches of rows kept together by a column: walk their documents');
    const op = order.direction === 'asc' ? '>' : '<';
    const read = (after: { sort: unknown; key: unknown } | null) => {
      const qb = build().select({ __sort: order.expression, __key: order.key });
      if (after) {
        const { sort, key } = after;
        qb.where((w) =>
          w
            .where(order.expression, op, binding(sort))
            .orWhere((same) =>
              same.where(order.expression, binding(sort)).where(order.key, op, binding(key)),
            ),
        );
      }
      qb.orderBy(order.expression, order.direction).orderBy(order.key, order.direction).limit(size);
      const rows = guardedQuery<Row[]>(db, qb, signal);
      // a read ahead that the caller stops before taking is not an unhandled failure
      rows.catch(() => undefined);
      return rows;
    };
    let next = read(null);
    for (;;) {
      const rows = await next;
      const more = rows.length === size;
      if (more) {
        const last = rows[rows.length - 1];
        next = read({ sort: last.__sort, key: last.__key });
      }
      if (rows.length) yield rows;
      if (!more) return;
      // the event loop serves other requests between batches
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  },

  /** `columns` of the rows of `table` whose `key` is among `values` (and that match `where`): the groups' names. */
  async named(
    db: Trx,
    table: string,
    key: string,
    values: readonly unknown[],
    columns: readonly string[],
    where: Readonly<Row> = {},
  ): Promise<Map<string, Row>> {
    const wanted = values.filter((v) => v !== null && v !== undefined);
    if (!wanted.length) return new Map();
    const qb = db(table)
      .whereIn(key, wanted.map(binding) as readonly string[])
      .select([...new Set([key, ...columns])]);
    for (const [column, value] of Object.entries(where)) qb.where(column, binding(value));
    const rows: Row[] = await qb;
    return new Map(rows.map((row) => [String(row[key]), row]));
  },
};

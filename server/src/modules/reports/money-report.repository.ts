import type { Knex } from 'knex';
import { isMysql, type Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import type { ResolvedRange } from '../../../../shared/reports/criteria';
import type { ReportCriteria, ReportSort } from './report-source';
import {
  REPORT_BATCH,
  reportRowsRepository,
  whereInBranches,
  type ReportOrder,
} from './report-rows.repository';

/**
 * The reads of the money reports (invoices, receipts, refunds; shared/reports/orders.ts): one table of money
 * documents (`d`: a `date` DATE, a `branch_id`, a `currency`), its rows in the criteria — the range on its date (Hong
 * Kong days, as the document is dated), the caller's branches, and every other criterion the column of its name (or
 * its rule) —
 * with the sums of its money columns one row per currency, and grouped by a key and the currency (a group never
 * adds HKD to KRW). Knex only here.
 */
export interface MoneyReportTable {
  /** the documents' table, read as `d` */
  table: string;
  /** the rows read when they are not `d`'s alone (lines joined to their invoice `o`) */
  from?: (db: Trx) => Knex.QueryBuilder;
  /** where the rows' day, branch and currency are (default `d.date`, `d.branch_id`, `d.currency`) */
  at?: { date: string; branch: string; currency: string };
  /** a criterion → the column it narrows (default `d.<criterion>`) */
  criteria?: Readonly<Record<string, string>>;
  /** a criterion narrowing by a rule rather than a column's value (`due=overdue`), on Hong Kong's `today` */
  rules?: Readonly<Record<string, (qb: Knex.QueryBuilder, value: unknown, today: string) => void>>;
  /**
   * the rows are the lines of documents (`o`, with the range's day and branch): the table the documents are in and
   * their key. A line's order is its document's (sort value, then key) and then its own key; a file reads the
   * documents on their own index, some at a time, and then their lines — a sort over the two tables finds no index,
   * and each batch of lines sorted every line left to read.
   */
  linesOf?: { table: string; key: string };
  /** more counts of a group or a total: a column → what it counts distinct (`orders` → `d.order_id`) */
  distinct?: Readonly<Record<string, string>>;
  /** the joins and selects of a detail row (related records' names in both languages) */
  detail(qb: Knex.QueryBuilder): Knex.QueryBuilder;
  /** a result column → the money column it sums (`total` → `d.total`) */
  sums: Readonly<Record<string, string>>;
  /** the column counting the documents of a group or a total */
  count: string;
  /** a sortable detail column → its column */
  sort: Readonly<Record<string, string>>;
  /** a grouping → the column its groups are keyed by (`month`: the date's month), and where the keys' names are */
  groupings: Readonly<
    Record<
      string,
      {
        key: string;
        names?: { table: string; key: string; columns: string[]; where?: Row };
        /** grouped by the month too (`month`: `YYYY-MM`) */
        byMonth?: boolean;
      }
    >
  >;
}

/** A range of days on a DATE column, both ends included. */
export function whereDayIn(qb: Knex.QueryBuilder, column: string, range: ResolvedRange | undefined): void {
  if (!range) return;
  if (range.from) qb.where(column, '>=', range.from);
  if (range.to) qb.where(column, '<=', range.to);
}

/** A DATE column's month, `YYYY-MM`, as SQL of the database at hand. */
export function dayMonth(db: Trx, column: string): Knex.Raw {
  return isMysql(db) ? db.raw(`DATE_FORMAT(??, '%Y-%m')`, [column]) : db.raw(`substr(??, 1, 7)`, [column]);
}

/** The documents of the criteria. */
function whereDocuments(db: Trx, spec: MoneyReportTable, c: ReportCriteria): Knex.QueryBuilder {
  const qb = spec.from ? spec.from(db) : db(`${spec.table} as d`);
  const at = atOf(spec);
  whereDayIn(qb, at.date, c.ranges.date);
  whereInBranches(qb, at.branch, c.branchIds);
  for (const [name, value] of Object.entries(c.values)) {
    if (name === 'branch_id' || value === undefined) continue;
    const rule = spec.rules?.[name];
    if (rule) rule(qb, value, c.today);
    else qb.whereRaw(`${spec.criteria?.[name] ?? `d.${name}`} = ?`, [value as string | number]);
  }
  return qb;
}

function atOf(spec: MoneyReportTable) {
  return spec.at ?? { date: 'd.date', branch: 'd.branch_id', currency: 'd.currency' };
}

/** The documents (`o`) whose lines are the rows: the range, the branches, and the criteria on their own columns. */
function whereParents(db: Trx, spec: MoneyReportTable, c: ReportCriteria): Knex.QueryBuilder {
  const alias = spec.linesOf!.key.split('.')[0];
  const qb = db(`${spec.linesOf!.table} as ${alias}`);
  const at = atOf(spec);
  whereDayIn(qb, at.date, c.ranges.date);
  whereInBranches(qb, at.branch, c.branchIds);
  for (const [name, value] of Object.entries(c.values)) {
    const column = spec.criteria?.[name];
    if (name !== 'branch_id' && value !== undefined && column?.startsWith(`${alias}.`))
      qb.where(column, value as string | number);
  }
  return qb;
}

/** The documents whose lines one batch of a file reads: about `REPORT_BATCH` lines at ten a document (a test lowers it). */
export const lineBatches = { documents: REPORT_BATCH / 10 };

/** Per currency: the documents' number and the sums of their money. */
function summed(db: Trx, spec: MoneyReportTable, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  const currency = atOf(spec).currency;
  qb.select({ currency }).count({ [spec.count]: '*' });
  for (const [column, counted] of Object.entries(spec.distinct ?? {}))
    qb.select(db.raw('count(distinct ??) as ??', [counted, column]));
  for (const [column, source] of Object.entries(spec.sums)) qb.sum({ [column]: source });
  return qb.groupBy(currency);
}

/** Sums as numbers (MariaDB answers DECIMAL strings for a SUM of BIGINT). */
function numbers(spec: MoneyReportTable, row: Row): Row {
  const out: Row = { ...row, [spec.count]: Number(row[spec.count] ?? 0) };
  for (const column of Object.keys(spec.distinct ?? {})) out[column] = Number(row[column] ?? 0);
  for (const column of Object.keys(spec.sums)) out[column] = Number(row[column] ?? 0);
  return out;
}

/** An invoice's lines (`d`) joined to their invoice (`o`), quotation item (`qi`) and special event (`se`). */
export function orderLinesFrom(db: Trx): Knex.QueryBuilder {
  return db('order_items as d')
    .join('orders as o', 'o.id', 'd.order_id')
    .leftJoin('quotation_items as qi', 'qi.id', 'd.quotation_item_id')
    .leftJoin('special_events as se', 'se.id', 'd.special_event_id');
}

/** The lines of invoices not void (`d`, `o`) with their service (`pr`): the invoice analysis. */
export function orderAnalysisFrom(db: Trx): Knex.QueryBuilder {
  return db('order_items as d')
    .join('orders as o', 'o.id', 'd.order_id')
    .leftJoin('products as pr', 'pr.id', 'd.product_id')
    .whereNot('o.status', 'void');
}

export function moneyReportRepository(spec: MoneyReportTable) {
  const detailQuery = (db: Trx, c: ReportCriteria) => spec.detail(whereDocuments(db, spec, c));
  const orderOf = (sort: ReportSort): ReportOrder => ({
    expression: spec.sort[sort.column],
    ...(spec.linesOf ? { within: spec.linesOf.key } : {}),
    key: 'd.id',
    direction: sort.direction,
  });
  /**
   * Every line of the documents of the criteria: the documents in the order on their index, then their lines — the
   * next documents' lines asked for before this batch is handed over, as `reportRowsRepository.batches` does.
   */
  async function* linesByDocument(db: Trx, c: ReportCriteria, sort: ReportSort, signal?: AbortSignal) {
    const order = orderOf(sort);
    const parents = reportRowsRepository.batches(
      db,
      () => whereParents(db, spec, c),
      { expression: order.expression, key: order.within!, direction: order.direction },
      signal,
      lineBatches.documents,
    );
    const linesOf = (documents: Row[]) => {
      const query = detailQuery(db, c)
        .whereIn(
          order.within!,
          documents.map((row) => row.__key as number),
        )
        .orderBy(order.expression, order.direction)
        .orderBy(order.within!, order.direction)
        .orderBy(order.key, order.direction);
      const rows = reportRowsRepository.all(db, query, signal);
      // a read ahead that the caller stops before taking is not an unhandled failure
      rows.catch(() => undefined);
      return rows;
    };
    let ahead: Promise<Row[]> | null = null;
    for await (const documents of parents) {
      const next = linesOf(documents);
      if (ahead) {
        const rows = await ahead;
        if (rows.length) yield rows;
      }
      ahead = next;
    }
    const rows = ahead ? await ahead : [];
    if (rows.length) yield rows;
  }
  return {
    page(db: Trx, c: ReportCriteria, sort: ReportSort, page: number, perPage: number, signal?: AbortSignal) {
      return reportRowsRepository.page(db, detailQuery(db, c), orderOf(sort), page, perPage, signal);
    },
    count(db: Trx, c: ReportCriteria, signal?: AbortSignal) {
      return reportRowsRepository.count(db, whereDocuments(db, spec, c), signal);
    },
    /** One row per currency (in currency order), none when no document matches. */
    async totals(db: Trx, c: ReportCriteria, signal?: AbortSignal): Promise<Row[]> {
      const rows = await reportRowsRepository.all(
        db,
        summed(db, spec, whereDocuments(db, spec, c)).orderBy(atOf(spec).currency),
        signal,
      );
      return rows.map((row) => numbers(spec, row));
    },
    batches(db: Trx, c: ReportCriteria, sort: ReportSort, signal?: AbortSignal) {
      if (spec.linesOf) return linesByDocument(db, c, sort, signal);
      return reportRowsRepository.batches(db, () => detailQuery(db, c), orderOf(sort), signal);
    },
    /** One row per group and currency: `group_key`, the key's names in both languages where it has any, the sums. */
    async groups(db: Trx, c: ReportCriteria, grouping: string, signal?: AbortSignal): Promise<Row[]> {
      const { key, names, byMonth } = spec.groupings[grouping];
      const qb = whereDocuments(db, spec, c);
      const month = dayMonth(db, atOf(spec).date);
      qb.select({ group_key: key === 'month' ? month : db.raw(key) });
      if (byMonth) qb.select({ month }).groupBy('month');
      const rows = await reportRowsRepository.all(db, summed(db, spec, qb).groupBy('group_key'), signal);
      const named = names
        ? await reportRowsRepository.named(
            db,
            names.table,
            names.key,
            [...new Set(rows.map((row) => row.group_key))],
            names.columns,
            names.where,
          )
        : new Map<string, Row>();
      return rows.map((row) => ({ ...(named.get(String(row.group_key)) ?? {}), ...numbers(spec, row) }));
    },
  };
}

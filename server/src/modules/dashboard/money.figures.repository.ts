import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import { sharedRead } from '../../db/shared-read';
import type { Row } from '../../resources/resource';
import { dayMonth } from '../reports/money-report.repository';
import { whereInBranches } from '../reports/report-rows.repository';
import { whereOverdue } from '../sales/sales.repository';

/** Invoices not void dated `from`..`to` (Hong Kong days, as they are dated), in the branches. */
function invoices(db: Trx, branchIds: readonly number[] | null, from: string, to: string): Knex.QueryBuilder {
  const qb = db('orders as d').whereBetween('d.date', [from, to]).whereNot('d.status', 'void');
  whereInBranches(qb, 'd.branch_id', branchIds);
  return qb;
}

/**
 * The money figures' reads (issue 29, item 5): sums per currency of the documents in the caller's branches — never
 * one sum across currencies.
 */
export const moneyFiguresRepository = {
  /** Invoices not void dated `from`..`to`: their totals and what is outstanding on them, per currency. */
  invoiced(db: Trx, branchIds: readonly number[] | null, from: string, to: string, signal?: AbortSignal) {
    const qb = invoices(db, branchIds, from, to)
      .select('d.currency')
      .sum({ total: 'd.total', outstanding: 'd.outstanding' })
      .groupBy('d.currency')
      .orderBy('d.currency');
    return sharedRead<Row[]>(db, qb, signal);
  },

  /** The same invoices' totals per month of their date (`YYYY-MM`) and currency. */
  invoicedPerMonth(
    db: Trx,
    branchIds: readonly number[] | null,
    from: string,
    to: string,
    signal?: AbortSignal,
  ) {
    const qb = invoices(db, branchIds, from, to)
      .select({ month: dayMonth(db, 'd.date') })
      .select('d.currency')
      .sum({ total: 'd.total' })
      .groupBy('month', 'd.currency')
      .orderBy('d.currency');
    return sharedRead<Row[]>(db, qb, signal);
  },

  /** Invoices overdue on `today` (`whereOverdue`): how many and what is outstanding on them, per currency. */
  overdue(db: Trx, branchIds: readonly number[] | null, today: string, signal?: AbortSignal) {
    const qb = whereOverdue(db('orders as d'), 'd', today)
      .select('d.currency')
      .count({ n: '*' })
      .sum({ amount: 'd.outstanding' })
      .groupBy('d.currency')
      .orderBy('d.currency');
    whereInBranches(qb, 'd.branch_id', branchIds);
    return sharedRead<Row[]>(db, qb, signal);
  },

  /** Receipts of `status` (dated `range.from`..`range.to`, or any day), per currency: how many, their amount. */
  receipts(
    db: Trx,
    branchIds: readonly number[] | null,
    status: string,
    range: { from: string; to: string } | null,
    signal?: AbortSignal,
  ) {
    const qb = db('receipts as d')
      .where('d.status', status)
      .select('d.currency')
      .count({ n: '*' })
      .sum({ amount: 'd.amount' })
      .groupBy('d.currency')
      .orderBy('d.currency');
    if (range) qb.whereBetween('d.date', [range.from, range.to]);
    whereInBranches(qb, 'd.branch_id', branchIds);
    return sharedRead<Row[]>(db, qb, signal);
  },
};

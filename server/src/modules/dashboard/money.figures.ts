import type { Knex } from 'knex';
import { presetRange } from '../../../../shared/reports/criteria';
import type { MoneyData, MoneySeriesData } from '../../../../shared/dashboard';
import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import { lastMonths, monthStart, registerDashboardFigure, type FigureScope } from './dashboard.figures';
import { moneyFiguresRepository } from './money.figures.repository';

/** How many months the invoiced series shows (this one included). */
export const INVOICED_MONTHS = 12;

/** The receipts' status awaiting approval (recorded, neither approved nor cancelled). */
const AWAITING_APPROVAL = 'not_approved';

/**
 * Sums per currency as the `money` kind answers them (integer minor units; MariaDB sums come as text), with how
 * many documents they are of when the rows count them (`n`).
 */
function perCurrency(rows: Row[], column: string, counted = false): MoneyData {
  const values = rows.map((row) => ({ currency: String(row.currency), amount: Number(row[column] ?? 0) }));
  return counted ? { values, count: rows.reduce((n, row) => n + Number(row.n ?? 0), 0) } : { values };
}

/** Sums per month and currency as the `money_series` kind answers them: every month, 0 where nothing was summed. */
function perMonth(rows: Row[], periods: string[]): MoneySeriesData {
  const currencies = [...new Set(rows.map((row) => String(row.currency)))].sort();
  const sums = new Map(rows.map((row) => [`${row.month} ${row.currency}`, Number(row.total ?? 0)]));
  return {
    currencies,
    points: periods.map((period) => ({
      period,
      amounts: Object.fromEntries(currencies.map((c) => [c, sums.get(`${period} ${c}`) ?? 0])),
    })),
  };
}

/** This month's invoices' sums per currency, by the dashboard answer they were read for. */
const monthInvoices = new WeakMap<RequestContext, Promise<Row[]>>();

/**
 * This month's invoices' sums (total and outstanding) per currency in the caller's scope, read once for a dashboard
 * answer: the invoiced and the outstanding figures both show them, and the dashboard passes one context to each of
 * its figures.
 */
function invoicedThisMonth(db: Knex, ctx: RequestContext, scope: FigureScope): Promise<Row[]> {
  let rows = monthInvoices.get(ctx);
  if (!rows) {
    const { from, to } = presetRange('this_month', scope.today);
    rows = moneyFiguresRepository.invoiced(db, scope.branchIds, from, to, ctx.signal);
    monthInvoices.set(ctx, rows);
  }
  return rows;
}

/**
 * The dashboard's money figures (issue 29, item 5), in the caller's branch scope, per currency (never summed across
 * currencies): this month's invoiced (invoices dated this Hong Kong month, not void), what of them is outstanding,
 * and what was received (receipts dated this month and approved); the invoices overdue today (the reminder's rule,
 * `whereOverdue`) — how many, what is outstanding on them — and the receipts awaiting approval, whatever their
 * date; the invoiced per month of the last twelve. Each links to the report or list that explains it.
 */
export function registerMoneyFigures(): void {
  const invoicesLink = () => ({
    path: '/reports/orders/order-result?date_preset=this_month&group_by=status',
    permission: 'reports.orders',
  });
  registerDashboardFigure({
    key: 'month_invoiced',
    kind: 'money',
    permission: 'orders.view',
    order: 10,
    link: invoicesLink,
    async compute(db, ctx, scope) {
      return perCurrency(await invoicedThisMonth(db, ctx, scope), 'total');
    },
  });
  registerDashboardFigure({
    key: 'month_received',
    kind: 'money',
    permission: 'receipts.view',
    order: 20,
    link: () => ({
      path: '/reports/orders/receipt-result?date_preset=this_month&status=approved',
      permission: 'reports.orders',
    }),
    async compute(db, ctx, scope) {
      const month = presetRange('this_month', scope.today);
      return perCurrency(
        await moneyFiguresRepository.receipts(db, scope.branchIds, 'approved', month, ctx.signal),
        'amount',
      );
    },
  });
  registerDashboardFigure({
    key: 'month_outstanding',
    kind: 'money',
    permission: 'orders.view',
    order: 30,
    link: invoicesLink,
    async compute(db, ctx, scope) {
      return perCurrency(await invoicedThisMonth(db, ctx, scope), 'outstanding');
    },
  });
  registerDashboardFigure({
    key: 'overdue_invoices',
    kind: 'money',
    permission: 'orders.view',
    order: 40,
    // the invoices report's overdue ones dated up to today (given neither end, the report's range is this month)
    link: (scope) => ({
      path: `/reports/orders/order-result?date_to=${scope.today}&due=overdue`,
      permission: 'reports.orders',
    }),
    async compute(db, ctx, scope) {
      return perCurrency(
        await moneyFiguresRepository.overdue(db, scope.branchIds, scope.today, ctx.signal),
        'amount',
        true,
      );
    },
  });
  // behind receipts.view, as the list it links to: whoever may see the receipts sees which wait, not only the
  // approvers (a receipt's recorder follows it too)
  registerDashboardFigure({
    key: 'receipts_awaiting_approval',
    kind: 'money',
    permission: 'receipts.view',
    order: 50,
    link: () => ({ path: `/orders/receipt?status=${AWAITING_APPROVAL}`, permission: 'receipts.view' }),
    async compute(db, ctx, scope) {
      return perCurrency(
        await moneyFiguresRepository.receipts(db, scope.branchIds, AWAITING_APPROVAL, null, ctx.signal),
        'amount',
        true,
      );
    },
  });
  registerDashboardFigure({
    key: 'month_invoiced_series',
    kind: 'money_series',
    permission: 'orders.view',
    order: 60,
    link: (scope) => ({
      path:
        '/reports/orders/order-analysis-result?group_by=month' +
        `&date_from=${monthStart(scope.today, INVOICED_MONTHS - 1)}` +
        `&date_to=${presetRange('this_month', scope.today).to}`,
      permission: 'reports.orders',
    }),
    async compute(db, ctx, scope) {
      const from = monthStart(scope.today, INVOICED_MONTHS - 1);
      const to = presetRange('this_month', scope.today).to;
      return perMonth(
        await moneyFiguresRepository.invoicedPerMonth(db, scope.branchIds, from, to, ctx.signal),
        lastMonths(scope.today, INVOICED_MONTHS),
      );
    },
  });
}

import type { Knex } from 'knex';
import {
  orderAnalysisReport,
  orderItemsReport,
  ordersReport,
  receiptsReport,
  refundsReport,
} from '../../../../shared/reports/orders';
import type { ReportDefinition } from '../../../../shared/reports/definition';
import type { Row } from '../../resources/resource';
import { nameIn } from '../calendar/calendar.sources';
import { whereOverdue } from '../sales/sales.repository';
import {
  moneyReportRepository,
  orderAnalysisFrom,
  orderLinesFrom,
  type MoneyReportTable,
} from './money-report.repository';
import { inLanguage, reportLabel } from './report-labels';
import type { ReportSource } from './report-source';

type Language = 'en' | 'zh_HK';

const none = (language: Language) => inLanguage(reportLabel('reports.common.none'), language);

/** A name in the language, else the other one's, else "(none)". */
function named(language: Language, en: unknown, zh: unknown): string {
  return nameIn(language, en, zh) || none(language);
}

/** A student as the lists name one: the English name, then the Chinese one. */
function studentName(row: Row): string {
  const en = [row.surname_en, row.given_name_en].filter(Boolean).join(' ');
  return [en, row.name_zh].filter(Boolean).join(' ') || String(row.student_no ?? '');
}

/** A declared status's label (`resources.<resource>.states.<status>`), else the status itself. */
function stateLabel(resource: string, status: unknown, language: Language): string {
  if (status === null || status === undefined || status === '') return none(language);
  try {
    return inLanguage(reportLabel(`resources.${resource}.states.${String(status)}`), language);
  } catch {
    return String(status);
  }
}

/** The student and branch of a document (`d`), named in both languages. */
function withParties(qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb
    .leftJoin('students as st', 'st.id', 'd.student_id')
    .leftJoin('branches as br', 'br.id', 'd.branch_id')
    .select(
      'd.id',
      'd.date',
      'd.currency',
      'd.status',
      'st.student_no',
      'st.surname_en',
      'st.given_name_en',
      'st.name_zh',
      'br.name_en as branch_en',
      'br.name_zh as branch_zh',
    );
}

const BRANCH_NAMES = { table: 'branches', key: 'id', columns: ['name_en', 'name_zh'] };

/**
 * A money report's source: its table's reads (money-report.repository.ts) and how its rows read — a detail row's
 * own columns (`own`), a group's label (`label`), its money as integer minor units beside its currency.
 */
function moneySource(
  definition: ReportDefinition,
  spec: MoneyReportTable,
  own: (row: Row, language: Language) => Row,
  label: (view: string, row: Row, language: Language) => string,
): ReportSource {
  const repository = moneyReportRepository(spec);
  return {
    definition,
    detail: {
      page: (db, c, sort, page, perPage, read) => repository.page(db, c, sort, page, perPage, read.signal),
      count: (db, c, read) => repository.count(db, c, read.signal),
      totals: (db, c, read) => repository.totals(db, c, read.signal),
      batches: (db, c, sort, read) => repository.batches(db, c, sort, read.signal),
    },
    groups: (db, c, grouping, read) => repository.groups(db, c, grouping, read.signal),
    present(row: Row, view: string, language: Language): Row {
      const sums = Object.fromEntries(
        [...Object.keys(spec.distinct ?? {}), ...Object.keys(spec.sums)].map((c) => [c, Number(row[c] ?? 0)]),
      );
      if (view === 'detail')
        return {
          id: Number(row.id),
          date: String(row.date).slice(0, 10),
          student: studentName(row),
          branch: named(language, row.branch_en, row.branch_zh),
          currency: row.currency,
          ...own(row, language),
          ...sums,
        };
      return {
        group_key: row.group_key ?? null,
        ...(row.month !== undefined && view !== 'month' ? { month: String(row.month) } : {}),
        ...(view === 'currency' ? {} : { [view]: label(view, row, language) }),
        currency: row.currency,
        [spec.count]: Number(row[spec.count] ?? 0),
        ...sums,
      };
    },
  };
}

/** A group's label: a branch's or a record's name, a month as it is, a status's label. */
function groupLabel(resource: string) {
  return (view: string, row: Row, language: Language): string => {
    if (view === 'status') return stateLabel(resource, row.group_key, language);
    if (view === 'month') return String(row.group_key ?? none(language));
    if (view === 'method')
      return nameIn(language, row.label_en, row.label_zh) || String(row.group_key ?? none(language));
    if (view === 'terms') return named(language, row.title_en, row.title_zh);
    if (view === 'service') return nameIn(language, row.name_en, row.name_zh) || none(language);
    return named(language, row.name_en, row.name_zh);
  };
}

/** The invoices report (shared/reports/orders.ts). */
export const ordersReportSource = moneySource(
  ordersReport,
  {
    table: 'orders',
    detail: (qb) => withParties(qb).select('d.order_no', 'd.total', 'd.paid_amount as paid', 'd.outstanding'),
    rules: {
      due: (qb, value, today) => {
        if (value === 'overdue') whereOverdue(qb, 'd', today);
      },
    },
    sums: { total: 'd.total', paid: 'd.paid_amount', outstanding: 'd.outstanding' },
    count: 'orders',
    sort: { date: 'd.date', order_no: 'd.order_no', total: 'd.total', outstanding: 'd.outstanding' },
    groupings: {
      branch: { key: 'd.branch_id', names: BRANCH_NAMES },
      status: { key: 'd.status' },
      month: { key: 'month' },
      currency: { key: 'd.currency' },
    },
  },
  (row, language) => ({
    order_no: row.order_no,
    status: stateLabel('order', row.status, language),
    url: `/orders/order/${Number(row.id)}`,
  }),
  groupLabel('order'),
);

const METHOD_NAMES = {
  table: 'options',
  key: 'value',
  columns: ['label_en', 'label_zh'],
  where: { key: 'payment_method' },
};

/** The receipts report. */
export const receiptsReportSource = moneySource(
  receiptsReport,
  {
    table: 'receipts',
    detail: (qb) =>
      withParties(qb)
        .leftJoin('orders as o', 'o.id', 'd.order_id')
        .leftJoin('options as pm', (on) => on.on('pm.value', 'd.method').andOnVal('pm.key', 'payment_method'))
        .select(
          'd.receipt_no',
          'd.method',
          'd.amount',
          'o.order_no',
          'pm.label_en as method_en',
          'pm.label_zh as method_zh',
        ),
    sums: { amount: 'd.amount' },
    count: 'receipts',
    sort: { date: 'd.date', receipt_no: 'd.receipt_no', amount: 'd.amount' },
    groupings: {
      method: { key: 'd.method', names: METHOD_NAMES },
      status: { key: 'd.status' },
      branch: { key: 'd.branch_id', names: BRANCH_NAMES },
      month: { key: 'month' },
    },
  },
  (row, language) => ({
    receipt_no: row.receipt_no,
    order_no: row.order_no,
    method: nameIn(language, row.method_en, row.method_zh) || String(row.method ?? none(language)),
    status: stateLabel('receipt', row.status, language),
    url: `/orders/receipt/${Number(row.id)}`,
  }),
  groupLabel('receipt'),
);

/** The refunds report. */
export const refundsReportSource = moneySource(
  refundsReport,
  {
    table: 'refunds',
    detail: (qb) =>
      withParties(qb)
        .leftJoin('orders as o', 'o.id', 'd.order_id')
        .leftJoin('refund_terms as rt', 'rt.id', 'd.refund_term_id')
        .select(
          'd.refund_no',
          'd.amount',
          'o.order_no',
          'rt.title_en as terms_en',
          'rt.title_zh as terms_zh',
        ),
    sums: { amount: 'd.amount' },
    count: 'refunds',
    sort: { date: 'd.date', refund_no: 'd.refund_no', amount: 'd.amount' },
    groupings: {
      terms: {
        key: 'd.refund_term_id',
        names: { table: 'refund_terms', key: 'id', columns: ['title_en', 'title_zh'] },
      },
      status: { key: 'd.status' },
      branch: { key: 'd.branch_id', names: BRANCH_NAMES },
      month: { key: 'month' },
    },
  },
  (row, language) => ({
    refund_no: row.refund_no,
    order_no: row.order_no,
    terms: named(language, row.terms_en, row.terms_zh),
    status: stateLabel('refund', row.status, language),
    url: `/orders/refund/${Number(row.id)}`,
  }),
  groupLabel('refund'),
);

/** An invoice's lines (`d`) joined to their invoice (`o`), quotation item (`qi`) and special event (`se`). */
const LINES_AT = { date: 'o.date', branch: 'o.branch_id', currency: 'o.currency' };
const LINE_SCHOOL = 'COALESCE(qi.school_id, se.school_id)';

/** The invoice lines report. */
export const orderItemsReportSource = moneySource(
  orderItemsReport,
  {
    table: 'order_items',
    from: orderLinesFrom,
    at: LINES_AT,
    linesOf: { table: 'orders', key: 'o.id' },
    criteria: {
      product_id: 'd.product_id',
      school_id: LINE_SCHOOL,
      admission_id: 'qi.admission_id',
      currency: 'o.currency',
    },
    detail: (qb) =>
      qb
        .leftJoin('students as st', 'st.id', 'o.student_id')
        .leftJoin('branches as br', 'br.id', 'o.branch_id')
        .leftJoin('products as pr', 'pr.id', 'd.product_id')
        .joinRaw(`LEFT JOIN schools as sc ON sc.id = ${LINE_SCHOOL}`)
        .leftJoin('school_admissions as ad', 'ad.id', 'qi.admission_id')
        .select(
          'd.id',
          'd.order_id',
          'd.description',
          'd.quantity',
          'd.net_amount as amount',
          'o.order_no',
          'o.date',
          'o.currency',
          'st.student_no',
          'st.surname_en',
          'st.given_name_en',
          'st.name_zh',
          'br.name_en as branch_en',
          'br.name_zh as branch_zh',
          'pr.name_en as service_en',
          'pr.name_zh as service_zh',
          'sc.name_en as school_en',
          'sc.name_zh as school_zh',
          'ad.name_en as intake_en',
          'ad.name_zh as intake_zh',
        ),
    sums: { quantity: 'd.quantity', amount: 'd.net_amount' },
    count: 'lines',
    sort: { date: 'o.date', order_no: 'o.order_no' },
    groupings: {
      service: {
        key: 'd.product_id',
        names: { table: 'products', key: 'id', columns: ['name_en', 'name_zh'] },
      },
      school: { key: LINE_SCHOOL, names: { table: 'schools', key: 'id', columns: ['name_en', 'name_zh'] } },
      intake: {
        key: 'qi.admission_id',
        names: { table: 'school_admissions', key: 'id', columns: ['name_en', 'name_zh'] },
      },
    },
  },
  (row, language) => ({
    order_no: row.order_no,
    description: row.description,
    service: nameIn(language, row.service_en, row.service_zh),
    school: nameIn(language, row.school_en, row.school_zh),
    intake: nameIn(language, row.intake_en, row.intake_zh),
    url: `/orders/order/${Number(row.order_id)}`,
  }),
  groupLabel('order'),
);

/** The invoice analysis: lines of invoices not void, per month and branch or service category, per currency. */
export const orderAnalysisReportSource = moneySource(
  orderAnalysisReport,
  {
    table: 'order_items',
    from: orderAnalysisFrom,
    at: LINES_AT,
    criteria: { category_id: 'pr.category_id', currency: 'o.currency' },
    detail: (qb) => qb,
    sums: { amount: 'd.net_amount' },
    count: 'lines',
    distinct: { orders: 'd.order_id' },
    sort: {},
    groupings: {
      branch: { key: 'o.branch_id', names: BRANCH_NAMES, byMonth: true },
      category: {
        key: 'pr.category_id',
        names: { table: 'product_categories', key: 'id', columns: ['name_en', 'name_zh'] },
        byMonth: true,
      },
      month: { key: 'month' },
    },
  },
  () => ({}),
  (view, row, language) =>
    view === 'month' ? String(row.group_key) : named(language, row.name_en, row.name_zh),
);

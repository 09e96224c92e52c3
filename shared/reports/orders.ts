import { RECEIPT_STATUSES, REFUND_STATUSES } from '../resources/money';
import { ORDER_STATUSES } from '../resources/sales';
import { defineReport } from './definition';

/**
 * The money reports (issue 29, item 2; decision 0019 "money reports"): invoices, receipts and refunds in a range of
 * days (the document's own date, a Hong Kong day), in the caller's branch scope. Money is never summed across
 * currencies: every money column names its currency column, the totals are one row per currency, and every
 * grouping groups by currency too (a group of HKD and KRW invoices is two rows).
 */

/**
 * Invoices: by date, branch, student, status and currency — or only the overdue ones (`due=overdue`) —, with what is
 * paid and what is outstanding.
 */
export const ordersReport = defineReport({
  name: 'order',
  group: 'orders',
  api: '/reports/orders/order',
  route: '/reports/orders/order',
  criteria: {
    date: { type: 'dateRange', default: 'this_month' },
    branch_id: { type: 'lookup', resource: 'branch' },
    student_id: { type: 'lookup', resource: 'student' },
    status: { type: 'values', values: ORDER_STATUSES, labels: 'resources.order.states' },
    currency: { type: 'option', key: 'currency' },
    /** `overdue`: past the due date with an amount outstanding, neither paid nor void (the dashboard's figure) */
    due: { type: 'values', values: ['overdue'] },
  },
  columns: {
    order_no: { type: 'text', link: 'url' },
    date: { type: 'date' },
    student: { type: 'text' },
    branch: { type: 'text' },
    status: { type: 'text' },
    month: { type: 'text' },
    currency: { type: 'currency' },
    orders: { type: 'integer', total: true },
    total: { type: 'money', currency: 'currency', total: true },
    paid: { type: 'money', currency: 'currency', total: true },
    outstanding: { type: 'money', currency: 'currency', total: true },
  },
  detail: ['order_no', 'date', 'student', 'branch', 'status', 'currency', 'total', 'paid', 'outstanding'],
  groupings: {
    branch: ['branch', 'currency', 'orders', 'total', 'paid', 'outstanding'],
    status: ['status', 'currency', 'orders', 'total', 'paid', 'outstanding'],
    month: ['month', 'currency', 'orders', 'total', 'paid', 'outstanding'],
    currency: ['currency', 'orders', 'total', 'paid', 'outstanding'],
  },
  defaultSort: '-date',
  sortable: ['date', 'order_no', 'total', 'outstanding'],
  order: 10,
});

/** Receipts: by method and approval status. */
export const receiptsReport = defineReport({
  name: 'receipt',
  group: 'orders',
  api: '/reports/orders/receipt',
  route: '/reports/orders/receipt',
  criteria: {
    date: { type: 'dateRange', default: 'this_month' },
    branch_id: { type: 'lookup', resource: 'branch' },
    method: { type: 'option', key: 'payment_method' },
    status: { type: 'values', values: RECEIPT_STATUSES, labels: 'resources.receipt.states' },
    currency: { type: 'option', key: 'currency' },
  },
  columns: {
    receipt_no: { type: 'text', link: 'url' },
    date: { type: 'date' },
    order_no: { type: 'text' },
    student: { type: 'text' },
    branch: { type: 'text' },
    method: { type: 'text' },
    status: { type: 'text' },
    month: { type: 'text' },
    currency: { type: 'currency' },
    receipts: { type: 'integer', total: true },
    amount: { type: 'money', currency: 'currency', total: true },
  },
  detail: ['receipt_no', 'date', 'order_no', 'student', 'branch', 'method', 'status', 'currency', 'amount'],
  groupings: {
    method: ['method', 'currency', 'receipts', 'amount'],
    status: ['status', 'currency', 'receipts', 'amount'],
    branch: ['branch', 'currency', 'receipts', 'amount'],
    month: ['month', 'currency', 'receipts', 'amount'],
  },
  defaultSort: '-date',
  sortable: ['date', 'receipt_no', 'amount'],
  order: 40,
});

/** Refunds: by refund terms and status. */
export const refundsReport = defineReport({
  name: 'refund',
  group: 'orders',
  api: '/reports/orders/refund',
  route: '/reports/orders/refund',
  criteria: {
    date: { type: 'dateRange', default: 'this_month' },
    branch_id: { type: 'lookup', resource: 'branch' },
    refund_term_id: { type: 'lookup', resource: 'refund_terms' },
    status: { type: 'values', values: REFUND_STATUSES, labels: 'resources.refund.states' },
    currency: { type: 'option', key: 'currency' },
  },
  columns: {
    refund_no: { type: 'text', link: 'url' },
    date: { type: 'date' },
    order_no: { type: 'text' },
    student: { type: 'text' },
    branch: { type: 'text' },
    terms: { type: 'text' },
    status: { type: 'text' },
    month: { type: 'text' },
    currency: { type: 'currency' },
    refunds: { type: 'integer', total: true },
    amount: { type: 'money', currency: 'currency', total: true },
  },
  detail: ['refund_no', 'date', 'order_no', 'student', 'branch', 'terms', 'status', 'currency', 'amount'],
  groupings: {
    terms: ['terms', 'currency', 'refunds', 'amount'],
    status: ['status', 'currency', 'refunds', 'amount'],
    branch: ['branch', 'currency', 'refunds', 'amount'],
    month: ['month', 'currency', 'refunds', 'amount'],
  },
  defaultSort: '-date',
  sortable: ['date', 'refund_no', 'amount'],
  order: 50,
});

/**
 * Invoice lines: by service, school and admission time (a line's school and intake are its quotation item's, or its
 * special event's school), of the invoices dated in the range.
 */
export const orderItemsReport = defineReport({
  name: 'order_items',
  group: 'orders',
  api: '/reports/orders/order-items',
  route: '/reports/orders/order-items',
  criteria: {
    date: { type: 'dateRange', default: 'this_month' },
    branch_id: { type: 'lookup', resource: 'branch' },
    product_id: { type: 'lookup', resource: 'product' },
    school_id: { type: 'lookup', resource: 'school' },
    admission_id: {
      type: 'lookup',
      resource: 'school_admission',
      narrowedBy: { criterion: 'school_id', filter: 'school_id' },
    },
    currency: { type: 'option', key: 'currency' },
  },
  columns: {
    order_no: { type: 'text', link: 'url' },
    date: { type: 'date' },
    student: { type: 'text' },
    branch: { type: 'text' },
    description: { type: 'text' },
    service: { type: 'text' },
    school: { type: 'text' },
    intake: { type: 'text' },
    currency: { type: 'currency' },
    quantity: { type: 'integer', total: true },
    lines: { type: 'integer', total: true },
    amount: { type: 'money', currency: 'currency', total: true },
  },
  detail: [
    'order_no',
    'date',
    'student',
    'branch',
    'description',
    'service',
    'school',
    'intake',
    'currency',
    'quantity',
    'amount',
  ],
  groupings: {
    service: ['service', 'currency', 'lines', 'quantity', 'amount'],
    school: ['school', 'currency', 'lines', 'quantity', 'amount'],
    intake: ['intake', 'currency', 'lines', 'quantity', 'amount'],
  },
  defaultSort: '-date',
  sortable: ['date', 'order_no'],
  order: 20,
});

/**
 * Invoice analysis: the lines of the invoices (not void) dated in the range, per month and branch, per month and
 * service category or per month alone — how many invoices, how many lines and their amount, per currency.
 */
export const orderAnalysisReport = defineReport({
  name: 'order_analysis',
  group: 'orders',
  api: '/reports/orders/order-analysis',
  route: '/reports/orders/order-analysis',
  criteria: {
    date: { type: 'dateRange', default: 'this_year' },
    branch_id: { type: 'lookup', resource: 'branch' },
    category_id: { type: 'lookup', resource: 'product_category' },
    currency: { type: 'option', key: 'currency' },
  },
  columns: {
    month: { type: 'text' },
    branch: { type: 'text' },
    category: { type: 'text' },
    currency: { type: 'currency' },
    orders: { type: 'integer' },
    lines: { type: 'integer', total: true },
    amount: { type: 'money', currency: 'currency', total: true },
  },
  groupings: {
    branch: ['month', 'branch', 'currency', 'orders', 'lines', 'amount'],
    category: ['month', 'category', 'currency', 'orders', 'lines', 'amount'],
    month: ['month', 'currency', 'orders', 'lines', 'amount'],
  },
  order: 30,
});

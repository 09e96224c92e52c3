import { declareResource, type FieldDeclaration } from './declaration';

/**
 * Receipts, refunds and prepaid deposits (issue 28, domain.md "Sales documents" and `student_prepaids`, decision
 * 0020). Money is integer minor units in the invoice's currency (a deposit's own). Receipts and refunds are never
 * deleted (`undeletable`): a receipt not approved is cancelled, an approved one unapproved first.
 */

/** A receipt's status: recorded `not_approved`, then `approved` by a second person; `cancelled` while not approved. */
export const RECEIPT_STATUSES = ['not_approved', 'approved', 'cancelled'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/** A refund's status: `pending`, then `approved` by a second person; `cancelled` while pending. */
export const REFUND_STATUSES = ['pending', 'approved', 'cancelled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A prepaid entry: a deposit adds to the balance, a refund (prepaid money paid back) takes from it. */
export const PREPAID_KINDS = ['deposit', 'refund'] as const;

/** The payment method drawing on the student's prepaid balance in the invoice's currency. */
export const PREPAID_METHOD = 'prepaid';

/** What a receipt and a refund both show: the invoice's branch, student and currency, copied by the server. */
const FROM_ORDER = {
  // not a column (the number carries the branch's code: REC-MK-…), a filter and an export column: the list keeps
  // its amount and status in view at 1366 px
  branch_id: {
    type: 'lookup',
    resource: 'branch',
    readOnly: true,
    filterable: true,
    list: false,
    export: true,
  },
  order_id: { type: 'lookup', resource: 'order', required: true, filterable: true },
  student_id: { type: 'lookup', resource: 'student', readOnly: true, filterable: true },
  date: { type: 'date', required: true, sortable: true, filterable: true },
} as const satisfies Record<string, FieldDeclaration>;

const APPROVAL = {
  approved_by: { type: 'lookup', resource: 'user', readOnly: true, list: false, export: true },
  approved_at: { type: 'datetime', readOnly: true, list: false, export: true },
  remark: { type: 'text', max: 2000, multiline: true },
} as const satisfies Record<string, FieldDeclaration>;

/**
 * Receipts (spec `/orders/receipt`): against an invoice (its branch, student and currency), numbered per branch and
 * year; the amount within the invoice's room (Σ receipts not cancelled ≤ its total: the spec's "Total receipt
 * amount must be equal to or below the total amount."), checked under the invoice's row lock. Approved by a second
 * person (`receipts.approve`, never the one who recorded it): approving or unapproving moves the invoice's paid,
 * outstanding and status in the same transaction. Method `prepaid` draws on the student's prepaid balance.
 */
export const receipts = declareResource({
  name: 'receipt',
  path: '/receipts',
  table: 'receipts',
  module: 'receipts',
  fields: {
    receipt_no: { type: 'text', max: 40, readOnly: true, searchable: 'identifier', sortable: true },
    ...FROM_ORDER,
    method: { type: 'option', key: 'payment_method', required: true, filterable: true },
    amount: { type: 'money', currency: 'currency', min: 1, required: true, sortable: true },
    currency: { type: 'currency', readOnly: true, filterable: true },
    reference_no: { type: 'text', max: 100, searchable: 'identifier', list: false, export: true },
    status: { type: 'text', max: 20, values: RECEIPT_STATUSES, readOnly: true },
    ...APPROVAL,
  },
  display: { en: ['receipt_no'], zh_HK: ['receipt_no'] },
  defaultSort: '-date',
  branchColumn: 'branch_id',
  undeletable: true,
  states: {
    column: 'status',
    values: RECEIPT_STATUSES,
    initial: 'not_approved',
    actions: {
      approve: {
        from: ['not_approved'],
        to: 'approved',
        permission: 'receipts.approve',
        refused: 'receiptCannotApprove',
      },
      unapprove: {
        from: ['approved'],
        to: 'not_approved',
        permission: 'receipts.approve',
        refused: 'receiptCannotUnapprove',
        confirm: true,
      },
      cancel: {
        from: ['not_approved'],
        to: 'cancelled',
        permission: 'receipts.update',
        refused: 'receiptCannotCancel',
        confirm: true,
      },
    },
  },
  references: [{ table: 'refunds', column: 'receipt_id', key: 'refunds', whenTableExists: true }],
  printable: {},
  page: { route: '/orders/receipt', menu: { group: 'orders', order: 20 } },
});

/**
 * Refunds (spec `/orders/refund`, `/orders/refund/create`, `/orders/refund/{id}`): against an invoice (optionally
 * one of its approved receipts), under refund terms (printed on its PDF), numbered per branch and year; the amount
 * within what was paid and not yet refunded (Σ refunds not cancelled ≤ paid), under the invoice's row lock.
 * Approved by a second person (`refunds.approve`): approval moves the invoice's refunded and outstanding.
 */
export const refunds = declareResource({
  name: 'refund',
  path: '/refunds',
  table: 'refunds',
  module: 'refunds',
  fields: {
    refund_no: { type: 'text', max: 40, readOnly: true, searchable: 'identifier', sortable: true },
    ...FROM_ORDER,
    // one of the invoice's receipts (the server takes an approved one of that invoice only): asked once the
    // invoice is chosen, of that invoice
    receipt_id: {
      type: 'lookup',
      resource: 'receipt',
      list: false,
      export: true,
      narrowedBy: { field: 'order_id', filter: 'order_id' },
    },
    refund_term_id: { type: 'lookup', resource: 'refund_terms', required: true, list: false, export: true },
    method: { type: 'option', key: 'payment_method', filterable: true },
    amount: { type: 'money', currency: 'currency', min: 1, required: true, sortable: true },
    currency: { type: 'currency', readOnly: true, filterable: true },
    reference_no: { type: 'text', max: 100, searchable: 'identifier', list: false, export: true },
    reason: { type: 'text', max: 500, list: false, export: true },
    status: { type: 'text', max: 20, values: REFUND_STATUSES, readOnly: true },
    ...APPROVAL,
  },
  display: { en: ['refund_no'], zh_HK: ['refund_no'] },
  defaultSort: '-date',
  branchColumn: 'branch_id',
  undeletable: true,
  states: {
    column: 'status',
    values: REFUND_STATUSES,
    initial: 'pending',
    actions: {
      approve: {
        from: ['pending'],
        to: 'approved',
        permission: 'refunds.approve',
        refused: 'refundCannotApprove',
      },
      cancel: {
        from: ['pending'],
        to: 'cancelled',
        permission: 'refunds.update',
        refused: 'refundCannotCancel',
        confirm: true,
      },
    },
  },
  printable: {},
  page: { route: '/orders/refund', menu: { group: 'orders', order: 30 } },
});

/**
 * A student's prepaid entries (the student's `prepaid` tab, `/api/students/{id}/prepaids`): money paid in advance
 * (`deposit`), or paid back to the student (`refund`, never more than the balance), in its own currency; the balance
 * per currency (deposits − receipts drawn on it − refunds) is the tab's data. Never deleted: the balance may already
 * be spent.
 */
export const studentPrepaids = declareResource({
  name: 'student_prepaid',
  path: '/prepaids',
  table: 'student_prepaids',
  module: 'receipts',
  fields: {
    student_id: { type: 'lookup', resource: 'student', required: true, list: false, export: false },
    kind: { type: 'text', max: 20, values: PREPAID_KINDS, default: 'deposit', filterable: true },
    date: { type: 'date', required: true, sortable: true, filterable: true },
    amount: { type: 'money', currency: 'currency', min: 1, required: true, sortable: true },
    currency: { type: 'currency', required: true, filterable: true },
    method: { type: 'option', key: 'payment_method', required: true },
    reference_no: { type: 'text', max: 100, searchable: 'identifier', list: false, export: true },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  display: { en: ['date', 'currency'], zh_HK: ['date', 'currency'] },
  defaultSort: '-date',
  undeletable: true,
  parent: { resource: 'student', column: 'student_id', segment: 'prepaids' },
});

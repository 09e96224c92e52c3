import { LOCALES } from '../features';
import { MAX_RATE, MONEY_LIMITS } from '../money';
import { declareResource, type CollectionDeclaration, type FieldDeclaration } from './declaration';

/**
 * The sales documents (domain.md "Sales documents"; issue 27, decision 0018): quotations and orders (invoices),
 * each saved whole with its lines. Money is integer minor units (×100 for every currency) in the document's one
 * currency; rates are basis points. The server computes each line's `net_amount` and the document's `subtotal`,
 * `discount_total` and `total` with shared/money.ts (`documentTotals`) in the save's transaction; the client's
 * preview calls the same function.
 */

/** A quotation's status: draft → sent → accepted / rejected; `expired` is shown (never stored) past `valid_until`
 * (Hong Kong dates) while draft or sent; `converted` once it became an order. */
export const QUOTATION_STATUSES = ['draft', 'sent', 'accepted', 'rejected', 'expired', 'converted'] as const;
export type QuotationStatus = (typeof QUOTATION_STATUSES)[number];

/** The stored statuses a quotation is `expired` in once its `valid_until` has passed. */
export const EXPIRING_QUOTATION_STATUSES = ['draft', 'sent'] as const;

/**
 * An order's status: derived from its amounts (`issued` with nothing paid, `partially_paid`, `paid` with nothing
 * outstanding) unless `void`; unvoid restores the status it had.
 */
export const ORDER_STATUSES = ['issued', 'partially_paid', 'paid', 'void'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The statuses an order can be voided from (every one but void). */
export const VOIDABLE_ORDER_STATUSES = ['issued', 'partially_paid', 'paid'] as const;

/** What a line points at: at most one of these (the rules refuse two: `lineOneSource`). */
export const LINE_SOURCES = ['product_id', 'quotation_item_id', 'special_event_id'] as const;

/**
 * A line of a quotation or an order (one shape for both, issue 27): a service, a quotation item or a special event
 * (at most one; its currency must be the document's), a description (prefilled in the document's language), a
 * quantity, a unit, a unit price in minor units, a discount rate in basis points (entered as a percentage with two
 * decimals) and the net amount the server computes.
 */
const LINE_FIELDS = {
  product_id: { type: 'lookup', resource: 'product' },
  quotation_item_id: { type: 'lookup', resource: 'quotation_item' },
  special_event_id: { type: 'lookup', resource: 'special_event' },
  description: { type: 'text', max: 1000, required: true },
  quantity: { type: 'integer', min: 1, max: MONEY_LIMITS.maxQuantity, required: true },
  unit: { type: 'option', key: 'unit' },
  unit_price: { type: 'money', currency: 'currency', min: 0, required: true },
  discount_rate: { type: 'rate', min: 0, max: MAX_RATE, default: 0 },
  net_amount: { type: 'money', currency: 'currency', readOnly: true },
} as const satisfies Record<string, FieldDeclaration>;

function linesOf(table: string, column: string): CollectionDeclaration {
  return { table, column, orderColumn: 'sort_order', max: MONEY_LIMITS.maxLines, fields: LINE_FIELDS };
}

/** The fields both documents have, in the order the forms show them. */
const PARTY_FIELDS = {
  branch_id: { type: 'lookup', resource: 'branch', filterable: true, help: true },
  company_id: { type: 'lookup', resource: 'company', list: false, export: true },
  student_id: { type: 'lookup', resource: 'student', required: true, filterable: true },
  date: { type: 'date', required: true, sortable: true, filterable: true },
} as const satisfies Record<string, FieldDeclaration>;

const MONEY_FIELDS = {
  currency: { type: 'currency', required: true, filterable: true },
  /** the language the document prints in (labels, line descriptions): the student's unless chosen */
  language: { type: 'text', max: 10, values: LOCALES, list: false, help: true },
  order_term_id: { type: 'lookup', resource: 'order_terms', list: false, export: true },
  subtotal: { type: 'money', currency: 'currency', readOnly: true, list: false, export: true },
  discount_total: { type: 'money', currency: 'currency', readOnly: true, list: false, export: true },
  total: { type: 'money', currency: 'currency', readOnly: true, sortable: true },
} as const satisfies Record<string, FieldDeclaration>;

/**
 * Quotations (spec `/quotations`, `/quotations/basic/{id}`, `/quotations/contract/{id}`): numbered per branch and
 * year (numbering settings), for one student, in one currency, with its lines. The contract tab's fields (number,
 * date, terms — copied from the chosen order terms, editable — signatory, signing date, the signed copy as a file
 * uploaded to `POST /api/quotations/{id}/signed`) are shown on that tab (`tab: 'contract'`). An accepted
 * quotation converts into an order (`POST /api/quotations/{id}/convert`, `orders.create`) with the same lines,
 * once: it turns `converted` and names its order.
 */
export const quotations = declareResource({
  name: 'quotation',
  path: '/quotations',
  table: 'quotations',
  module: 'quotations',
  fields: {
    quotation_no: { type: 'text', max: 40, readOnly: true, searchable: 'identifier', sortable: true },
    ...PARTY_FIELDS,
    valid_until: { type: 'date', sortable: true },
    ...MONEY_FIELDS,
    status: { type: 'text', max: 20, values: QUOTATION_STATUSES, readOnly: true },
    order_id: { type: 'lookup', resource: 'order', readOnly: true, list: false, export: true },
    remark: { type: 'text', max: 2000, multiline: true },
    contract_no: { type: 'text', max: 40, list: false, tab: 'contract' },
    contract_date: { type: 'date', list: false, tab: 'contract' },
    contract_terms: { type: 'richtext', max: 200_000, tab: 'contract', help: true },
    signatory_name: { type: 'text', max: 200, list: false, tab: 'contract' },
    signed_at: { type: 'date', list: false, tab: 'contract' },
    signed_file_id: {
      type: 'file',
      accept: 'any',
      owner: 'quotation',
      list: false,
      export: false,
      tab: 'contract',
    },
  },
  display: { en: ['quotation_no'], zh_HK: ['quotation_no'] },
  defaultSort: '-date',
  branchColumn: 'branch_id',
  collections: { lines: linesOf('quotation_lines', 'quotation_id') },
  states: {
    column: 'status',
    values: QUOTATION_STATUSES,
    initial: 'draft',
    actions: {
      send: { from: ['draft'], to: 'sent', refused: 'quotationCannotSend' },
      accept: { from: ['sent'], to: 'accepted', refused: 'quotationCannotAccept' },
      reject: { from: ['sent'], to: 'rejected', refused: 'quotationCannotReject' },
    },
  },
  listedUnder: { resource: 'student', column: 'student_id', segment: 'quotations', tab: 'quotation' },
  references: [{ table: 'orders', column: 'quotation_id', key: 'orders' }],
  tabs: ['basic', 'contract'],
  printable: { tabs: ['basic', 'contract'] },
  page: { route: '/quotations', menu: { group: 'quotations', order: 10 } },
});

/**
 * Orders, the invoices (spec `/orders/order`, `/orders/order/{id}`): numbered per branch and year, gap-free under
 * concurrency; a due date; `paid_amount`, `refunded_amount` and `outstanding` kept by receipts and refunds (later);
 * a status derived from them, or `void`. Its lines are editable while no receipt exists, and the total never goes
 * below the receipts' sum. Void (`orders.void`, a reason, refused while approved receipts are not refunded) keeps
 * the number and lines; unvoid restores the status it had; both are audited. `POST /api/orders/{id}/email` sends
 * its PDF to the student.
 */
export const orders = declareResource({
  name: 'order',
  path: '/orders',
  table: 'orders',
  module: 'orders',
  // an issued invoice is voided, never deleted: its number stays taken and the sequence has no gap (domain.md)
  undeletable: true,
  fields: {
    order_no: { type: 'text', max: 40, readOnly: true, searchable: 'identifier', sortable: true },
    ...PARTY_FIELDS,
    due_date: { type: 'date', sortable: true },
    quotation_id: { type: 'lookup', resource: 'quotation', readOnly: true, list: false, export: true },
    ...MONEY_FIELDS,
    paid_amount: { type: 'money', currency: 'currency', readOnly: true },
    refunded_amount: { type: 'money', currency: 'currency', readOnly: true, list: false, export: true },
    outstanding: { type: 'money', currency: 'currency', readOnly: true, sortable: true },
    status: { type: 'text', max: 20, values: ORDER_STATUSES, readOnly: true },
    voided_at: { type: 'datetime', readOnly: true, list: false, export: true },
    voided_by: { type: 'lookup', resource: 'user', readOnly: true, list: false, export: false },
    void_reason: { type: 'text', max: 500, readOnly: true, list: false, export: true },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  display: { en: ['order_no'], zh_HK: ['order_no'] },
  defaultSort: '-date',
  branchColumn: 'branch_id',
  collections: { lines: linesOf('order_items', 'order_id') },
  states: {
    column: 'status',
    values: ORDER_STATUSES,
    initial: 'issued',
    actions: {
      void: {
        from: VOIDABLE_ORDER_STATUSES,
        to: 'void',
        permission: 'orders.void',
        refused: 'orderAlreadyVoid',
        input: { void_reason: { type: 'text', max: 500, required: true } },
        remember: 'status_before_void',
        confirm: true,
      },
      unvoid: {
        from: ['void'],
        to: 'issued',
        permission: 'orders.void',
        refused: 'orderNotVoid',
        restore: 'status_before_void',
        confirm: true,
      },
    },
  },
  listedUnder: { resource: 'student', column: 'student_id', segment: 'orders', tab: 'order' },
  references: [
    { table: 'receipts', column: 'order_id', key: 'receipts', whenTableExists: true },
    { table: 'refunds', column: 'order_id', key: 'refunds', whenTableExists: true },
  ],
  printable: {},
  page: { route: '/orders/order', menu: { group: 'orders', order: 10 } },
});

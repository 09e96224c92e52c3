import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { lockForUpdate } from '../../resources/unit-of-work';

/** What a line may point at, and the table holding its price's currency. */
export const SOURCE_TABLES = {
  product_id: 'products',
  quotation_item_id: 'quotation_items',
  special_event_id: 'special_events',
} as const;

/** The statuses an invoice may be overdue in: issued or partly paid — never paid, never void. */
const OVERDUE_STATUSES = ['issued', 'partially_paid'];

/**
 * The one rule of an overdue invoice: due before Hong Kong's `today`, with an amount outstanding, neither paid nor
 * void — on the invoices read as `alias`. The overdue-invoices reminder, the dashboard's overdue invoices and the
 * invoices report's `due=overdue` narrow by it.
 */
export function whereOverdue(qb: Knex.QueryBuilder, alias: string, today: string): Knex.QueryBuilder {
  return qb
    .where(`${alias}.due_date`, '<', today)
    .where(`${alias}.outstanding`, '>', 0)
    .whereIn(`${alias}.status`, OVERDUE_STATUSES);
}

/** An order's receipts and refunds: sums in minor units. */
export interface ReceiptSums {
  /** receipts of both statuses (the order's total may not go below it) */
  count: number;
  recorded: number;
  /** approved receipts less approved refunds (void is refused while it is above 0) */
  approvedUnrefunded: number;
}

async function sum(
  db: Trx,
  table: string,
  where: (qb: Knex.QueryBuilder) => Knex.QueryBuilder,
): Promise<{ n: number; total: number }> {
  const row = (await where(db(table)).count({ n: '*' }).sum({ total: 'amount' }).first()) as
    { n: unknown; total: unknown } | undefined;
  return { n: Number(row?.n ?? 0), total: Number(row?.total ?? 0) };
}

/** The reads of the sales rules (quotations, orders and their lines). */
export const salesRepository = {
  /** The currency of each record a line names, by table and id (missing ids are left out). */
  async sourceCurrencies(
    db: Trx,
    table: string,
    ids: readonly number[],
  ): Promise<Map<number, string | null>> {
    const out = new Map<number, string | null>();
    if (!ids.length) return out;
    const rows: { id: number; currency: string | null }[] = await db(table)
      .whereIn('id', [...new Set(ids)])
      .select('id', 'currency');
    for (const row of rows) out.set(Number(row.id), row.currency);
    return out;
  },

  student(db: Trx, id: number): Promise<Row | undefined> {
    return db('students').where({ id }).first();
  },

  /** The default order terms (exactly one is the default, when any exist and are active). */
  defaultOrderTerms(db: Trx): Promise<Row | undefined> {
    return db('order_terms').where({ is_default: true, is_active: true }).first('id');
  },

  orderTerms(db: Trx, id: number): Promise<Row | undefined> {
    return db('order_terms').where({ id }).first();
  },

  /** A document's stored lines, in order (the lines' own fields). */
  lines(db: Trx, table: string, column: string, ownerId: number): Promise<Row[]> {
    return db(table).where(column, ownerId).orderBy('sort_order').orderBy('id');
  },

  /** The quotation's row, locked for the rest of the transaction (convert: one at a time). */
  async lockQuotation(db: Trx, id: number): Promise<Row | undefined> {
    return lockForUpdate(db, db('quotations').where({ id }).select('*')).first();
  },

  /** The order a quotation was converted into. */
  orderOf(db: Trx, quotationId: number): Promise<Row | undefined> {
    return db('orders').where({ quotation_id: quotationId }).first('id', 'order_no');
  },

  async markConverted(db: Trx, id: number, orderId: number, userId: number | null, now: string) {
    await db('quotations')
      .where({ id })
      .update({ status: 'converted', order_id: orderId, updated_at: now, updated_by: userId });
  },

  /**
   * The order's receipts (not cancelled) and approved refunds (decision 0020). Read under the order's row lock:
   * every receipt and refund write holds it.
   */
  async receiptSums(db: Trx, orderId: number): Promise<ReceiptSums> {
    const all = await sum(db, 'receipts', (qb) =>
      qb.where({ order_id: orderId }).whereNot('status', 'cancelled'),
    );
    const approved = await sum(db, 'receipts', (qb) => qb.where({ order_id: orderId, status: 'approved' }));
    const refunded = await sum(db, 'refunds', (qb) => qb.where({ order_id: orderId, status: 'approved' }));
    return {
      count: all.n,
      recorded: all.total,
      approvedUnrefunded: approved.total - refunded.total,
    };
  },

  /** A student's orders not void, outstanding summed per currency (the student's invoice tab). */
  async outstandingByCurrency(
    db: Trx,
    studentId: number,
  ): Promise<{ currency: string; total: number; paid: number; outstanding: number; count: number }[]> {
    const rows: Row[] = await db('orders')
      .where({ student_id: studentId })
      .whereNot('status', 'void')
      .groupBy('currency')
      .orderBy('currency')
      .select('currency')
      .count({ count: '*' })
      .sum({ total: 'total', paid: 'paid_amount', outstanding: 'outstanding' });
    return rows.map((r) => ({
      currency: String(r.currency),
      count: Number(r.count),
      total: Number(r.total ?? 0),
      paid: Number(r.paid ?? 0),
      outstanding: Number(r.outstanding ?? 0),
    }));
  },

  company(db: Trx, id: number | null): Promise<Row | undefined> {
    return id ? db('companies').where({ id }).first() : db('companies').orderBy('id').first();
  },

  branch(db: Trx, id: number): Promise<Row | undefined> {
    return db('branches').where({ id }).first();
  },

  file(db: Trx, id: number): Promise<Row | undefined> {
    return db('files').where({ id }).first();
  },
};

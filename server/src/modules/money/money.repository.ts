import type { Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { lockForUpdate } from '../../resources/unit-of-work';
import { derivedStatus } from '../sales/orders.resource';

/** What a money move changes on its invoice, in minor units (added to the locked row's values). */
export interface OrderMoneyDelta {
  receipted?: number;
  paid?: number;
  refund?: number;
  refunded?: number;
}

/**
 * The reads and writes of the receipts, refunds and prepaid rules (decision 0020). Every rule reads the row it
 * locked (`FOR UPDATE` on MariaDB reads the latest committed values; SQLite has one writer at a time): the
 * invoice for receipts and refunds, the student for a prepaid balance. Locks are taken in one order everywhere:
 * the receipt or refund moved (the machinery's), then its invoice, then its student.
 */
export const moneyRepository = {
  /** The invoice's row, locked for the rest of the transaction. */
  lockOrder(db: Trx, id: number): Promise<Row | undefined> {
    return lockForUpdate(db, db('orders').where({ id }).select('*')).first();
  },

  /**
   * Adds `delta` to the locked invoice's amounts and derives `outstanding` (= total − paid + refunded) and its
   * status (unless void) in the same update.
   */
  async moveOrderMoney(db: Trx, order: Row, delta: OrderMoneyDelta, userId: number | null, now: string) {
    const receipted = Number(order.receipted_amount) + (delta.receipted ?? 0);
    const paid = Number(order.paid_amount) + (delta.paid ?? 0);
    const refund = Number(order.refund_amount) + (delta.refund ?? 0);
    const refunded = Number(order.refunded_amount) + (delta.refunded ?? 0);
    const total = Number(order.total);
    await db('orders')
      .where({ id: order.id })
      .update({
        receipted_amount: receipted,
        paid_amount: paid,
        refund_amount: refund,
        refunded_amount: refunded,
        outstanding: total - paid + refunded,
        status: order.status === 'void' ? 'void' : derivedStatus(total, paid, refunded),
        updated_at: now,
        updated_by: userId,
      });
  },

  /** The student's row, locked: every write of its prepaid balances holds it. */
  async lockStudent(db: Trx, id: number): Promise<Row | undefined> {
    return lockForUpdate(db, db('students').where({ id }).select('id', 'branch_id')).first();
  },

  /** The student's prepaid balance in `currency` (0 without a row); call with the student locked. */
  async balance(db: Trx, studentId: number, currency: string): Promise<number> {
    const row = await lockForUpdate(
      db,
      db('student_prepaid_balances').where({ student_id: studentId, currency }).select('balance'),
    ).first();
    return Number(row?.balance ?? 0);
  },

  /** Adds `delta` to the student's balance in `currency` (the student locked; the caller keeps it ≥ 0). */
  async addToBalance(db: Trx, studentId: number, currency: string, delta: number): Promise<void> {
    const updated = await db('student_prepaid_balances')
      .where({ student_id: studentId, currency })
      .update({ balance: db.raw('balance + ?', [delta]) });
    if (!updated)
      await db('student_prepaid_balances').insert({ student_id: studentId, currency, balance: delta });
  },

  /** The student's balances, per currency (those ever used). */
  async balances(db: Trx, studentId: number): Promise<{ currency: string; balance: number }[]> {
    const rows: Row[] = await db('student_prepaid_balances')
      .where({ student_id: studentId })
      .orderBy('currency')
      .select('currency', 'balance');
    return rows.map((r) => ({ currency: String(r.currency), balance: Number(r.balance) }));
  },

  receipt(db: Trx, id: number): Promise<Row | undefined> {
    return db('receipts').where({ id }).first();
  },

  refundTerms(db: Trx, id: number): Promise<Row | undefined> {
    return db('refund_terms').where({ id }).first();
  },

  order(db: Trx, id: number): Promise<Row | undefined> {
    return db('orders').where({ id }).first();
  },
};

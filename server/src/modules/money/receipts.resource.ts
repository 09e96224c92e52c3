import { msg } from '../../../../shared/messages';
import { PREPAID_METHOD, receipts } from '../../../../shared/resources/money';
import type { Trx } from '../../db/knex';
import { userIdOf, type RequestContext } from '../../http/context';
import { toDbDateTime } from '../../lib/clock';
import { AppError } from '../../lib/app-error';
import type { Row } from '../../resources/resource';
import { declaredRules } from '../../resources/rows';
import { moneyText } from '../sales/sales-documents';
import { moneyRepository } from './money.repository';

/**
 * The invoice a new receipt or refund is written against, locked for the transaction: 404 outside the caller's
 * branch scope (as any record it cannot see), refused when it does not exist or is void (`orderVoidNoMoney`).
 */
export async function lockedOrderFor(db: Trx, orderId: unknown, ctx: RequestContext): Promise<Row> {
  const order = await moneyRepository.lockOrder(db, Number(orderId));
  if (!order) throw AppError.field('validation', 'order_id', 'recordMissing');
  if (ctx.branchScope && Number(order.branch_id) !== ctx.branchScope.branchId)
    throw new AppError('not_found');
  if (order.status === 'void') throw AppError.field('business_rule', 'order_id', 'orderVoidNoMoney');
  return order;
}

/** Whether a write changes a stored value (BIGINT and ids may read back as text on some drivers). */
export function changed(given: unknown, stored: unknown): boolean {
  if (given === null || given === undefined) return stored !== null && stored !== undefined;
  return stored === null || stored === undefined || String(given) !== String(stored);
}

/** The second person: nobody approves what they recorded themselves (separation of duties). */
export function notTheRecorder(row: Row, ctx: RequestContext): void {
  const user = userIdOf(ctx);
  if (user !== null && Number(row.created_by) === user)
    throw new AppError('insufficient_rights', 'receiptOwnApproval');
}

/** Draws `amount` from the student's prepaid balance in `currency` (the student locked), never below zero. */
export async function drawPrepaid(
  db: Trx,
  studentId: number,
  currency: string,
  amount: number,
): Promise<void> {
  await moneyRepository.lockStudent(db, studentId);
  const balance = await moneyRepository.balance(db, studentId, currency);
  if (balance < amount)
    throw AppError.field(
      'business_rule',
      'amount',
      msg('prepaidInsufficient', { currency, amount: moneyText(balance, currency) }),
    );
  await moneyRepository.addToBalance(db, studentId, currency, -amount);
}

/**
 * The rules of receipts beyond their declaration (shared/resources/money.ts): the invoice's branch, student and
 * currency copied onto the receipt, numbered per branch and year; under the invoice's row lock, Σ receipts not
 * cancelled ≤ its total (the spec's "Total receipt amount must be equal to or below the total amount.", 422
 * `business_rule` on `amount`), a void invoice takes none; method `prepaid` draws on the student's balance in the
 * invoice's currency under the student's lock, never below zero. Only a receipt not approved changes, and never its
 * invoice, amount or method. Approve / unapprove (`receipts.approve`, never the recorder) move the invoice's paid,
 * outstanding and status in the move's transaction; unapprove is refused while the invoice's refunds need what
 * it paid. Cancel gives the room (and a prepaid draw) back.
 */
/** A receipt's or a refund's state move begins here: its invoice locked for the move's transaction, the amount. */
export async function moneyMove(db: Trx, row: Row, ctx: RequestContext) {
  const order = await moneyRepository.lockOrder(db, Number(row.order_id));
  if (!order) throw new AppError('not_found');
  return { order, amount: Number(row.amount), now: toDbDateTime(), user: userIdOf(ctx) };
}

/** Approving a receipt (`paid`) or a refund (`refunded`): the invoice's sums moved, the approver recorded. */
export async function approveMoney(
  db: Trx,
  move: Awaited<ReturnType<typeof moneyMove>>,
  sum: 'paid' | 'refunded',
) {
  if (move.order.status === 'void') throw new AppError('conflict', 'orderVoidNoMoney');
  await moneyRepository.moveOrderMoney(db, move.order, { [sum]: move.amount }, move.user, move.now);
  return { set: { approved_by: move.user, approved_at: move.now } };
}

export const receiptRules = declaredRules(receipts, {
  numbering: { column: 'receipt_no', document: 'receipt', branchColumn: 'branch_id' },
  async beforeWrite(db, data, existing, ctx) {
    if (existing) {
      if (existing.status !== 'not_approved') throw new AppError('conflict', 'receiptApprovedLocked');
      for (const column of ['order_id', 'amount', 'method'] as const)
        if (column in data && changed(data[column], existing[column]))
          throw AppError.field('business_rule', column, 'receiptOrderLocked');
      return;
    }
    const order = await lockedOrderFor(db, data.order_id, ctx);
    const amount = Number(data.amount);
    if (amount > Number(order.total) - Number(order.receipted_amount))
      throw AppError.field('business_rule', 'amount', 'receiptsAboveTotal');
    const student = Number(order.student_id);
    const currency = String(order.currency);
    Object.assign(data, { branch_id: Number(order.branch_id), student_id: student, currency });
    if (data.method === PREPAID_METHOD) await drawPrepaid(db, student, currency, amount);
    await moneyRepository.moveOrderMoney(db, order, { receipted: amount }, userIdOf(ctx), toDbDateTime());
  },
  guards: {
    async approve(_db, row, ctx) {
      notTheRecorder(row, ctx);
    },
    async unapprove(_db, row, ctx) {
      notTheRecorder(row, ctx);
    },
  },
  async moveEffects(db, action, row, ctx) {
    const move = await moneyMove(db, row, ctx);
    const { order, amount, now, user } = move;
    if (action === 'approve') return approveMoney(db, move, 'paid');
    if (action === 'unapprove') {
      if (order.status === 'void') throw new AppError('conflict', 'orderVoidNoMoney');
      const refunds = Number(order.refund_amount);
      if (Number(order.paid_amount) - amount < refunds)
        throw new AppError(
          'business_rule',
          msg('receiptUnapproveRefunded', { amount: moneyText(refunds, order.currency) }),
        );
      await moneyRepository.moveOrderMoney(db, order, { paid: -amount }, user, now);
      return { set: { approved_by: null, approved_at: null } };
    }
    if (action === 'cancel') {
      await moneyRepository.moveOrderMoney(db, order, { receipted: -amount }, user, now);
      if (row.method === PREPAID_METHOD) {
        await moneyRepository.lockStudent(db, Number(row.student_id));
        await moneyRepository.addToBalance(db, Number(row.student_id), String(row.currency), amount);
      }
    }
  },
});

import { msg } from '../../../../shared/messages';
import { refunds } from '../../../../shared/resources/money';
import { userIdOf } from '../../http/context';
import { toDbDateTime } from '../../lib/clock';
import { AppError } from '../../lib/app-error';
import { declaredRules } from '../../resources/rows';
import { moneyText } from '../sales/sales-documents';
import { moneyRepository } from './money.repository';
import { approveMoney, changed, lockedOrderFor, moneyMove, notTheRecorder } from './receipts.resource';

/**
 * The rules of refunds beyond their declaration (shared/resources/money.ts): the invoice's branch, student and
 * currency copied, numbered per branch and year; under the invoice's row lock, Σ refunds not cancelled ≤ its paid
 * amount (`refundAbovePaid`, 422 on `amount`, naming what is left), a void invoice takes none; a named receipt is
 * an approved receipt of the invoice. Only a pending refund changes, never its invoice or amount. Approve
 * (`refunds.approve`, never the recorder) adds to the invoice's refunded and outstanding in the move's
 * transaction; cancel gives the room back.
 */
export const refundRules = declaredRules(refunds, {
  numbering: { column: 'refund_no', document: 'refund', branchColumn: 'branch_id' },
  async beforeWrite(db, data, existing, ctx) {
    if (existing) {
      if (existing.status !== 'pending') throw new AppError('conflict', 'refundLocked');
      for (const column of ['order_id', 'amount', 'receipt_id'] as const)
        if (column in data && changed(data[column], existing[column]))
          throw AppError.field('business_rule', column, 'refundLocked');
    } else {
      const order = await lockedOrderFor(db, data.order_id, ctx);
      const amount = Number(data.amount);
      const room = Number(order.paid_amount) - Number(order.refund_amount);
      if (amount > room)
        throw AppError.field(
          'business_rule',
          'amount',
          msg('refundAbovePaid', { amount: moneyText(Math.max(room, 0), order.currency) }),
        );
      if (data.receipt_id !== undefined && data.receipt_id !== null) {
        const receipt = await moneyRepository.receipt(db, Number(data.receipt_id));
        if (!receipt || Number(receipt.order_id) !== Number(order.id) || receipt.status !== 'approved')
          throw AppError.field('business_rule', 'receipt_id', 'refundReceiptMismatch');
      }
      data.branch_id = Number(order.branch_id);
      data.student_id = Number(order.student_id);
      data.currency = String(order.currency);
      await moneyRepository.moveOrderMoney(db, order, { refund: amount }, userIdOf(ctx), toDbDateTime());
    }
    if (data.refund_term_id !== undefined && data.refund_term_id !== null) {
      if (!(await moneyRepository.refundTerms(db, Number(data.refund_term_id))))
        throw AppError.field('validation', 'refund_term_id', 'recordMissing');
    }
  },
  guards: {
    async approve(_db, row, ctx) {
      notTheRecorder(row, ctx);
    },
  },
  async moveEffects(db, action, row, ctx) {
    const move = await moneyMove(db, row, ctx);
    if (action === 'approve') return approveMoney(db, move, 'refunded');
    if (action === 'cancel')
      await moneyRepository.moveOrderMoney(db, move.order, { refund: -move.amount }, move.user, move.now);
  },
});

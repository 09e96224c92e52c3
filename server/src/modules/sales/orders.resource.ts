import { msg } from '../../../../shared/messages';
import { orders, type OrderStatus } from '../../../../shared/resources/sales';
import { userIdOf } from '../../http/context';
import { toDbDateTime } from '../../lib/clock';
import { AppError } from '../../lib/app-error';
import { declaredRules } from '../../resources/rows';
import { documentFormDefaults, documentRules, merged, moneyText, ORDER_DUE_DAYS } from './sales-documents';
import { salesRepository } from './sales.repository';

/**
 * An order's status from its amounts (domain.md): `paid` once nothing is outstanding of a total above 0,
 * `partially_paid` once something is paid, else `issued`. A void order stays void.
 */
export function derivedStatus(total: number, paid: number, refunded: number): OrderStatus {
  const net = paid - refunded;
  if (net > 0 && net >= total) return 'paid';
  if (net > 0) return 'partially_paid';
  return 'issued';
}

/**
 * The rules of orders (invoices) beyond their declaration (shared/resources/sales.ts): numbered per branch and year,
 * gap-free under concurrency (the number is taken under the sequence's row lock in the create's transaction); the
 * lines and totals (`documentRules`); `outstanding` (= total − paid + refunded) and the status derived in the same
 * transaction. A void order is not changed (`locked`: `orderVoidLocked`; the screen opens it read-only saying so).
 * Once a receipt exists, the student and the currency stay (`orderCurrencyLocked`) and the total may not go below
 * the receipts' sum (the spec's "Total receipt amount must be equal to or below the total amount."; receipts not
 * cancelled, read under the order's row lock that every receipt write holds: decision 0020). Void (`orders.void`, a
 * reason) is refused while approved receipts are not refunded; it keeps the number and lines and records who and
 * when; unvoid restores the status void left (the declaration's
 * `remember` / `restore`) and clears them. An order is never deleted (`undeletable`): it is voided, so that its
 * number stays taken and the sequence has no gap.
 */
export const orderRules = declaredRules(orders, {
  numbering: { column: 'order_no', document: 'order', branchColumn: 'branch_id' },
  // what unvoid restores, and the sums the receipts' and refunds' rules keep under the order's lock (decision 0020)
  hidden: ['status_before_void', 'receipted_amount', 'refund_amount'],
  ownActions: {
    email: { from: ['issued', 'partially_paid', 'paid', 'void'], permission: 'orders.update' },
  },
  createForm: (db) => documentFormDefaults(db, 'due_date', ORDER_DUE_DAYS),
  locked: (row) => (row.status === 'void' ? 'orderVoidLocked' : null),
  async beforeWrite(db, data, existing, ctx) {
    const receipts = existing
      ? await salesRepository.receiptSums(db, Number(existing.id))
      : { count: 0, recorded: 0, approvedUnrefunded: 0 };
    if (
      receipts.count > 0 &&
      (('currency' in data && data.currency !== existing?.currency) ||
        ('student_id' in data && data.student_id !== existing?.student_id))
    )
      throw new AppError('conflict', 'orderCurrencyLocked');
    await documentRules(db, data, existing, ctx, { table: 'order_items', column: 'order_id' });
    const total = Number(merged(data, existing, 'total') ?? 0);
    if (receipts.count > 0 && total < receipts.recorded)
      throw AppError.field('business_rule', 'lines', 'receiptsAboveTotal');
    const paid = Number(existing?.paid_amount ?? 0);
    const refunded = Number(existing?.refunded_amount ?? 0);
    data.paid_amount = paid;
    data.refunded_amount = refunded;
    data.outstanding = total - paid + refunded;
    data.status = derivedStatus(total, paid, refunded);
  },
  guards: {
    async void(db, row) {
      const receipts = await salesRepository.receiptSums(db, Number(row.id));
      if (receipts.approvedUnrefunded > 0)
        throw new AppError(
          'conflict',
          msg('orderVoidReceipts', { amount: moneyText(receipts.approvedUnrefunded, row.currency) }),
        );
    },
  },
  async moveEffects(_db, action, _row, ctx) {
    if (action === 'void') return { set: { voided_at: toDbDateTime(), voided_by: userIdOf(ctx) } };
    if (action === 'unvoid') return { set: { voided_at: null, voided_by: null, void_reason: null } };
  },
});

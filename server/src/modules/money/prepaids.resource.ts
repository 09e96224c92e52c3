import { studentPrepaids } from '../../../../shared/resources/money';
import { AppError } from '../../lib/app-error';
import { declaredRules } from '../../resources/rows';
import { moneyRepository } from './money.repository';
import { changed, drawPrepaid } from './receipts.resource';

/**
 * The rules of a student's prepaid entries (shared/resources/money.ts): a deposit adds to the student's balance in
 * its currency under the student's row lock, in the entry's transaction; a refund of prepaid money takes from it,
 * never below zero (`prepaidInsufficient`); its kind, amount and currency never change afterwards
 * (`prepaidLocked`: the balance may already be drawn on), and it is never deleted.
 */
export const studentPrepaidRules = declaredRules(studentPrepaids, {
  async beforeWrite(db, data, existing) {
    if (existing) {
      for (const column of ['amount', 'currency', 'kind'] as const)
        if (column in data && changed(data[column], existing[column]))
          throw AppError.field('business_rule', column, 'prepaidLocked');
      return;
    }
    const student = Number(data.student_id);
    const currency = String(data.currency);
    const amount = Number(data.amount);
    if (data.kind === 'refund') await drawPrepaid(db, student, currency, amount);
    else {
      await moneyRepository.lockStudent(db, student);
      await moneyRepository.addToBalance(db, student, currency, amount);
    }
  },
});

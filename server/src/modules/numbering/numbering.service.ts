import {
  DEFAULT_FORMATS,
  FORMAT_SETTING,
  formatNumber,
  sequenceScope,
  type NumberedDocument,
} from '../../../../shared/schemas/numbering';
import type { Trx } from '../../db/knex';
import { AppError } from '../../lib/app-error';
import { businessDate } from './business-time';
import { numberingRepository, type SequenceKey } from './numbering.repository';

async function branchCodeOf(db: Trx, branchId: number | null): Promise<string> {
  if (!branchId) throw AppError.field('business_rule', 'branch_id', 'chooseBranchFirst');
  const code = await numberingRepository.branchCode(db, branchId);
  if (!code) throw AppError.field('validation', 'branch_id', 'branchMissing');
  return code;
}

/**
 * The sequence a format numbers from: per branch when the number shows the branch, restarting each year
 * when it shows the year. A format without the year never restarts (its numbers would repeat otherwise).
 */
function keyOf(document: NumberedDocument, format: string, branchId: number | null, date: Date): SequenceKey {
  const scope = sequenceScope(format);
  return {
    document,
    branch_id: scope.perBranch ? (branchId ?? 0) : 0,
    year: scope.perYear ? date.getUTCFullYear() : 0,
  };
}

/**
 * Document numbers (domain.md "number_sequences"): unique and gap-free under concurrency, because the
 * number is taken in the transaction that creates the document, under a row lock held until it commits. A
 * rolled-back document gives its number back.
 */
export const numberingService = {
  /** Takes the next number of `document` for `branchId`, inside the caller's transaction. */
  async next(trx: Trx, document: NumberedDocument, branchId: number | null): Promise<string> {
    const format = await numberingRepository.lockFormat(
      trx,
      FORMAT_SETTING[document],
      DEFAULT_FORMATS[document],
    );
    const date = businessDate();
    const branch = sequenceScope(format).perBranch ? await branchCodeOf(trx, branchId) : '';
    const key = keyOf(document, format, branchId, date);
    const sequence = await numberingRepository.findSequence(trx, key, true);
    let seq = 1;
    if (sequence) {
      seq = sequence.next_value;
      await numberingRepository.setNext(trx, sequence.id, seq + 1);
    } else {
      await numberingRepository.insertSequence(trx, key, 2);
    }
    return formatNumber(format, { branch, date, seq });
  },

  /** The number `next` would give now, without taking it; `format` previews a format not saved yet. */
  async preview(
    db: Trx,
    document: NumberedDocument,
    branchId: number | null,
    format?: string,
  ): Promise<{ document: NumberedDocument; format: string; number: string; next_value: number }> {
    const used =
      format ??
      (await numberingRepository.readFormat(db, FORMAT_SETTING[document])) ??
      DEFAULT_FORMATS[document];
    const date = businessDate();
    const branch = sequenceScope(used).perBranch ? await branchCodeOf(db, branchId) : '';
    const key = keyOf(document, used, branchId, date);
    const sequence = await numberingRepository.findSequence(db, key, false);
    const nextValue = sequence?.next_value ?? 1;
    return {
      document,
      format: used,
      number: formatNumber(used, { branch, date, seq: nextValue }),
      next_value: nextValue,
    };
  },
};

import { students } from '../../../../shared/resources/students';
import { AppError } from '../../lib/app-error';
import { apiDateTime, declaredRules, numberOrNull } from '../../resources/rows';
import { resourceRepository } from '../../resources/resource.repository';
import { businessDate } from '../numbering/business-time';

/** `YYYY-MM-DD` of the Hong Kong date `months` months from today. */
function monthsFromToday(months: number): string {
  const d = businessDate();
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/** How a passport or visa expiry date stands: expired, expiring within six months, or fine (null). */
export function expiryWarning(date: unknown, today: string, inSixMonths: string): 'expired' | 'expiring' | null {
  if (typeof date !== 'string' || !date) return null;
  if (date < today) return 'expired';
  if (date <= inSixMonths) return 'expiring';
  return null;
}

/**
 * The rules of students beyond their declaration (shared/resources/students.ts): the number generated per branch
 * and year from the numbering settings; a new student in the caller's branch unless another is chosen (a
 * branch-scoped caller's can only be its own); the consultant one of the branch's staff; the passport and visa
 * warnings against today's Hong Kong date; the portal password hash never leaves the server.
 */
export const studentRules = declaredRules(students, {
  numbering: { column: 'student_no', document: 'student', branchColumn: 'branch_id' },
  async beforeWrite(db, data, existing, ctx) {
    if (!existing && (data.branch_id === undefined || data.branch_id === null)) {
      const own = ctx.access?.branchId ?? null;
      if (own === null) throw AppError.field('validation', 'branch_id', 'required');
      data.branch_id = own;
    }
    if (existing && 'branch_id' in data && data.branch_id === null)
      throw AppError.field('validation', 'branch_id', 'required');
    const branchId = numberOrNull('branch_id' in data ? data.branch_id : existing?.branch_id);
    const consultant = numberOrNull(
      'consultant_user_id' in data ? data.consultant_user_id : existing?.consultant_user_id,
    );
    if (consultant !== null && ('consultant_user_id' in data || 'branch_id' in data)) {
      const [user] = await resourceRepository.findWhere(db, 'users', (qb) => qb.where('id', consultant), [
        'id',
        'branch_id',
      ]);
      if (!user || numberOrNull(user.branch_id) !== branchId)
        throw AppError.field('validation', 'consultant_user_id', 'consultantNotOfBranch');
    }
  },
  toResponse(row) {
    const today = monthsFromToday(0);
    const inSix = monthsFromToday(6);
    const { portal_password_hash: hash, ...shown } = row as typeof row & { portal_password_hash?: unknown };
    return {
      ...shown,
      portal_password_set: typeof hash === 'string' && hash.length > 0,
      portal_must_change_password: Boolean(row.portal_must_change_password),
      portal_invited_at: apiDateTime(row.portal_invited_at),
      info_submitted_at: apiDateTime(row.info_submitted_at),
      info_confirmed_at: apiDateTime(row.info_confirmed_at),
      passport_warning: expiryWarning(row.passport_expiry, today, inSix),
      visa_warning: expiryWarning(row.visa_expiry, today, inSix),
    };
  },
});

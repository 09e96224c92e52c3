import { students } from '../../../../shared/resources/students';
import type { Knex } from 'knex';
import type { ResourceDefinition } from '../../resources/resource';
import type { ResourceService } from '../../resources/resource.service';
import { childListFor } from '../../resources/tab-data';
import { declaredDefaults } from '../../../../shared/resources/derive';
import { AppError } from '../../lib/app-error';
import { logger } from '../../lib/logger';
import { apiDateTime, declaredRules, numberOrNull } from '../../resources/rows';
import { keptRowsByKey } from '../../resources/names-cache';
import { resourceRepository } from '../../resources/resource.repository';
import { businessDate } from '../numbering/business-time';
import { numberingService } from '../numbering/numbering.service';
import { activeOptions } from '../options/options.service';
import { portalAccessRepository } from './portal-access.repository';
import { moneyRepository } from '../money/money.repository';
import { salesRepository } from '../sales/sales.repository';
import { can } from '../../../../shared/permissions';

/** `YYYY-MM-DD` of the Hong Kong date `months` months from today. */
function monthsFromToday(months: number): string {
  const d = businessDate();
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/** How a passport or visa expiry date stands: expired, expiring within six months, or fine (null). */
export function expiryWarning(
  date: unknown,
  today: string,
  inSixMonths: string,
): 'expired' | 'expiring' | null {
  if (typeof date !== 'string' || !date) return null;
  if (date < today) return 'expired';
  if (date <= inSixMonths) return 'expiring';
  return null;
}

/** The option lists the student form chooses from. */
const STUDENT_OPTION_LISTS = [
  'student_status',
  'gender',
  'nationality',
  'korean_level',
  'topik_level',
  'visa_type',
] as const;

/** The rows a student owns alone, deleted with it: its family members and education history. */
const OWNED_TABLES = ['student_family_members', 'student_educations'] as const;

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/**
 * The rules of students beyond their declaration (shared/resources/students.ts): the number generated per branch
 * and year from the numbering settings; a new student in the caller's branch unless another is chosen (a
 * branch-scoped caller's can only be its own); the consultant one of the branch's staff; the passport and visa
 * warnings against today's Hong Kong date; the portal password hash never leaves the server. Duplicates of the
 * passport number and the emails are the declaration's `unique` (the machinery answers the spec's "This Data is
 * already exist." on the field); emails arrive lower-cased (zEmail) and passport numbers upper-cased, so a
 * different spelling of the same value is still a duplicate on either database.
 *
 * Portal access: turning it off, or changing the portal email, ends what the old access opened — the student's
 * portal sessions (off) and any invitation link still out (both). Deleting a student deletes its family members,
 * educations, portal links and sessions in the delete's transaction; what the declared references count
 * (applications, attachments, grade reports, later quotations and orders) refuses the delete first.
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
  async afterWrite(db, row, before) {
    if (!before) return;
    const switchedOff = bool(before.portal_enabled) && !bool(row.portal_enabled);
    const emailChanged = (before.portal_email ?? null) !== (row.portal_email ?? null);
    if (switchedOff) await portalAccessRepository.endSessions(db, row.id);
    if (switchedOff || emailChanged) await portalAccessRepository.deleteTokens(db, row.id);
  },
  async beforeDelete(db, row) {
    for (const table of OWNED_TABLES) await portalAccessRepository.deleteOwned(db, table, row.id);
    await portalAccessRepository.deleteTokens(db, row.id);
    await portalAccessRepository.endSessions(db, row.id);
  },
  /**
   * A new student's form: the declared defaults, the caller's own branch (and the number the next student of
   * that branch would get, a preview that takes nothing), the caller's language for the portal, the option lists'
   * active entries.
   */
  async createForm(db, ctx) {
    const branchId = ctx.access?.branchId ?? null;
    let nextNumber: string | null = null;
    if (branchId !== null) {
      try {
        nextNumber = (await numberingService.preview(db, 'student', branchId)).number;
      } catch (err) {
        // a preview only: a branch the numbering cannot use yet must not keep the form from opening
        logger.debug('no student number preview', { error: String(err) });
      }
    }
    return {
      defaults: {
        ...declaredDefaults(students),
        ...(branchId !== null ? { branch_id: branchId } : {}),
        language: ctx.language,
      },
      next_number: nextNumber,
      options: await activeOptions(db, STUDENT_OPTION_LISTS),
    };
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
  /** the category's colour beside its name (its tag), for staff who may not read the categories list */
  async expand(db, rows) {
    const ids = [...new Set(rows.map((r) => numberOrNull(r.category_id)).filter((id) => id !== null))];
    if (!ids.length) return rows;
    const categories = await keptRowsByKey(db, { table: 'student_categories', columns: ['color'] }, ids);
    const colours = new Map(categories.map((c) => [Number(c.id), c.color ?? null]));
    return rows.map((row) => ({
      ...row,
      category_color: colours.get(numberOrNull(row.category_id) ?? 0) ?? null,
    }));
  },
});

/**
 * A student's tabs beyond their child lists (declared.module.ts gives those): the admission tab answers the first
 * page of the student's applications the school has answered (`admissions`: offered, rejected, accepted,
 * enrolled; `ADMISSION_STATUSES`), as the applications' own route answers this caller.
 */
export function studentTabData(
  db: Knex,
  resources: ReadonlyMap<string, ResourceService> | undefined,
): ResourceDefinition['tabData'] {
  return {
    // the invoice tab: the student's orders (not void) summed per currency, never across currencies; the orders
    // themselves are listed at `/api/students/{id}/orders` (their declaration's `listedUnder`)
    order: async (trx, row, ctx) => {
      const holder = ctx.access
        ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions }
        : null;
      if (!can(holder, 'orders.view')) return {};
      return { outstanding_by_currency: await salesRepository.outstandingByCurrency(trx, Number(row.id)) };
    },
    // the prepaid tab: the student's balance per currency (deposits less receipts drawn on them); the deposits
    // themselves are listed at `/api/students/{id}/prepaids` (their declaration's `parent`)
    prepaid: async (trx, row, ctx) => {
      const holder = ctx.access
        ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions }
        : null;
      if (!can(holder, 'receipts.view')) return {};
      return { prepaid_balances: await moneyRepository.balances(trx, Number(row.id)) };
    },
    admission: async (_trx, row, ctx) => {
      const applications = resources?.get('student_application');
      if (!applications) throw new Error('The declared resource student_application is not registered');
      const list = await childListFor(applications, db, Number(row.id), ctx, { answered: true });
      return list ? { admissions: list } : {};
    },
  };
}

import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';
import type { Row } from '../../resources/resource';
import { whereOverdue } from '../sales/sales.repository';

/** What makes a reminder the one it is: sent once per kind, record, recipient and due date. */
export interface SentKey {
  kind: string;
  record_id: number;
  /** `user:12`, `student:5` */
  recipient: string;
  /** `YYYY-MM-DD` */
  due_date: string;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** An application with its intake, school and student, as every reminder about one names them. */
function applications(db: Trx): Knex.QueryBuilder {
  return db('student_applications as ap')
    .join('school_admissions as ad', 'ad.id', 'ap.admission_id')
    .join('schools as sc', 'sc.id', 'ap.school_id')
    .join('students as st', 'st.id', 'ap.student_id');
}

const NAMED = [
  'ap.id as application_id',
  'ap.student_id',
  'ad.id as admission_id',
  'ad.application_deadline',
  'ad.name_en as intake_name_en',
  'ad.name_zh as intake_name_zh',
  'sc.name_en as school_name_en',
  'sc.name_zh as school_name_zh',
  'st.student_no',
  'st.surname_en',
  'st.given_name_en',
  'st.name_zh as student_name_zh',
];

/**
 * The reads of the reminders (what is due) and their bookkeeping (`sent_reminders`, `reminder_runs`: migration
 * 20261128000030).
 */
export const remindersRepository = {
  /**
   * Applications not yet sent to the school (`draft`) to an intake whose deadline is between `from` and `to`
   * (inclusive), of students with an active consultant: the consultant's fields as `consultant_*`.
   */
  intakeDeadlines(db: Trx, from: string, to: string): Promise<Row[]> {
    return applications(db)
      .join('users as u', 'u.id', 'st.consultant_user_id')
      .where('ap.status', 'draft')
      .whereBetween('ad.application_deadline', [from, to])
      .where('u.is_active', true)
      .orderBy([{ column: 'ad.id' }, { column: 'u.id' }, { column: 'st.id' }])
      .select([
        ...NAMED,
        'u.id as consultant_id',
        'u.email as consultant_email',
        'u.language as consultant_language',
      ]);
  },

  /**
   * The checklist rows still pending (nothing uploaded) of applications under way (`draft`, `submitted`) whose
   * intake's deadline is between `from` and `to`, each with its student (portal access, language) and the
   * student's consultant (`consultant_active` says whether that account is active), in each checklist's order.
   */
  pendingDocuments(db: Trx, from: string, to: string): Promise<Row[]> {
    return applications(db)
      .join('application_documents as d', 'd.application_id', 'ap.id')
      .leftJoin('users as u', 'u.id', 'st.consultant_user_id')
      .where('d.status', 'pending')
      .whereIn('ap.status', ['draft', 'submitted'])
      .whereBetween('ad.application_deadline', [from, to])
      .orderBy([{ column: 'ap.id' }, { column: 'd.sort_order' }, { column: 'd.id' }])
      .select([
        ...NAMED,
        'd.name_en as document_name_en',
        'd.name_zh as document_name_zh',
        'st.portal_enabled',
        'st.portal_email',
        'st.language as student_language',
        'u.id as consultant_id',
        'u.email as consultant_email',
        'u.language as consultant_language',
        'u.is_active as consultant_active',
      ]);
  },

  /** Whether a table exists (the orders of issue 27: the overdue-invoices reminder waits for it). */
  hasTable(db: Trx, table: string): Promise<boolean> {
    return db.schema.hasTable(table);
  },

  /**
   * Invoices overdue on `today` (`whereOverdue`: past their due date with an amount outstanding, neither paid nor
   * void), with their student's names.
   */
  overdueOrders(db: Trx, today: string): Promise<Row[]> {
    return whereOverdue(db('orders as o'), 'o', today)
      .leftJoin('students as st', 'st.id', 'o.student_id')
      .orderBy([{ column: 'o.branch_id' }, { column: 'o.due_date' }, { column: 'o.id' }])
      .select(
        'o.id',
        'o.order_no',
        'o.branch_id',
        'o.due_date',
        'o.outstanding',
        'o.currency',
        'st.student_no',
        'st.surname_en',
        'st.given_name_en',
        'st.name_zh as student_name_zh',
      );
  },

  /** The active staff of these branches, each with the permissions of their role. */
  branchStaff(db: Trx, branchIds: readonly number[]): Promise<Row[]> {
    if (!branchIds.length) return Promise.resolve([]);
    return db('users as u')
      .leftJoin('roles as r', 'r.id', 'u.role_id')
      .whereIn('u.branch_id', [...branchIds])
      .where('u.is_active', true)
      .orderBy('u.id')
      .select('u.id', 'u.email', 'u.language', 'u.branch_id', 'u.is_admin', 'r.permissions');
  },

  /**
   * Claims a reminder before its mail goes: true when this call wrote its row, false when it was sent (or is being
   * sent) already — the unique key decides, whatever instance or run got there first.
   */
  async claim(db: Trx, key: SentKey, email: string): Promise<boolean> {
    try {
      await db('sent_reminders').insert({ ...key, email, sent_at: toDbDateTime() });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  },

  /** Gives a claim back (its mail failed): the next run tries again. */
  async release(db: Trx, key: SentKey): Promise<void> {
    await db('sent_reminders').where(key).delete();
  },

  /** Records the start of the run due at `dueAt` (UTC `YYYY-MM-DD HH:mm:ss`); false when it was run already. */
  async startRun(db: Trx, dueAt: string): Promise<number | null> {
    try {
      const [id] = await db('reminder_runs').insert({ due_at: dueAt, started_at: toDbDateTime() });
      return Number(id);
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  },

  async runOf(db: Trx, dueAt: string): Promise<Row | undefined> {
    return db('reminder_runs').where({ due_at: dueAt }).first();
  },

  async finishRun(
    db: Trx,
    id: number,
    outcome: { sent: number; skipped: number; failed: number; note?: string | null },
  ): Promise<void> {
    await db('reminder_runs')
      .where({ id })
      .update({ ...outcome, note: outcome.note ?? null, finished_at: toDbDateTime() });
  },

  /** The latest run, or undefined before the first. */
  async lastRun(db: Trx): Promise<Row | undefined> {
    return db('reminder_runs').orderBy('due_at', 'desc').first();
  },
};

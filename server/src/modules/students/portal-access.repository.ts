import type { Trx } from '../../db/knex';
import { searchTerms } from '../../db/search';
import { toDbDateTime } from '../../lib/clock';

/**
 * What a portal link is for: `invitation` (staff invite the student to set a first password); the portal issue adds
 * `reset` (a forgotten password) on the same table.
 */
export type PortalTokenPurpose = 'invitation' | 'reset';

export interface PortalTokenRow {
  id: number;
  student_id: number;
  purpose: PortalTokenPurpose;
  token_hash: string;
  expires_at: string;
}

/** The student's columns that portal access reads and writes. */
export interface PortalAccessStudent {
  id: number;
  branch_id: number;
  language: string;
  portal_email: string | null;
  portal_enabled: number | boolean;
  portal_password_hash: string | null;
  portal_must_change_password: number | boolean;
  portal_invited_at: string | null;
  info_submitted_at: string | null;
  info_confirmed_at: string | null;
  [column: string]: unknown;
}

/**
 * The rows behind a student's portal access (staff side): the portal links (`student_portal_tokens`, SHA-256 of
 * the secret only, one live link per student and purpose), the portal columns of `students`, and the student's
 * browser sessions in `user_sessions`. The portal sign-in itself reads through portal/students.repository.ts.
 */
export const portalAccessRepository = {
  findStudent(db: Trx, id: number): Promise<PortalAccessStudent | undefined> {
    return db('students').where({ id }).first();
  },

  async updateStudent(db: Trx, id: number, data: Partial<PortalAccessStudent>, actorId: number | null) {
    await db('students')
      .where({ id })
      .update({ ...data, updated_at: toDbDateTime(), updated_by: actorId });
    // a searchable column written here (none today: the portal columns) keeps its search terms in step
    if (searchTerms.touchesDeclared('students', data))
      await searchTerms.refreshDeclared(db, 'students', [id]);
  },

  /** Replaces the student's live link of `purpose` with a new one. */
  async putToken(
    db: Trx,
    row: { student_id: number; purpose: PortalTokenPurpose; token_hash: string; expires_at: string },
    actorId: number | null,
  ): Promise<void> {
    await db('student_portal_tokens').where({ student_id: row.student_id, purpose: row.purpose }).delete();
    await db('student_portal_tokens').insert({ ...row, created_at: toDbDateTime(), created_by: actorId });
  },

  findTokenByHash(db: Trx, tokenHash: string): Promise<PortalTokenRow | undefined> {
    return db('student_portal_tokens').where({ token_hash: tokenHash }).first();
  },

  /** Spends a link: true for exactly one caller. */
  async takeToken(db: Trx, id: number): Promise<boolean> {
    return (await db('student_portal_tokens').where({ id }).delete()) === 1;
  },

  /** Every link still out for the student (all purposes, or one). */
  async deleteTokens(db: Trx, studentId: number, purpose?: PortalTokenPurpose): Promise<number> {
    const qb = db('student_portal_tokens').where({ student_id: studentId });
    if (purpose) qb.where({ purpose });
    return qb.delete();
  },

  /** Ends every portal session of the student (their cookies answer 401 from the next request). */
  endSessions(db: Trx, studentId: number): Promise<number> {
    return db('user_sessions').where({ student_id: studentId }).delete();
  },

  /** Ends the student's portal sessions but `keepHash` (a password changed in this one). */
  endOtherSessions(db: Trx, studentId: number, keepHash: string): Promise<number> {
    return db('user_sessions')
      .where({ student_id: studentId })
      .whereNot({ session_id_hash: keepHash })
      .delete();
  },

  /** Deletes the rows of `table` that belong to the student alone (family members, educations). */
  deleteOwned(db: Trx, table: string, studentId: number): Promise<number> {
    return db(table).where({ student_id: studentId }).delete();
  },
};

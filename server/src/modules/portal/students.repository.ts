import type { Trx } from '../../db/knex';

export interface StudentRow {
  id: number;
  student_no: string;
  branch_id: number;
  surname_en: string | null;
  given_name_en: string | null;
  name_zh: string | null;
  language: string;
  portal_email: string | null;
  portal_password_hash: string | null;
  portal_enabled: number | boolean;
  [column: string]: unknown;
}

export const studentsRepository = {
  findByPortalEmail(db: Trx, email: string): Promise<StudentRow | undefined> {
    return db('students').whereRaw('lower(portal_email) = ?', [email.toLowerCase()]).first();
  },
  findById(db: Trx, id: number): Promise<StudentRow | undefined> {
    return db('students').where({ id }).first();
  },
};

import type { Knex } from 'knex';
import type { ApiRouter } from '../../http/api-router';
import { AppError } from '../../lib/app-error';
import { fromDbDateTime } from '../../lib/clock';
import { studentsRepository } from './students.repository';

/**
 * The fields of a student's own record that the portal shows: an allow-list, so that a column added later for
 * staff (a remark, a consultant, a category, a hash) never reaches a student unless it is named here.
 */
export const PORTAL_STUDENT_FIELDS = [
  'id',
  'student_no',
  'surname_en',
  'given_name_en',
  'name_zh',
  'name_ko',
  'gender',
  'birth_date',
  'nationality',
  'passport_no',
  'passport_expiry',
  'phone',
  'email',
  'application_email',
  'address',
  'korean_level',
  'topik_level',
  'visa_type',
  'visa_expiry',
  'portal_email',
  'language',
  'info_submitted_at',
  'info_confirmed_at',
] as const;

const INSTANTS = new Set(['info_submitted_at', 'info_confirmed_at']);

/** The portal's own data calls (spec §2 "Student portal"): a student only ever reaches their own record. */
export function registerPortalRoutes(api: ApiRouter, db: Knex): void {
  api.add({
    method: 'get',
    path: '/student',
    access: 'student',
    handler: async (req, res) => {
      if (req.auth?.kind !== 'student') throw new AppError('unauthenticated');
      const row = await studentsRepository.findById(db, req.auth.student.id);
      if (!row) throw new AppError('not_found');
      res.json(
        Object.fromEntries(
          PORTAL_STUDENT_FIELDS.map((key) => [
            key,
            INSTANTS.has(key) ? fromDbDateTime(row[key] as string | null) : (row[key] ?? null),
          ]),
        ),
      );
    },
  });
}

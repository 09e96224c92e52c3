import type { Knex } from 'knex';
import type { ApiRouter } from '../../http/api-router';
import { AppError } from '../../lib/app-error';
import { studentsRepository } from './students.repository';

const HIDDEN = new Set(['portal_password_hash']);

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
      res.json(Object.fromEntries(Object.entries(row).filter(([key]) => !HIDDEN.has(key))));
    },
  });
}

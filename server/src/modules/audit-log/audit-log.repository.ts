import type { Trx } from '../../db/knex';

export const auditLogRepository = {
  async userNames(db: Trx, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await db('users').whereIn('id', ids).select('id', 'name', 'email');
    return new Map(rows.map((r) => [Number(r.id), `${r.name} <${r.email}>`]));
  },

  async studentNames(db: Trx, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await db('students')
      .whereIn('id', ids)
      .select('id', 'student_no', 'surname_en', 'given_name_en', 'name_zh');
    return new Map(
      rows.map((r) => [
        Number(r.id),
        [r.student_no, [r.surname_en, r.given_name_en].filter(Boolean).join(' '), r.name_zh]
          .filter(Boolean)
          .join(' '),
      ]),
    );
  },
};

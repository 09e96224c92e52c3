import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import { sharedRead } from '../../db/shared-read';
import type { Row } from '../../resources/resource';
import { dayStartUtc } from '../calendar/calendar.sources';
import { hongKongMonth, whereInBranches } from '../reports/report-rows.repository';

/** The students' figures of the dashboard: applications by status, students registered per Hong Kong month. */
export const studentFiguresRepository = {
  /** Applications made from `from` (a Hong Kong day) on, by status, of the students in the branches. */
  applicationsByStatus(
    db: Trx,
    branchIds: readonly number[] | null,
    from: string,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    const qb = db('student_applications as ap')
      .where('ap.created_at', '>=', dayStartUtc(from))
      .select('ap.status')
      .count({ n: '*' })
      .groupBy('ap.status');
    if (branchIds !== null) {
      qb.join('students as st', 'st.id', 'ap.student_id');
      whereInBranches(qb, 'st.branch_id', branchIds);
    }
    return sharedRead<Row[]>(db, qb, signal);
  },

  /** Students registered from `from` (the first Hong Kong day of a month) on, per Hong Kong month (`YYYY-MM`). */
  studentsPerMonth(
    db: Trx,
    branchIds: readonly number[] | null,
    from: string,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    const qb: Knex.QueryBuilder = db('students as st')
      .where('st.created_at', '>=', dayStartUtc(from))
      .select({ month: hongKongMonth(db, 'st.created_at') })
      .count({ n: '*' })
      .groupBy('month');
    whereInBranches(qb, 'st.branch_id', branchIds);
    return sharedRead<Row[]>(db, qb, signal);
  },
};

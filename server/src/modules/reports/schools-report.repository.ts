import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { OFFERED_STATUSES } from '../../../../shared/reports/schools';
import type { ReportCriteria } from './report-source';
import { reportRowsRepository, whereInBranches, whereInstantIn } from './report-rows.repository';

/**
 * The schools report's reads (shared/reports/schools.ts): the applications (`ap`) made in the range (Hong Kong
 * days on `created_at`) by students (`st`) of the branches the caller sees and of the consultant chosen, to the
 * school and intake chosen, counted per school and intake (or per school): all of them, those with an offer and
 * those enrolled.
 */
function applications(db: Trx, c: ReportCriteria): Knex.QueryBuilder {
  const qb = db('student_applications as ap').join('students as st', 'st.id', 'ap.student_id');
  whereInstantIn(qb, 'ap.created_at', c.ranges.applied);
  whereInBranches(qb, 'st.branch_id', c.branchIds);
  if (c.values.consultant_user_id !== undefined)
    qb.where('st.consultant_user_id', c.values.consultant_user_id as number);
  if (c.values.school_id !== undefined) qb.where('ap.school_id', c.values.school_id as number);
  if (c.values.admission_id !== undefined) qb.where('ap.admission_id', c.values.admission_id as number);
  return qb;
}

export const schoolsReportRepository = {
  /** One row per school (and intake, grouped by `intake`) with its names in both languages and the counts. */
  async groups(db: Trx, c: ReportCriteria, grouping: string, signal?: AbortSignal): Promise<Row[]> {
    const byIntake = grouping === 'intake';
    const offered = OFFERED_STATUSES.map(() => '?').join(', ');
    const qb = applications(db, c)
      .select('ap.school_id')
      .count({ applications: '*' })
      .select({
        offers: db.raw(`SUM(CASE WHEN ap.status IN (${offered}) THEN 1 ELSE 0 END)`, [...OFFERED_STATUSES]),
        enrolments: db.raw(`SUM(CASE WHEN ap.status = ? THEN 1 ELSE 0 END)`, ['enrolled']),
      })
      .groupBy('ap.school_id');
    if (byIntake) qb.select('ap.admission_id').groupBy('ap.admission_id');
    const rows = await reportRowsRepository.all(db, qb, signal);
    const schools = await reportRowsRepository.named(
      db,
      'schools',
      'id',
      rows.map((row) => row.school_id),
      ['name_en', 'name_zh'],
    );
    const intakes = byIntake
      ? await reportRowsRepository.named(
          db,
          'school_admissions',
          'id',
          rows.map((row) => row.admission_id),
          ['name_en', 'name_zh', 'year'],
        )
      : new Map<string, Row>();
    return rows.map((row) => {
      const school = schools.get(String(row.school_id)) ?? {};
      const intake = intakes.get(String(row.admission_id)) ?? {};
      return {
        school_id: Number(row.school_id),
        school_en: school.name_en,
        school_zh: school.name_zh,
        ...(byIntake
          ? {
              admission_id: Number(row.admission_id),
              intake_en: intake.name_en,
              intake_zh: intake.name_zh,
              year: intake.year === undefined ? null : Number(intake.year),
            }
          : {}),
        applications: Number(row.applications),
        offers: Number(row.offers ?? 0),
        enrolments: Number(row.enrolments ?? 0),
      };
    });
  },
};

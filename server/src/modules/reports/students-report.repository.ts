import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import type { ReportCriteria, ReportSort } from './report-source';
import {
  hongKongMonth,
  reportRowsRepository,
  whereInBranches,
  whereInstantIn,
  type ReportOrder,
} from './report-rows.repository';

/**
 * The students report's reads (shared/reports/students.ts): students (`st`) in the criteria — registered in the
 * range (Hong Kong days on `created_at`), in the branches the caller sees, of the consultant, category, status and
 * nationality chosen, with an application to the intake chosen — and their applications (to that intake when one
 * is chosen).
 */

/** The criteria on the students (`st`) of a query. */
function whereStudents(qb: Knex.QueryBuilder, c: ReportCriteria): Knex.QueryBuilder {
  whereInstantIn(qb, 'st.created_at', c.ranges.created);
  whereInBranches(qb, 'st.branch_id', c.branchIds);
  for (const column of ['consultant_user_id', 'category_id', 'status', 'nationality'] as const) {
    const value = c.values[column];
    if (value !== undefined) qb.where(`st.${column}`, value as string | number);
  }
  const intake = c.values.admission_id;
  if (intake !== undefined)
    qb.whereExists(function (this: Knex.QueryBuilder) {
      this.select('ap_in.id')
        .from('student_applications as ap_in')
        .whereRaw('ap_in.student_id = st.id')
        .where('ap_in.admission_id', intake as number);
    });
  return qb;
}

/** The applications counted: the students' own, to the intake chosen when there is one. */
function whereApplications(qb: Knex.QueryBuilder, c: ReportCriteria): Knex.QueryBuilder {
  const intake = c.values.admission_id;
  if (intake !== undefined) qb.where('ap.admission_id', intake as number);
  return qb;
}

/** The students of the criteria, with what a detail row shows (names of related records in both languages). */
function detailQuery(db: Trx, c: ReportCriteria): Knex.QueryBuilder {
  const applications = whereApplications(
    db('student_applications as ap').count('*').whereRaw('ap.student_id = st.id'),
    c,
  );
  return whereStudents(db('students as st'), c)
    .leftJoin('student_categories as cat', 'cat.id', 'st.category_id')
    .leftJoin('branches as br', 'br.id', 'st.branch_id')
    .leftJoin('users as us', 'us.id', 'st.consultant_user_id')
    .leftJoin('options as sts', (on) => on.on('sts.value', 'st.status').andOnVal('sts.key', 'student_status'))
    .leftJoin('options as nat', (on) =>
      on.on('nat.value', 'st.nationality').andOnVal('nat.key', 'nationality'),
    )
    .select(
      'st.id',
      'st.student_no',
      'st.surname_en',
      'st.given_name_en',
      'st.name_zh',
      'st.status',
      'st.nationality',
      'st.created_at',
      'cat.name_en as category_en',
      'cat.name_zh as category_zh',
      'br.name_en as branch_en',
      'br.name_zh as branch_zh',
      'us.name as consultant',
      'sts.label_en as status_en',
      'sts.label_zh as status_zh',
      'nat.label_en as nationality_en',
      'nat.label_zh as nationality_zh',
    )
    .select({ applications: applications });
}

/** A detail sort's column in the query. */
const SORT_COLUMNS: Record<string, string> = { created: 'st.created_at', student_no: 'st.student_no' };

function orderOf(sort: ReportSort): ReportOrder {
  return { expression: SORT_COLUMNS[sort.column], key: 'st.id', direction: sort.direction };
}

/** What a grouping groups the students by, and where its groups' names are. */
const GROUPINGS: Record<
  string,
  { key: string; names?: { table: string; key: string; columns: string[]; where?: Row } }
> = {
  category: {
    key: 'st.category_id',
    names: { table: 'student_categories', key: 'id', columns: ['name_en', 'name_zh'] },
  },
  status: {
    key: 'st.status',
    names: {
      table: 'options',
      key: 'value',
      columns: ['label_en', 'label_zh'],
      where: { key: 'student_status' },
    },
  },
  nationality: {
    key: 'st.nationality',
    names: {
      table: 'options',
      key: 'value',
      columns: ['label_en', 'label_zh'],
      where: { key: 'nationality' },
    },
  },
  consultant: { key: 'st.consultant_user_id', names: { table: 'users', key: 'id', columns: ['name'] } },
  branch: { key: 'st.branch_id', names: { table: 'branches', key: 'id', columns: ['name_en', 'name_zh'] } },
  month: { key: 'month' },
};

export const studentsReportRepository = {
  page(
    db: Trx,
    c: ReportCriteria,
    sort: ReportSort,
    page: number,
    perPage: number,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    return reportRowsRepository.page(db, detailQuery(db, c), orderOf(sort), page, perPage, signal);
  },

  count(db: Trx, c: ReportCriteria, signal?: AbortSignal): Promise<number> {
    return reportRowsRepository.count(db, whereStudents(db('students as st'), c), signal);
  },

  /** The students and their applications. */
  async totals(
    db: Trx,
    c: ReportCriteria,
    signal?: AbortSignal,
  ): Promise<{ students: number; applications: number }> {
    const students = await studentsReportRepository.count(db, c, signal);
    const applications = await reportRowsRepository.count(
      db,
      whereApplications(
        whereStudents(db('student_applications as ap').join('students as st', 'st.id', 'ap.student_id'), c),
        c,
      ),
      signal,
    );
    return { students, applications };
  },

  batches(db: Trx, c: ReportCriteria, sort: ReportSort, signal?: AbortSignal): AsyncIterable<Row[]> {
    return reportRowsRepository.batches(db, () => detailQuery(db, c), orderOf(sort), signal);
  },

  /**
   * The students and their applications per group (one row per group: its key, and its names in both languages
   * where it has any).
   */
  async groups(db: Trx, c: ReportCriteria, grouping: string, signal?: AbortSignal): Promise<Row[]> {
    const { key, names } = GROUPINGS[grouping];
    const keyOf = (qb: Knex.QueryBuilder) =>
      key === 'month'
        ? qb.select({ group_key: hongKongMonth(db, 'st.created_at') })
        : qb.select({ group_key: key });
    const students = await reportRowsRepository.all(
      db,
      keyOf(whereStudents(db('students as st'), c))
        .count({ n: '*' })
        .groupBy('group_key'),
      signal,
    );
    const applications = await reportRowsRepository.all(
      db,
      keyOf(
        whereApplications(
          whereStudents(db('student_applications as ap').join('students as st', 'st.id', 'ap.student_id'), c),
          c,
        ),
      )
        .count({ n: '*' })
        .groupBy('group_key'),
      signal,
    );
    const appsOf = new Map(applications.map((row) => [String(row.group_key), Number(row.n)]));
    const named = names
      ? await reportRowsRepository.named(
          db,
          names.table,
          names.key,
          students.map((row) => row.group_key),
          names.columns,
          names.where,
        )
      : new Map<string, Row>();
    return students.map((row) => ({
      group_key: row.group_key,
      ...(named.get(String(row.group_key)) ?? {}),
      students: Number(row.n),
      applications: appsOf.get(String(row.group_key)) ?? 0,
    }));
  },
};

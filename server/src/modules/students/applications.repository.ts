import type { Knex } from 'knex';
import { guardedQuery, type Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';
import type { Row } from '../../resources/resource';
import { lockForUpdate } from '../../resources/unit-of-work';

/** The most rows one calendar read takes (as the calendar's own repository bounds its reads). */
const CALENDAR_ROWS = 5_000;

/** A checklist row's columns that make it one of its application's (copied from the intake's entry). */
export interface NewChecklistRow {
  application_id: number;
  admission_document_id: number;
  document_type: unknown;
  name_en: unknown;
  name_zh: unknown;
  is_required: unknown;
  sort_order: number;
  status: string;
}

/** The branch a calendar read keeps: every branch's (null), or the students of these branches only. */
export type BranchIds = readonly number[] | null;

function inBranches(qb: Knex.QueryBuilder, column: string, branchIds: BranchIds): Knex.QueryBuilder {
  if (branchIds === null) return qb;
  return branchIds.length ? qb.whereIn(column, [...branchIds]) : qb.whereRaw('1 = 0');
}

/** An application with its student's, school's and intake's names (the calendar's and the media manager's). */
function namedApplications(db: Trx): Knex.QueryBuilder {
  return db('student_applications as ap')
    .join('students as st', 'st.id', 'ap.student_id')
    .join('schools as sc', 'sc.id', 'ap.school_id')
    .join('school_admissions as ad', 'ad.id', 'ap.admission_id')
    .select(
      'ap.id',
      'ap.student_id',
      'st.branch_id',
      'st.student_no',
      'st.surname_en',
      'st.given_name_en',
      'st.name_zh as student_name_zh',
      'sc.name_en as school_name_en',
      'sc.name_zh as school_name_zh',
      'ad.name_en as intake_name_en',
      'ad.name_zh as intake_name_zh',
      'ad.application_deadline',
    );
}

/**
 * The reads and writes of applications and their document checklists beyond the generic repository: the intake's
 * checklist copied into an application's, the rows' locks for their moves and files, the figures a page of
 * applications shows (one query each), the calendar's reads and the names the media manager shows.
 */
export const applicationsRepository = {
  /** The intake's school and deadline, or undefined when there is no such intake. */
  async intake(db: Trx, admissionId: number): Promise<Row | undefined> {
    return db('school_admissions')
      .where({ id: admissionId })
      .first(['id', 'school_id', 'application_deadline']);
  },

  /** Whether the intake opens the subject (admission_subjects). */
  async opensSubject(db: Trx, admissionId: number, subjectId: number): Promise<boolean> {
    const row = await db('admission_subjects')
      .where({ admission_id: admissionId, subject_id: subjectId })
      .first('id');
    return Boolean(row);
  },

  /** The intake's checklist entries in the intake's order. */
  checklistOf(db: Trx, admissionId: number): Promise<Row[]> {
    return db('admission_documents')
      .where({ admission_id: admissionId })
      .orderBy([{ column: 'sort_order' }, { column: 'id' }])
      .select('id', 'document_type', 'name_en', 'name_zh', 'is_required', 'sort_order');
  },

  async insertChecklist(db: Trx, rows: readonly NewChecklistRow[], actorId: number | null): Promise<void> {
    if (!rows.length) return;
    const now = toDbDateTime();
    await db('application_documents').insert(
      rows.map((row) => ({
        ...row,
        created_at: now,
        updated_at: now,
        created_by: actorId,
        updated_by: actorId,
      })),
    );
  },

  /** An application's checklist rows (id, status, file), locked until the transaction ends. */
  lockChecklist(trx: Trx, applicationId: number): Promise<Row[]> {
    return lockForUpdate(
      trx,
      trx('application_documents').where({ application_id: applicationId }).select('id', 'status', 'file_id'),
    );
  },

  async deleteChecklist(db: Trx, applicationId: number): Promise<void> {
    await db('application_documents').where({ application_id: applicationId }).delete();
  },

  /** Each intake's application deadline, by intake id. */
  async deadlines(db: Trx, admissionIds: readonly number[]): Promise<Map<number, unknown>> {
    if (!admissionIds.length) return new Map();
    const rows: Row[] = await db('school_admissions')
      .whereIn('id', [...admissionIds])
      .select('id', 'application_deadline');
    return new Map(rows.map((row) => [Number(row.id), row.application_deadline]));
  },

  /** How many checklist rows of each application are in each status. */
  statusCounts(db: Trx, applicationIds: readonly number[]): Promise<Row[]> {
    if (!applicationIds.length) return Promise.resolve([]);
    return db('application_documents')
      .whereIn('application_id', [...applicationIds])
      .groupBy('application_id', 'status')
      .select('application_id', 'status')
      .count({ n: '*' });
  },

  /** A checklist row, locked until the transaction ends; undefined when there is none. */
  async lockDocument(trx: Trx, id: number): Promise<Row | undefined> {
    const [row] = await lockForUpdate(trx, trx('application_documents').where({ id }).select('*'));
    return row;
  },

  /** The student whose application holds checklist row `id`, or null when there is no such row. */
  async studentOfDocument(db: Trx, id: number): Promise<number | null> {
    const row: Row | undefined = await db('application_documents as doc')
      .join('student_applications as ap', 'ap.id', 'doc.application_id')
      .where('doc.id', id)
      .first('ap.student_id');
    return row ? Number(row.student_id) : null;
  },

  async findDocument(db: Trx, id: number): Promise<Row | undefined> {
    return db('application_documents').where({ id }).first();
  },

  async updateDocument(db: Trx, id: number, data: Row, actorId: number | null): Promise<void> {
    await db('application_documents')
      .where({ id })
      .update({ ...data, updated_at: toDbDateTime(), updated_by: actorId });
  },

  /** The original names of these files, by id. */
  async fileNames(db: Trx, fileIds: readonly number[]): Promise<Map<number, string>> {
    if (!fileIds.length) return new Map();
    const rows: Row[] = await db('files')
      .whereIn('id', [...fileIds])
      .select('id', 'original_name');
    return new Map(rows.map((row) => [Number(row.id), String(row.original_name)]));
  },

  /** Applications with their names, by id (the media manager's owner names and screens). */
  applicationsByIds(db: Trx, ids: readonly number[]): Promise<Row[]> {
    if (!ids.length) return Promise.resolve([]);
    return namedApplications(db).whereIn('ap.id', [...ids]);
  },

  /** Checklist rows with their application's names, by id. */
  documentsByIds(db: Trx, ids: readonly number[]): Promise<Row[]> {
    if (!ids.length) return Promise.resolve([]);
    return namedApplications(db)
      .join('application_documents as doc', 'doc.application_id', 'ap.id')
      .whereIn('doc.id', [...ids])
      .select('doc.id as document_id', 'doc.name_en as document_name_en', 'doc.name_zh as document_name_zh');
  },

  /** Students' names, by id. */
  studentsByIds(db: Trx, ids: readonly number[]): Promise<Row[]> {
    if (!ids.length) return Promise.resolve([]);
    return db('students')
      .whereIn('id', [...ids])
      .select('id', 'student_no', 'surname_en', 'given_name_en', 'name_zh');
  },

  /** Grade reports with their student's names, by id. */
  gradeReportsByIds(db: Trx, ids: readonly number[]): Promise<Row[]> {
    if (!ids.length) return Promise.resolve([]);
    return db('student_grade_reports as gr')
      .join('students as st', 'st.id', 'gr.student_id')
      .whereIn('gr.id', [...ids])
      .select(
        'gr.id',
        'gr.student_id',
        'gr.year',
        'gr.term',
        'st.surname_en',
        'st.given_name_en',
        'st.name_zh as student_name_zh',
      );
  },

  /** The checklist rows holding one of these files, with their application's names. */
  documentsUsingFiles(db: Trx, fileIds: readonly number[]): Promise<Row[]> {
    if (!fileIds.length) return Promise.resolve([]);
    return namedApplications(db)
      .join('application_documents as doc', 'doc.application_id', 'ap.id')
      .whereIn('doc.file_id', [...fileIds])
      .select('doc.file_id', 'doc.name_en as document_name_en', 'doc.name_zh as document_name_zh');
  },

  /**
   * A file's bytes were lost: the checklist rows holding it let go of it; one that was only uploaded (not sent
   * to the school) is pending again, as nothing is uploaded any more.
   */
  async releaseFile(db: Trx, fileId: number): Promise<void> {
    const now = toDbDateTime();
    await db('application_documents')
      .where({ file_id: fileId, status: 'uploaded' })
      .update({ status: 'pending', file_id: null, uploaded_at: null, updated_at: now });
    await db('application_documents').where({ file_id: fileId }).update({ file_id: null, updated_at: now });
  },

  /**
   * Applications whose intake's deadline falls in `from` – `to` (`to` exclusive), of students of `branchIds`,
   * with their names, by deadline.
   */
  deadlinesBetween(
    db: Trx,
    from: string,
    to: string,
    branchIds: BranchIds,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    const query = namedApplications(db)
      .where('ad.application_deadline', '>=', from)
      .where('ad.application_deadline', '<', to)
      .orderBy([{ column: 'ad.application_deadline' }, { column: 'ap.id' }])
      .limit(CALENDAR_ROWS);
    return guardedQuery<Row[]>(db, inBranches(query, 'st.branch_id', branchIds), signal);
  },

  /** The checklist rows of these applications in `statuses`, in each checklist's order. */
  documentsIn(
    db: Trx,
    applicationIds: readonly number[],
    statuses: readonly string[],
    signal?: AbortSignal,
  ): Promise<Row[]> {
    if (!applicationIds.length) return Promise.resolve([]);
    const query = db('application_documents')
      .whereIn('application_id', [...applicationIds])
      .whereIn('status', [...statuses])
      .orderBy([{ column: 'application_id' }, { column: 'sort_order' }, { column: 'id' }])
      .select('id', 'application_id', 'name_en', 'name_zh')
      .limit(CALENDAR_ROWS);
    return guardedQuery<Row[]>(db, query, signal);
  },
};

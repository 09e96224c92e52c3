import type { Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { lockForUpdate } from '../../resources/unit-of-work';

/** The most rows one portal list reads (a student has a handful of each; a bound all the same). */
const PORTAL_ROWS = 500;

/** An application with its school's, intake's and subject's names and the intake's dates. */
function applicationsWithNames(db: Trx) {
  return db('student_applications as ap')
    .join('schools as sc', 'sc.id', 'ap.school_id')
    .join('school_admissions as ad', 'ad.id', 'ap.admission_id')
    .join('school_subjects as su', 'su.id', 'ap.subject_id');
}

/**
 * The portal's reads beyond the declared resources' services: always for one student, whose id every query
 * names (a student's own records only, decision 0011). The writes go through the declared services.
 */
export const portalRepository = {
  /** The student's portal columns, locked until the transaction ends (a write checked against the lock). */
  async lockStudent(trx: Trx, id: number): Promise<Row | undefined> {
    const [row] = await lockForUpdate(
      trx,
      trx('students').where({ id }).select('id', 'info_submitted_at', 'portal_must_change_password'),
    );
    return row;
  },

  /** Whether the student must change a password staff chose (`portal_must_change_password`). */
  async mustChangePassword(db: Trx, id: number): Promise<boolean> {
    const row: Row | undefined = await db('students').where({ id }).first('portal_must_change_password');
    const value = row?.portal_must_change_password;
    return value === true || value === 1 || value === '1';
  },

  /** The student's applications with the names and dates the portal shows, by priority. */
  applicationsOf(db: Trx, studentId: number): Promise<Row[]> {
    return applicationsWithNames(db)
      .where('ap.student_id', studentId)
      .orderBy([{ column: 'ap.priority' }, { column: 'ap.id' }])
      .limit(PORTAL_ROWS)
      .select(
        'ap.id',
        'ap.school_id',
        'ap.admission_id',
        'ap.subject_id',
        'ap.priority',
        'ap.status',
        'ap.submitted_at',
        'ap.result_date',
        'ap.offer_date',
        'ap.enrolment_date',
        'sc.name_en as school_name_en',
        'sc.name_zh as school_name_zh',
        'ad.name_en as intake_name_en',
        'ad.name_zh as intake_name_zh',
        'ad.year as intake_year',
        'ad.application_start',
        'ad.application_deadline',
        'ad.interview_date',
        'ad.result_date as intake_result_date',
        'ad.semester_start',
        'su.name_en as subject_name_en',
        'su.name_zh as subject_name_zh',
      );
  },

  /** The applications among these with a document staff have sent to the school (submitted, or taken back). */
  async sentDocuments(db: Trx, applicationIds: readonly number[]): Promise<Set<number>> {
    if (!applicationIds.length) return new Set();
    const rows: Row[] = await db('application_documents')
      .whereIn('application_id', [...applicationIds])
      .whereIn('status', ['submitted', 'unsubmitted'])
      .distinct('application_id');
    return new Set(rows.map((row) => Number(row.application_id)));
  },

  /** The timetables of these intakes, in each one's order. */
  timetables(db: Trx, admissionIds: readonly number[]): Promise<Row[]> {
    if (!admissionIds.length) return Promise.resolve([]);
    return db('admission_timetable')
      .whereIn('admission_id', [...admissionIds])
      .orderBy([{ column: 'admission_id' }, { column: 'sort_order' }, { column: 'id' }])
      .select('admission_id', 'date', 'title_en', 'title_zh');
  },

  /**
   * The checklist rows of all the student's applications, with their file's name, their intake's deadline and their
   * application's school, intake and subject names.
   */
  documentsOf(db: Trx, studentId: number): Promise<Row[]> {
    return db('application_documents as doc')
      .join('student_applications as ap', 'ap.id', 'doc.application_id')
      .join('school_admissions as ad', 'ad.id', 'ap.admission_id')
      .join('schools as sc', 'sc.id', 'ap.school_id')
      .join('school_subjects as su', 'su.id', 'ap.subject_id')
      .leftJoin('files as f', 'f.id', 'doc.file_id')
      .where('ap.student_id', studentId)
      .orderBy([
        { column: 'ap.priority' },
        { column: 'ap.id' },
        { column: 'doc.sort_order' },
        { column: 'doc.id' },
      ])
      .limit(PORTAL_ROWS)
      .select(
        'doc.id',
        'doc.application_id',
        'doc.status',
        'doc.name_en',
        'doc.name_zh',
        'doc.document_type',
        'doc.is_required',
        'doc.file_id',
        'doc.uploaded_at',
        'f.original_name as file_name',
        'ad.application_deadline',
        'sc.name_en as school_name_en',
        'sc.name_zh as school_name_zh',
        'ad.name_en as intake_name_en',
        'ad.name_zh as intake_name_zh',
        'su.name_en as subject_name_en',
        'su.name_zh as subject_name_zh',
      );
  },

  /** The student's application `id` (its status), else undefined. */
  ownApplication(db: Trx, id: number, studentId: number): Promise<Row | undefined> {
    return db('student_applications').where({ id, student_id: studentId }).first('id', 'status');
  },

  /** The checklist row `id` when it is one of the student's, else undefined. */
  ownDocument(db: Trx, id: number, studentId: number): Promise<Row | undefined> {
    return db('application_documents as doc')
      .join('student_applications as ap', 'ap.id', 'doc.application_id')
      .where('doc.id', id)
      .where('ap.student_id', studentId)
      .first('doc.id', 'doc.status', 'doc.file_id');
  },

  /**
   * The intakes open on `today` (`YYYY-MM-DD`): a deadline on or after it, a start (when set) on or before it, of
   * an active school; by deadline. With `id`, that intake alone when it is open.
   */
  openIntakes(db: Trx, today: string, id?: number): Promise<Row[]> {
    const qb = db('school_admissions as ad');
    if (id !== undefined) qb.where('ad.id', id);
    return qb
      .join('schools as sc', 'sc.id', 'ad.school_id')
      .where('sc.is_active', true)
      .where('ad.application_deadline', '>=', today)
      .where((qb) => qb.whereNull('ad.application_start').orWhere('ad.application_start', '<=', today))
      .orderBy([{ column: 'ad.application_deadline' }, { column: 'ad.id' }])
      .limit(PORTAL_ROWS)
      .select(
        'ad.id',
        'ad.school_id',
        'ad.name_en',
        'ad.name_zh',
        'ad.year',
        'ad.term',
        'ad.application_start',
        'ad.application_deadline',
        'ad.interview_date',
        'ad.result_date',
        'ad.semester_start',
        'sc.name_en as school_name_en',
        'sc.name_zh as school_name_zh',
      );
  },

  /** The active subjects these intakes open, with the intake's id, by name. */
  openSubjects(db: Trx, admissionIds: readonly number[]): Promise<Row[]> {
    if (!admissionIds.length) return Promise.resolve([]);
    return db('admission_subjects as asu')
      .join('school_subjects as su', 'su.id', 'asu.subject_id')
      .whereIn('asu.admission_id', [...admissionIds])
      .where('su.is_active', true)
      .orderBy([{ column: 'su.name_en' }, { column: 'su.id' }])
      .select('asu.admission_id', 'su.id', 'su.code', 'su.name_en', 'su.name_zh', 'su.degree_level');
  },

  /** The education levels the student has entered. */
  async educationLevels(db: Trx, studentId: number): Promise<Set<string>> {
    const rows: Row[] = await db('student_educations').where({ student_id: studentId }).distinct('level');
    return new Set(rows.map((row) => String(row.level)));
  },

  /** The student's photo's file id, or null. */
  async photoOf(db: Trx, studentId: number): Promise<number | null> {
    const row: Row | undefined = await db('students').where({ id: studentId }).first('photo_file_id');
    return row?.photo_file_id ? Number(row.photo_file_id) : null;
  },

  async stampSubmitted(trx: Trx, id: number, at: string): Promise<void> {
    await trx('students')
      .where({ id })
      .update({ info_submitted_at: at, info_confirmed_at: at, updated_at: at, updated_by: null });
  },
};

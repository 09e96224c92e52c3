import { PORTAL_DETAIL_FIELDS } from '../../../../shared/schemas/portal';
import type { Row } from '../../resources/resource';

/**
 * What each portal answer may carry: one allow-list per answer (decision 0011). A column added to a table later —
 * a remark, a consultant, a branch, who created a row, a hash — reaches a student only once it is named here.
 */

/**
 * `GET /api/student` and every answer that shows the student's own record: what the student may write
 * (`PORTAL_DETAIL_FIELDS`), and what the portal shows beside it.
 */
export const PORTAL_STUDENT_FIELDS = [
  'id',
  'student_no',
  ...PORTAL_DETAIL_FIELDS,
  'email',
  'portal_email',
  'language',
  'info_submitted_at',
  'info_confirmed_at',
  // computed: the photo's own route when there is one, and whether the password must be changed first
  'photo_url',
  'must_change_password',
] as const;

/** A family member (`/api/family`), with the option lists' labels. */
export const PORTAL_FAMILY_FIELDS = [
  'id',
  'relationship',
  'relationship_label',
  'name_en',
  'name_zh',
  'birth_date',
  'nationality',
  'nationality_label',
  'occupation',
  'employer',
  'phone',
  'email',
  'address',
  'is_emergency_contact',
] as const;

/** An education entry (`/api/education`): no remark (staff's). */
export const PORTAL_EDUCATION_FIELDS = [
  'id',
  'level',
  'level_label',
  'school_name',
  'start_date',
  'end_date',
  'graduated',
] as const;

/** An application (`/api/application`, the choices of `/api/select-application`): no remark, no staff columns. */
export const PORTAL_APPLICATION_FIELDS = [
  'id',
  'school_id',
  'school_name_en',
  'school_name_zh',
  'admission_id',
  'intake_name_en',
  'intake_name_zh',
  'intake_year',
  'subject_id',
  'subject_name_en',
  'subject_name_zh',
  'priority',
  'status',
  'submitted_at',
  'result_date',
  'offer_date',
  'enrolment_date',
  'application_start',
  'application_deadline',
  'interview_date',
  'intake_result_date',
  'semester_start',
  'timetable',
  'can_withdraw',
] as const;

/** An intake open now (`/api/select-application`). */
export const PORTAL_INTAKE_FIELDS = [
  'id',
  'school_id',
  'school_name_en',
  'school_name_zh',
  'name_en',
  'name_zh',
  'year',
  'term',
  'application_start',
  'application_deadline',
  'interview_date',
  'result_date',
  'semester_start',
  'timetable',
  'subjects',
] as const;

/** A subject an open intake offers. */
export const PORTAL_SUBJECT_FIELDS = ['id', 'code', 'name_en', 'name_zh', 'degree_level'] as const;

/** A timetable milestone. */
export const PORTAL_TIMETABLE_FIELDS = ['date', 'title_en', 'title_zh'] as const;

/**
 * A checklist row (`/api/document?locale=`): its name, and its application's school, intake and subject, in the
 * asked language only.
 */
export const PORTAL_DOCUMENT_FIELDS = [
  'id',
  'application_id',
  'school_name',
  'admission_name',
  'subject_name',
  'name',
  'code',
  'status',
  'document_type',
  'is_required',
  'due_date',
  'file_name',
  'file_url',
  'uploaded_at',
  'can_upload',
  'can_remove',
] as const;

/** Exactly the allow-listed keys of `row` (absent ones as null): nothing else leaves the server. */
export function allowed<K extends string>(row: Row, fields: readonly K[]): Record<K, unknown> {
  return Object.fromEntries(fields.map((key) => [key, row[key] ?? null])) as Record<K, unknown>;
}

/** A DATE column as `YYYY-MM-DD`, or null. */
export function dateOnly(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' && value ? value.slice(0, 10) : null;
}

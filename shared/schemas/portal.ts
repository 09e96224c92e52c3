import { z } from 'zod';
import { LOCALES } from '../features';
import { deriveSchemas } from '../resources/derive';
import { studentEducations, studentFamily, students } from '../resources/students';
import { PASSWORD_RULE_MESSAGES, zPassword } from './auth';

/**
 * The student's own details the portal edits (`PUT /api/student`): the fields the spec lists for a student, and
 * nothing staff decide (branch, consultant, category, status, remark, portal access). Submitting the information
 * locks exactly these; the portal's details page and its "confirm my information" summary show them in this order.
 */
export const PORTAL_DETAIL_FIELDS = [
  'surname_en',
  'given_name_en',
  'name_zh',
  'name_ko',
  'gender',
  'birth_date',
  'nationality',
  'passport_no',
  'passport_expiry',
  'korean_level',
  'topik_level',
  'visa_type',
  'visa_expiry',
  'application_email',
  'phone',
  'address',
] as const;

const pick = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, true])) as Record<K, true>;

/**
 * `PUT /api/student`: the staff form's own schema (derived from the `student` declaration) narrowed to the fields
 * above, so that a rule changed there applies here too; any field may be left out.
 */
export const ZPortalDetails = deriveSchemas(students).update.pick(pick(PORTAL_DETAIL_FIELDS)).strict();

/**
 * A family member or an education entry as the portal writes it: the staff schema without the student column (the
 * signed-in student's) and without a remark (staff's notes, never shown in the portal).
 */
const ownChild = (schema: z.ZodObject) =>
  schema.omit(pick(['student_id', 'remark'].filter((key) => key in schema.shape))).strict();

const family = deriveSchemas(studentFamily);
const educations = deriveSchemas(studentEducations);

export const ZPortalFamilyCreate = ownChild(family.create);
export const ZPortalFamilyUpdate = ownChild(family.update);
export const ZPortalEducationCreate = ownChild(educations.create);
export const ZPortalEducationUpdate = ownChild(educations.update);

/** `POST /api/select-application`: an intake open today and one subject it opens. */
export const ZSelectApplication = z.strictObject({
  admission_id: z.number().int().positive(),
  subject_id: z.number().int().positive(),
});

/** `PUT /api/student/password`: the current password, and a new one by the spec's rule, confirmed. */
export const ZPortalChangePassword = z
  .strictObject({
    current_password: z.string().min(1, 'The current password is required.').max(200),
    password: zPassword,
    password_confirmation: z.string().max(200),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: PASSWORD_RULE_MESSAGES.confirmation,
  });

/** `PUT /api/student/language`: the language kept in the student's row (mails, the portal's default). */
export const ZPortalLanguage = z.strictObject({ language: z.enum(LOCALES) });

/** `GET /api/document?locale=`: the language of the checklist's names (default: the student's own). */
export const ZDocumentQuery = z.strictObject({ locale: z.enum(LOCALES).optional() });

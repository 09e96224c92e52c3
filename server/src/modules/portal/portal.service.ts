import type { Knex } from 'knex';
import type { MessageRef } from '../../../../shared/messages';
import { nameIn } from '../calendar/calendar.sources';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { toDbDateTime } from '../../lib/clock';
import type { Row } from '../../resources/resource';
import { createResourceService, type ResourceService } from '../../resources/resource.service';
import { apiDateTime } from '../../resources/rows';
import { unitOfWork, type UnitOfWork } from '../../resources/unit-of-work';
import { auditService } from '../audit/audit.service';
import { resourceOf } from '../declared.module';
import { declaredFileFields, createFileFieldsService, type FileGuard } from '../files/file-fields.service';
import type { ReceivedUpload } from '../files/file-upload.middleware';
import type { FilesService } from '../files/files.service';
import { businessToday } from '../numbering/business-time';
import { activeOptions } from '../options/options.service';
import { documentCode } from '../students/application-documents.resource';
import {
  assertFileAction,
  createApplicationDocumentFiles,
  fileActionAllowed,
} from '../students/application-document-files.service';
import { applicationsRepository } from '../students/applications.repository';
import {
  allowed,
  dateOnly,
  PORTAL_APPLICATION_FIELDS,
  PORTAL_DOCUMENT_FIELDS,
  PORTAL_EDUCATION_FIELDS,
  PORTAL_FAMILY_FIELDS,
  PORTAL_INTAKE_FIELDS,
  PORTAL_STUDENT_FIELDS,
  PORTAL_SUBJECT_FIELDS,
  PORTAL_TIMETABLE_FIELDS,
} from './portal-answers';
import { portalRepository } from './portal.repository';
import { studentsRepository } from './students.repository';

type Language = RequestContext['language'];

/** The option lists the portal's forms choose from (the staff forms' own lists). */
const PORTAL_OPTION_LISTS = [
  'gender',
  'nationality',
  'korean_level',
  'topik_level',
  'visa_type',
  'relationship',
  'education_level',
] as const;

/** The details a student must have filled in before submitting (names are required by the declaration). */
const SUBMIT_REQUIRED = [
  'surname_en',
  'given_name_en',
  'gender',
  'birth_date',
  'nationality',
  'passport_no',
  'passport_expiry',
  'phone',
] as const;

/** The education levels submitting needs, each with its own message. */
const SUBMIT_LEVELS = [
  { level: 'primary', field: 'education_primary', key: 'portalPrimaryEducation' },
  { level: 'secondary', field: 'education_secondary', key: 'portalSecondaryEducation' },
] as const;

/** The checklist statuses that show staff have sent a document to the school (a choice stays from then on). */
const SENT_STATUSES = new Set(['submitted', 'unsubmitted']);

/** The declared children the portal writes, by answer. */
type Child = 'family' | 'education';

/**
 * The student portal's own data (issue 14), always the signed-in student's: every query names the student, every
 * answer is built from an allow-list (portal-answers.ts), and another student's record answers 404.
 *
 * Writes reuse the staff side's services, so their rules cannot drift: the declared resources' services for the
 * student's details, family members, educations and applications (validation, duplicates, the application's
 * intake and subject rules and its checklist, audit rows with the student as actor), seen through the student's
 * own rows (the student column `fixed`, as the machinery serves a parent's children); the checklist row's file
 * service for uploads (limits, content checks, quota, suspension, P→U, U→P); the file field service for the photo.
 *
 * Every write first locks the student's row and answers 409 `portalLocked` once the information is submitted
 * (`info_submitted_at`), in the write's own transaction: a submit and a write never both succeed half-way.
 */
export function createPortalService(deps: {
  db: Knex;
  resources: ReadonlyMap<string, ResourceService>;
  files: FilesService;
}) {
  const { db, files } = deps;
  const service = (name: string) => resourceOf(deps.resources, name);
  const students = service('student');
  const children: Record<Child, ResourceService> = {
    family: service('student_family'),
    education: service('student_education'),
  };
  const applications = service('student_application');
  const documentFiles = createApplicationDocumentFiles(files);
  const fileFields = createFileFieldsService(files);
  const photoField = declaredFileFields().find(
    (f) => f.decl.name === 'student' && f.column === 'photo_file_id',
  );
  if (!photoField) throw new Error('students.photo_file_id is not declared');

  /** A declared child resource seen through one student's rows: the machinery's service, its parent column fixed. */
  const ownRows = (child: ResourceService, studentId: number): ResourceService =>
    createResourceService(db, {
      ...child.definition,
      fixed: { ...(child.definition.fixed ?? {}), student_id: studentId },
    });

  /** Refused with 409 once the student's information is submitted; the student's row locked for the transaction. */
  async function assertOpen(trx: Trx, studentId: number): Promise<void> {
    const row = await portalRepository.lockStudent(trx, studentId);
    if (!row) throw new AppError('not_found');
    if (row.info_submitted_at) throw new AppError('conflict', 'portalLocked');
  }

  /** A portal write: one unit of work, opened by the lock check. */
  function write<T>(studentId: number, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    return unitOfWork(db, async (uow) => {
      await assertOpen(uow.trx, studentId);
      return work(uow);
    });
  }

  /** The guard of a file write (its own transaction, in the files service). */
  const openGuard =
    (studentId: number): FileGuard =>
    (trx) =>
      assertOpen(trx, studentId);

  /** The student's own record as `GET /api/student` answers it: the allow-list, with the photo's route and the flag. */
  async function studentAnswer(studentId: number): Promise<Row> {
    const row = await studentsRepository.findById(db, studentId);
    if (!row) throw new AppError('not_found');
    return allowed(
      {
        ...row,
        info_submitted_at: apiDateTime(row.info_submitted_at),
        info_confirmed_at: apiDateTime(row.info_confirmed_at),
        photo_url: row.photo_file_id ? '/api/student/photo' : null,
        must_change_password: Boolean(Number(row.portal_must_change_password ?? 0)),
      },
      PORTAL_STUDENT_FIELDS,
    );
  }

  const childFields = (child: Child) => (child === 'family' ? PORTAL_FAMILY_FIELDS : PORTAL_EDUCATION_FIELDS);

  /** Whether the student's information is submitted (the portal's forms read-only). */
  async function isLocked(studentId: number): Promise<boolean> {
    const row = await studentsRepository.findById(db, studentId);
    return Boolean(row?.info_submitted_at);
  }

  /** Applications as the portal shows them, with their intake's timetable and whether they may be withdrawn. */
  async function applicationRows(studentId: number): Promise<Row[]> {
    const rows = await portalRepository.applicationsOf(db, studentId);
    const timetables = await timetablesOf(rows.map((row) => Number(row.admission_id)));
    const sent = await portalRepository.sentDocuments(
      db,
      rows.map((row) => Number(row.id)),
    );
    const locked = await isLocked(studentId);
    return rows.map((row) =>
      allowed(
        {
          ...row,
          submitted_at: dateOnly(row.submitted_at),
          result_date: dateOnly(row.result_date),
          offer_date: dateOnly(row.offer_date),
          enrolment_date: dateOnly(row.enrolment_date),
          application_start: dateOnly(row.application_start),
          application_deadline: dateOnly(row.application_deadline),
          interview_date: dateOnly(row.interview_date),
          intake_result_date: dateOnly(row.intake_result_date),
          semester_start: dateOnly(row.semester_start),
          timetable: timetables.get(Number(row.admission_id)) ?? [],
          can_withdraw: !locked && row.status === 'draft' && !sent.has(Number(row.id)),
        },
        PORTAL_APPLICATION_FIELDS,
      ),
    );
  }

  async function timetablesOf(admissionIds: number[]): Promise<Map<number, Row[]>> {
    const out = new Map<number, Row[]>();
    for (const row of await portalRepository.timetables(db, [...new Set(admissionIds)])) {
      const id = Number(row.admission_id);
      out.set(id, [
        ...(out.get(id) ?? []),
        allowed({ ...row, date: dateOnly(row.date) }, PORTAL_TIMETABLE_FIELDS),
      ]);
    }
    return out;
  }

  /** The checklist rows in `locale`, each due by its intake's deadline, with what the student may do now. */
  async function documentRows(studentId: number, locale: Language): Promise<Row[]> {
    const locked = await isLocked(studentId);
    const rows = await portalRepository.documentsOf(db, studentId);
    return rows.map((row) =>
      allowed(
        {
          ...row,
          name: nameIn(locale, row.name_en, row.name_zh),
          school_name: nameIn(locale, row.school_name_en, row.school_name_zh),
          admission_name: nameIn(locale, row.intake_name_en, row.intake_name_zh),
          subject_name: nameIn(locale, row.subject_name_en, row.subject_name_zh),
          code: documentCode(row.status),
          is_required: Boolean(Number(row.is_required ?? 0)),
          due_date: dateOnly(row.application_deadline),
          file_name: row.file_id ? row.file_name : null,
          file_url: row.file_id ? `/api/document/${Number(row.id)}/file` : null,
          uploaded_at: apiDateTime(row.uploaded_at),
          can_upload: !locked && fileActionAllowed('upload_file', row.status),
          can_remove: !locked && fileActionAllowed('remove_file', row.status),
        },
        PORTAL_DOCUMENT_FIELDS,
      ),
    );
  }

  /** The student's checklist row `id`, else 404 (another student's row does not exist for this one). */
  async function ownDocument(studentId: number, id: number): Promise<Row> {
    const row = await portalRepository.ownDocument(db, id, studentId);
    if (!row) throw new AppError('not_found');
    return row;
  }

  return {
    student: (studentId: number) => studentAnswer(studentId),

    /** The option lists the portal's forms offer (active entries, both languages). */
    options: () => activeOptions(db, PORTAL_OPTION_LISTS),

    /** The student's own details, validated and checked as the staff form's (duplicates, patterns, options). */
    async updateDetails(studentId: number, body: Row, ctx: RequestContext): Promise<Row> {
      await write(studentId, (uow) => students.update(studentId, body, ctx, uow));
      return studentAnswer(studentId);
    },

    /** Before the upload is read: 409 once submitted (checked again under the lock while storing). */
    async assertWritable(studentId: number): Promise<void> {
      if (await isLocked(studentId)) throw new AppError('conflict', 'portalLocked');
    },

    async setPhoto(studentId: number, upload: ReceivedUpload, ctx: RequestContext): Promise<Row> {
      await fileFields.set(photoField, studentId, upload, ctx, openGuard(studentId));
      return studentAnswer(studentId);
    },

    async removePhoto(studentId: number, ctx: RequestContext): Promise<Row> {
      await fileFields.clear(photoField, studentId, ctx, openGuard(studentId));
      return studentAnswer(studentId);
    },

    /** The student's photo's file id, else 404. */
    async photoFileId(studentId: number): Promise<number> {
      const id = await portalRepository.photoOf(db, studentId);
      if (id === null) throw new AppError('not_found');
      return id;
    },

    /** Every family member or education entry of the student, in the declaration's order. */
    async listChildren(child: Child, studentId: number, ctx: RequestContext): Promise<{ items: Row[] }> {
      const items: Row[] = [];
      for await (const batch of ownRows(children[child], studentId).exportRows({}, ctx))
        items.push(...batch.map((row) => allowed(row, childFields(child))));
      return { items };
    },

    async createChild(child: Child, studentId: number, body: Row, ctx: RequestContext): Promise<Row> {
      const row = await write(studentId, (uow) => ownRows(children[child], studentId).create(body, ctx, uow));
      return allowed(row, childFields(child));
    },

    /** Another student's id answers 404 (the student column is fixed in every read of the write). */
    async updateChild(
      child: Child,
      studentId: number,
      id: number,
      body: Row,
      ctx: RequestContext,
    ): Promise<Row> {
      const row = await write(studentId, (uow) =>
        ownRows(children[child], studentId).update(id, body, ctx, uow),
      );
      return allowed(row, childFields(child));
    },

    async removeChild(child: Child, studentId: number, id: number, ctx: RequestContext): Promise<void> {
      await write(studentId, (uow) => ownRows(children[child], studentId).remove(id, ctx, uow));
    },

    /** The intakes open today (Hong Kong's date) with their school, subjects and timetable, and the choices made. */
    async selectable(studentId: number): Promise<Row> {
      const intakes = await portalRepository.openIntakes(db, businessToday());
      const ids = intakes.map((row) => Number(row.id));
      const subjects = new Map<number, Row[]>();
      for (const row of await portalRepository.openSubjects(db, ids)) {
        const id = Number(row.admission_id);
        subjects.set(id, [...(subjects.get(id) ?? []), allowed(row, PORTAL_SUBJECT_FIELDS)]);
      }
      const timetables = await timetablesOf(ids);
      return {
        intakes: intakes.map((row) =>
          allowed(
            {
              ...row,
              application_start: dateOnly(row.application_start),
              application_deadline: dateOnly(row.application_deadline),
              interview_date: dateOnly(row.interview_date),
              result_date: dateOnly(row.result_date),
              semester_start: dateOnly(row.semester_start),
              subjects: subjects.get(Number(row.id)) ?? [],
              timetable: timetables.get(Number(row.id)) ?? [],
            },
            PORTAL_INTAKE_FIELDS,
          ),
        ),
        choices: await applicationRows(studentId),
        locked: await isLocked(studentId),
      };
    },

    /**
     * A choice: an application to an intake open today for one of the subjects it opens, made by the staff
     * side's service (the intake's school, the subject opened by it, one per student, intake and subject, the
     * checklist copied from the intake's), audited with the student as actor.
     */
    async choose(
      studentId: number,
      input: { admission_id: number; subject_id: number },
      ctx: RequestContext,
    ): Promise<Row> {
      const id = await write(studentId, async (uow) => {
        const [intake] = await portalRepository.openIntakes(uow.trx, businessToday(), input.admission_id);
        if (!intake) throw AppError.field('validation', 'admission_id', 'portalIntakeNotOpen');
        const offered = await portalRepository.openSubjects(uow.trx, [input.admission_id]);
        if (!offered.some((s) => Number(s.id) === input.subject_id))
          throw AppError.field('validation', 'subject_id', 'subjectNotOfIntake');
        const row = await ownRows(applications, studentId).create(
          { school_id: Number(intake.school_id), ...input },
          ctx,
          uow,
        );
        return Number(row.id);
      });
      const rows = await applicationRows(studentId);
      return rows.find((row) => row.id === id) ?? {};
    },

    /**
     * Withdraws a choice: only while it is a draft and no document of it has been sent to the school by staff
     * (409 `portalWithdrawRefused`); its checklist and the files uploaded into it go with it (the staff delete's
     * rules). Another student's application answers 404.
     */
    async withdraw(studentId: number, id: number, ctx: RequestContext): Promise<void> {
      await write(studentId, async (uow) => {
        const application = await portalRepository.ownApplication(uow.trx, id, studentId);
        if (!application) throw new AppError('not_found');
        const checklist = await applicationsRepository.lockChecklist(uow.trx, id);
        if (application.status !== 'draft' || checklist.some((doc) => SENT_STATUSES.has(String(doc.status))))
          throw new AppError('conflict', 'portalWithdrawRefused');
        await ownRows(applications, studentId).remove(id, ctx, uow);
      });
    },

    applications: (studentId: number) => applicationRows(studentId).then((items) => ({ items })),

    documents: (studentId: number, locale: Language) =>
      documentRows(studentId, locale).then((items) => ({ items })),

    /** One checklist row as `GET /api/document` shows it. */
    async document(studentId: number, id: number, locale: Language): Promise<Row> {
      const row = (await documentRows(studentId, locale)).find((doc) => doc.id === id);
      if (!row) throw new AppError('not_found');
      return row;
    },

    /**
     * Before an upload into checklist row `id` is read: the row is the student's (else 404), the information not
     * submitted and the row in a state that takes a file (else 409); all checked again under the locks.
     */
    async assertUploadable(studentId: number, id: number): Promise<void> {
      const row = await ownDocument(studentId, id);
      if (await isLocked(studentId)) throw new AppError('conflict', 'portalLocked');
      assertFileAction('upload_file', row);
    },

    async assertRemovable(studentId: number, id: number): Promise<void> {
      await ownDocument(studentId, id);
    },

    upload: (studentId: number, id: number, upload: ReceivedUpload, ctx: RequestContext) =>
      documentFiles.upload(id, upload, ctx, openGuard(studentId)),

    removeFile: (studentId: number, id: number, ctx: RequestContext) =>
      documentFiles.removeFile(id, ctx, openGuard(studentId)),

    /** The file of the student's checklist row `id`, else 404. */
    async documentFileId(studentId: number, id: number): Promise<number> {
      const row = await ownDocument(studentId, id);
      if (!row.file_id) throw new AppError('not_found');
      return Number(row.file_id);
    },

    /**
     * "Confirm my information": refused (422, a message per field) until the required details are filled in and
     * the education has a primary and a secondary entry; then `info_submitted_at` and `info_confirmed_at` are set
     * and every portal form is read-only until staff reopen it. Audited as `submit`.
     */
    async submit(studentId: number, ctx: RequestContext): Promise<Row> {
      await write(studentId, async (uow) => {
        const trx = uow.trx;
        const before = await studentsRepository.findById(trx, studentId);
        if (!before) throw new AppError('not_found');
        const errors: Record<string, MessageRef[]> = {};
        for (const field of SUBMIT_REQUIRED) {
          const value = before[field];
          if (value === null || value === undefined || value === '') errors[field] = [{ key: 'required' }];
        }
        const levels = await portalRepository.educationLevels(trx, studentId);
        for (const { level, field, key } of SUBMIT_LEVELS) if (!levels.has(level)) errors[field] = [{ key }];
        if (Object.keys(errors).length) throw new AppError('validation', 'validation', { errors });
        const at = toDbDateTime();
        await portalRepository.stampSubmitted(trx, studentId, at);
        await auditService.record(trx, ctx, {
          action: 'submit',
          entity: 'student',
          entityId: studentId,
          before: { info_submitted_at: null, info_confirmed_at: null },
          after: { info_submitted_at: at, info_confirmed_at: at },
        });
      });
      return studentAnswer(studentId);
    },
  };
}

export type PortalService = ReturnType<typeof createPortalService>;

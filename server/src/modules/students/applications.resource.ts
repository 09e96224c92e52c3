import {
  ADMISSION_STATUSES,
  applicationDocuments,
  DOCUMENT_CODES,
  DOCUMENT_STATUSES,
  studentApplications,
} from '../../../../shared/resources/students';
import type { Trx } from '../../db/knex';
import { userIdOf, type RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import type { AfterCommit, Row } from '../../resources/resource';
import { declaredRules, numberOrNull } from '../../resources/rows';
import { DOCUMENT_FILE_OWNER, type RemoveOwnedFiles } from './application-documents.resource';
import { applicationsRepository } from './applications.repository';

/** The value a write leaves in a column: the body's when it gives one, else the stored one. */
function merged(data: Row, existing: Row | null, column: string): unknown {
  return column in data ? data[column] : existing?.[column];
}

/** A date column's value as `YYYY-MM-DD` (both databases give DATE as text), or null. */
function dateOnly(value: unknown): string | null {
  return typeof value === 'string' && value ? value.slice(0, 10) : null;
}

/**
 * An application's checklist in one short text, each status's code and count in the order of domain.md's table:
 * `P 2 · U 1 · S 0 · N 0 · C 0`; null for an application whose intake asks for no documents.
 */
export function documentsSummary(counts: ReadonlyMap<string, number> | undefined): string | null {
  if (!counts || !counts.size) return null;
  return DOCUMENT_STATUSES.map((status) => `${DOCUMENT_CODES[status]} ${counts.get(status) ?? 0}`).join(
    ' · ',
  );
}

/** The intake's checklist copied into the application's (names, type, required flag, order), every row pending. */
async function createChecklist(db: Trx, applicationId: number, admissionId: number, ctx: RequestContext) {
  const entries = await applicationsRepository.checklistOf(db, admissionId);
  await applicationsRepository.insertChecklist(
    db,
    entries.map((entry) => ({
      application_id: applicationId,
      admission_document_id: Number(entry.id),
      document_type: entry.document_type,
      name_en: entry.name_en,
      name_zh: entry.name_zh,
      is_required: entry.is_required,
      // the intake's order (its rows are inserted in that order too: ties keep it by id)
      sort_order: Number(entry.sort_order),
      status: applicationDocuments.states!.initial,
    })),
    userIdOf(ctx),
  );
}

/**
 * The rules of a student's application beyond its declaration (shared/resources/students.ts):
 * - the intake is one of the chosen school's (`intakeNotOfSchool`) and opens the chosen subject
 *   (`subjectNotOfIntake`); one application per student, intake and subject is a declared unique;
 * - creating it copies the intake's document checklist into its own, in the same transaction;
 * - moving it to another intake (or school) rebuilds the checklist from the new intake's while every row is still
 *   pending (nothing was uploaded, sent or cancelled, so nothing is lost: a pending row never holds a file); once a
 *   row has left pending the school and intake stay (`applicationIntakeLocked`): what was provided belongs to that
 *   intake. The subject, priority and the rest change freely;
 * - its rows show the intake's deadline and a summary of the checklist's codes, one query each per page;
 * - deleting it is refused while a document is submitted to the school (`applicationDocumentsSubmitted`: take it
 *   back first); otherwise its checklist goes with it, and the checklist's files (rows in the delete's
 *   transaction, bytes once it has committed). Its own files (an offer letter) refuse the delete: a declared
 *   reference.
 */
export function studentApplicationRules(removeOwned: RemoveOwnedFiles) {
  return declaredRules(studentApplications, {
    /**
     * `answered`: the applications the school has answered (`ADMISSION_STATUSES`), for the student's admission tab
     * (students.resource.ts). A filter of the service only: the list's query schema has no such parameter.
     */
    applyFilters(qb, values) {
      if (values.answered === true) qb.whereIn('student_applications.status', [...ADMISSION_STATUSES]);
    },
    async beforeWrite(db, data, existing) {
      if (!('school_id' in data) && !('admission_id' in data) && !('subject_id' in data)) return;
      const schoolId = numberOrNull(merged(data, existing, 'school_id'));
      const admissionId = numberOrNull(merged(data, existing, 'admission_id'));
      const subjectId = numberOrNull(merged(data, existing, 'subject_id'));
      if (admissionId === null || schoolId === null) return;
      const intake = await applicationsRepository.intake(db, admissionId);
      if (!intake || numberOrNull(intake.school_id) !== schoolId)
        throw AppError.field('validation', 'admission_id', 'intakeNotOfSchool');
      if (subjectId !== null && !(await applicationsRepository.opensSubject(db, admissionId, subjectId)))
        throw AppError.field('validation', 'subject_id', 'subjectNotOfIntake');
      const moved =
        existing !== null &&
        (admissionId !== numberOrNull(existing.admission_id) ||
          schoolId !== numberOrNull(existing.school_id));
      if (!moved) return;
      // locked: a file uploaded into a row meanwhile waits for this write, and is then refused or kept
      const rows = await applicationsRepository.lockChecklist(db, Number(existing.id));
      if (rows.some((row) => row.status !== applicationDocuments.states!.initial))
        throw AppError.field('business_rule', 'admission_id', 'applicationIntakeLocked');
    },

    async afterWrite(db, row, before, ctx) {
      const admissionId = Number(row.admission_id);
      if (before === null) {
        await createChecklist(db, Number(row.id), admissionId, ctx);
      } else if (numberOrNull(before.admission_id) !== admissionId) {
        await applicationsRepository.deleteChecklist(db, Number(row.id));
        await createChecklist(db, Number(row.id), admissionId, ctx);
      }
    },

    async expand(db, rows) {
      const admissionIds = [...new Set(rows.map((row) => Number(row.admission_id)))];
      const deadlines = await applicationsRepository.deadlines(db, admissionIds);
      const counted = await applicationsRepository.statusCounts(
        db,
        rows.map((row) => Number(row.id)),
      );
      const counts = new Map<number, Map<string, number>>();
      for (const c of counted) {
        const id = Number(c.application_id);
        if (!counts.has(id)) counts.set(id, new Map());
        counts.get(id)!.set(String(c.status), Number(c.n));
      }
      return rows.map((row) => ({
        ...row,
        application_deadline: dateOnly(deadlines.get(Number(row.admission_id))),
        documents_summary: documentsSummary(counts.get(Number(row.id))),
      }));
    },

    async beforeDelete(db, row, ctx) {
      const checklist = await applicationsRepository.lockChecklist(db, Number(row.id));
      if (checklist.some((doc) => doc.status === 'submitted'))
        throw new AppError('conflict', 'applicationDocumentsSubmitted');
      await applicationsRepository.deleteChecklist(db, Number(row.id));
      const released: AfterCommit[] = [];
      for (const doc of checklist)
        released.push(await removeOwned(db, ctx, DOCUMENT_FILE_OWNER, Number(doc.id)));
      return async () => {
        for (const release of released) await release();
      };
    },
  });
}

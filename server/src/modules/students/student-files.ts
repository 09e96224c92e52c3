import type { Knex } from 'knex';
import { applicationDocuments, studentApplications, students } from '../../../../shared/resources/students';
import type { Trx } from '../../db/knex';
import type { ApiRouter } from '../../http/api-router';
import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import type { ResourceService } from '../../resources/resource.service';
import { nameIn } from '../calendar/calendar.sources';
import {
  declaredBranchOf,
  declaredBranchPath,
  fileOwner,
  labelsOf,
  registerFileOwner,
} from '../files/file-owners';
import { registerFileUsage } from '../files/file-usages';
import type { FilesService } from '../files/files.service';
import { DOCUMENT_FILE_OWNER } from './application-documents.resource';
import { registerApplicationDocumentFileRoutes } from './application-document-files.routes';
import { createApplicationDocumentFiles } from './application-document-files.service';
import { applicationsRepository } from './applications.repository';
import { applicationName, studentName } from './student-names';

/** The owner type of a student's photo (the declared `photo_file_id`'s). */
export const STUDENT_PHOTO_OWNER = 'student_photo';

/** A signed-in student's own student record. */
const ownStudent = (ctx: RequestContext, id: number): boolean =>
  ctx.actor.type === 'student' && ctx.actor.id === id;

/** A map of `key(row)` → `value(row)` over rows. */
function mapOf(rows: Row[], key: (row: Row) => number, value: (row: Row) => string): Map<number, string> {
  return new Map(rows.map((row) => [key(row), value(row)]));
}

/**
 * The files of students' records (domain.md: "Student attachments are files owned by the student"), each seen
 * with `students.view` and attached with `students.update`, in the student's branch (a branch-scoped caller gets
 * 404 for another branch's, in the media manager too):
 * - `student`: general attachments (passport scans, photos) through `POST /api/files`, on the attachment tab;
 * - `application`: an application's admission files (an offer letter) through `POST /api/files`, on the
 *   student's admission tab; they keep the application from being deleted (a declared reference);
 * - `application_document`: a checklist row's file, through the row's own route only (its state moves with it);
 *   in use while the row holds it, so the media manager refuses its delete; also the student's own in the portal;
 * - `student_photo`: the declared photo field's owner, also the signed-in student's own (the portal's photo);
 * - `grade_report`: the declared file field's owner (its branch through the student, as for every child's file
 *   field), named here by its student and linked to the grade report tab.
 * Registering again (each app built in one process) replaces the same entries.
 */
export function registerStudentFileOwners(): void {
  registerFileOwner('student', {
    branchOf: declaredBranchOf(students),
    viewPermission: 'students.view',
    attachPermission: 'students.update',
    attachable: true,
    branchScope: declaredBranchPath(students),
    filedUnder: 'owner',
    label: (db, ids, language) => labelsOf(db, students.table, ids, students.display, language),
    screen: (id) => `/students/attachment/${id}`,
  });

  const applications = async (db: Trx, ids: readonly number[]) =>
    applicationsRepository.applicationsByIds(db, [...new Set(ids)]);
  registerFileOwner('application', {
    branchOf: declaredBranchOf(studentApplications),
    viewPermission: 'students.view',
    attachPermission: 'students.update',
    attachable: true,
    branchScope: declaredBranchPath(studentApplications),
    filedUnder: 'owner',
    label: async (db, ids, language) =>
      mapOf(
        await applications(db, ids),
        (r) => Number(r.id),
        (r) => applicationName(r, language),
      ),
    screen: () => null,
    screens: async (db, ids) =>
      mapOf(
        await applications(db, ids),
        (r) => Number(r.id),
        (r) => `/students/admission/${Number(r.student_id)}`,
      ),
  });

  const documents = async (db: Trx, ids: readonly number[]) =>
    applicationsRepository.documentsByIds(db, [...new Set(ids)]);
  registerFileOwner(DOCUMENT_FILE_OWNER, {
    branchOf: declaredBranchOf(applicationDocuments),
    // the student's own checklist row, in the portal (its route checks the row and its state first)
    isOwn: async (ctx, id, db) =>
      ctx.actor.type === 'student' &&
      (await applicationsRepository.studentOfDocument(db, id)) === ctx.actor.id,
    viewPermission: 'students.view',
    attachPermission: 'students.update',
    attachable: false,
    branchScope: declaredBranchPath(applicationDocuments),
    filedUnder: 'owner',
    label: async (db, ids, language) =>
      mapOf(
        await documents(db, ids),
        (r) => Number(r.document_id),
        (r) =>
          `${nameIn(language, r.document_name_en, r.document_name_zh)} — ${applicationName(r, language)}`,
      ),
    screen: () => null,
    screens: async (db, ids) =>
      mapOf(
        await documents(db, ids),
        (r) => Number(r.document_id),
        (r) => `/students/application/${Number(r.student_id)}`,
      ),
  });

  // the declared photo field's owner: also the student's own, set in the portal
  const photo = fileOwner(STUDENT_PHOTO_OWNER);
  if (photo) registerFileOwner(STUDENT_PHOTO_OWNER, { ...photo, isOwn: ownStudent });

  const gradeReport = fileOwner('grade_report');
  if (gradeReport) {
    const reports = async (db: Trx, ids: readonly number[]) =>
      applicationsRepository.gradeReportsByIds(db, [...new Set(ids)]);
    registerFileOwner('grade_report', {
      ...gradeReport,
      label: async (db, ids, language) =>
        mapOf(
          await reports(db, ids),
          (r) => Number(r.id),
          (r) => `${studentName(r, language)} ${String(r.year)} ${String(r.term)}`,
        ),
      screens: async (db, ids) =>
        mapOf(
          await reports(db, ids),
          (r) => Number(r.id),
          (r) => `/students/grade-report/${Number(r.student_id)}`,
        ),
    });
  }

  // a checklist row's file is changed or removed through the row (its state moves with it), never on its own
  registerFileUsage({
    kind: DOCUMENT_FILE_OWNER,
    message: 'fileUseApplicationDocument',
    async usedBy(db, fileIds, language) {
      const rows = await applicationsRepository.documentsUsingFiles(db, fileIds);
      return mapOf(
        rows,
        (r) => Number(r.file_id),
        (r) =>
          `${nameIn(language, r.document_name_en, r.document_name_zh)} (${applicationName(r, language)})`,
      );
    },
    release: (db, fileId) => applicationsRepository.releaseFile(db, fileId),
  });
}

/**
 * The students' files (`registerStudentFileOwners`) and a checklist row's file route, with the app's files
 * service and the declared checklist rows' service.
 */
export function registerStudentFiles(
  api: ApiRouter,
  db: Knex,
  files: FilesService,
  resources: ReadonlyMap<string, ResourceService>,
): void {
  registerStudentFileOwners();
  const documents = resources.get(applicationDocuments.name);
  if (!documents) throw new Error(`The declared resource ${applicationDocuments.name} is not registered`);
  registerApplicationDocumentFileRoutes(
    api,
    db,
    files.storage,
    createApplicationDocumentFiles(files),
    documents,
  );
}

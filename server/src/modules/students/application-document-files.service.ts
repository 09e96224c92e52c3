import type { MessageKey } from '../../../../shared/messages';
import { applicationDocuments } from '../../../../shared/resources/students';
import type { Trx } from '../../db/knex';
import { userIdOf, type RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { toDbDateTime } from '../../lib/clock';
import type { Row } from '../../resources/resource';
import { numberOrNull } from '../../resources/rows';
import { auditService } from '../audit/audit.service';
import type { ReceivedUpload } from '../files/file-upload.middleware';
import type { FileGuard } from '../files/file-fields.service';
import type { FilesService } from '../files/files.service';
import { DOCUMENT_FILE_OWNER, FILE_ACTIONS } from './application-documents.resource';
import { applicationsRepository } from './applications.repository';

type FileAction = keyof typeof FILE_ACTIONS;

/** The message of the 409 when a row is in none of a file action's `from` states. */
const REFUSED: Record<FileAction, MessageKey> = {
  upload_file: 'documentCannotUpload',
  remove_file: 'documentCannotRemoveFile',
};

/** Whether a row's status allows the file action now (the route checks it early, the service under the lock). */
export function fileActionAllowed(action: FileAction, status: unknown): boolean {
  return (FILE_ACTIONS[action].from as readonly unknown[]).includes(status);
}

/** Refused with 409 and the action's own message unless the row's status allows it. */
export function assertFileAction(action: FileAction, row: Row): void {
  if (!fileActionAllowed(action, row.status)) throw new AppError('conflict', REFUSED[action]);
}

/**
 * A file into a checklist row and out of it (domain.md's table): the upload goes through the files service like
 * every upload (the owner's permission and branch, quota, suspension, content checks), and in the same
 * transaction the row — locked, its state checked again — takes the file and moves (P→U, N→U, U→U replacing the
 * file, whose row goes in that transaction and bytes after it), with an audit row named by the action
 * (`upload_file`, `remove_file`) holding the status and file before and after. Removing the file moves U→P.
 */
export function createApplicationDocumentFiles(files: FilesService) {
  const entity = applicationDocuments.name;

  /** The row, locked, in a state the action may start from; 404 when it is gone. */
  async function lockFor(trx: Trx, id: number, action: FileAction): Promise<Row> {
    const row = await applicationsRepository.lockDocument(trx, id);
    if (!row) throw new AppError('not_found');
    assertFileAction(action, row);
    return row;
  }

  /** Writes the move and its audit row. */
  async function move(trx: Trx, action: FileAction, before: Row, data: Row, ctx: RequestContext) {
    const id = Number(before.id);
    await applicationsRepository.updateDocument(trx, id, data, userIdOf(ctx));
    const after = await applicationsRepository.findDocument(trx, id);
    await auditService.record(trx, ctx, { action, entity, entityId: id, before, after });
  }

  return {
    /**
     * Stores `upload` as row `id`'s file: P→U, N→U, or U→U replacing (and deleting) the file it had. `guard` (the
     * portal's: the student's information not submitted) runs first in the transaction.
     */
    async upload(id: number, upload: ReceivedUpload, ctx: RequestContext, guard?: FileGuard): Promise<void> {
      let before: Row | null = null;
      await files.store(upload, { ownerType: DOCUMENT_FILE_OWNER, ownerId: id }, ctx, {
        replaces: async (trx) => {
          await guard?.(trx);
          before = await lockFor(trx, id, 'upload_file');
          return numberOrNull(before.file_id);
        },
        attach: async (trx, stored) => {
          const data = {
            status: 'uploaded',
            file_id: stored.id,
            uploaded_at: toDbDateTime(),
            submitted_at: null,
          };
          await move(trx, 'upload_file', before!, data, ctx);
        },
      });
    },

    /** Removes row `id`'s file (deleted, its bytes after the commit): U→P. `guard` as for `upload`. */
    async removeFile(id: number, ctx: RequestContext, guard?: FileGuard): Promise<void> {
      const data = { status: 'pending', file_id: null, uploaded_at: null };
      let before: Row | null = null;
      await files.remove(
        ctx,
        async (trx) => {
          await guard?.(trx);
          before = await lockFor(trx, id, 'remove_file');
          const fileId = numberOrNull(before.file_id);
          // an uploaded row whose file is gone already moves all the same
          if (fileId === null) await move(trx, 'remove_file', before, data, ctx);
          return fileId;
        },
        (trx) => move(trx, 'remove_file', before!, data, ctx),
      );
    },
  };
}

export type ApplicationDocumentFiles = ReturnType<typeof createApplicationDocumentFiles>;

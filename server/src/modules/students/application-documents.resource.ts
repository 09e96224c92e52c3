import {
  applicationDocuments,
  DOCUMENT_CODES,
  DOCUMENT_STATUSES,
  type DocumentStatus,
} from '../../../../shared/resources/students';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { toDbDateTime } from '../../lib/clock';
import type { AfterCommit, OwnAction } from '../../resources/resource';
import { apiDateTime, declaredRules, numberOrNull } from '../../resources/rows';
import { applicationsRepository } from './applications.repository';

/** The owner type of a checklist row's file (`files.owner_type`). */
export const DOCUMENT_FILE_OWNER = 'application_document';

/**
 * The moves a file makes (domain.md's table), served by the row's own file route
 * (application-document-files.routes.ts) and listed in `allowed_actions` like the declared moves: a file put in
 * moves P→U and N→U, and replaces the file of an uploaded row (U→U); removing it moves U→P.
 */
export const FILE_ACTIONS = {
  upload_file: { from: ['pending', 'uploaded', 'unsubmitted'] },
  remove_file: { from: ['uploaded'] },
} as const satisfies Record<string, OwnAction>;

/** A status's one-letter code (P/U/S/N/C), null for a value that is no status. */
export function documentCode(status: unknown): string | null {
  const known = (DOCUMENT_STATUSES as readonly unknown[]).includes(status);
  return known ? DOCUMENT_CODES[status as DocumentStatus] : null;
}

/** What deletes the files a checklist row owns: the rows in the caller's transaction, the bytes after its commit. */
export type RemoveOwnedFiles = (
  trx: Trx,
  ctx: RequestContext,
  ownerType: string,
  ownerId: number,
) => Promise<AfterCommit>;

/**
 * The rules of a checklist row beyond its declaration (shared/resources/students.ts): it shows its one-letter code,
 * its file's name (one query per page) and its times as ISO 8601; a submit stamps `submitted_at` and taking it
 * back clears it (a row carries a submission time exactly while it is submitted).
 *
 * Restoring a cancelled row (C→P) makes it pending, which means nothing is uploaded: a file it still had (it was
 * cancelled while uploaded or taken back, which keeps the file so the cancellation can be looked into) is deleted
 * with the restore — its row in the move's transaction, audited, its bytes once the move has committed — and a new
 * one is uploaded again (P→U). So a pending row never holds a file, and rebuilding an all-pending checklist (an
 * application moved to another intake) never loses one.
 */
export function applicationDocumentRules(removeOwned: RemoveOwnedFiles) {
  return declaredRules(applicationDocuments, {
    ownActions: FILE_ACTIONS,
    toResponse(row) {
      return {
        ...row,
        code: documentCode(row.status),
        uploaded_at: apiDateTime(row.uploaded_at),
        submitted_at: apiDateTime(row.submitted_at),
      };
    },
    async expand(db, rows) {
      const fileIds = rows.map((row) => numberOrNull(row.file_id)).filter((id): id is number => id !== null);
      const names = await applicationsRepository.fileNames(db, [...new Set(fileIds)]);
      return rows.map((row) => {
        const fileId = numberOrNull(row.file_id);
        return { ...row, file_name: fileId === null ? null : (names.get(fileId) ?? null) };
      });
    },
    async moveEffects(db, action, row, ctx) {
      if (action === 'submit') return { set: { submitted_at: toDbDateTime() } };
      if (action === 'unsubmit') return { set: { submitted_at: null } };
      if (action !== 'restore') return;
      const afterCommit = await removeOwned(db, ctx, DOCUMENT_FILE_OWNER, Number(row.id));
      return { set: { file_id: null, uploaded_at: null, submitted_at: null }, afterCommit };
    },
  });
}

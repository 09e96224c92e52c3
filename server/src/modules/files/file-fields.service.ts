import type { FieldDeclaration, ResourceDeclaration } from '../../../../shared/resources/declaration';
import { DECLARATIONS } from '../../../../shared/resources';
import type { Trx } from '../../db/knex';
import { userIdOf, type RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { auditService } from '../audit/audit.service';
import type { ReceivedUpload } from './file-upload.middleware';
import { filesRepository } from './files.repository';
import type { FilesService } from './files.service';

/**
 * A declared `file` field (`schools.logo_file_id`, a grade report's `file_id`), served at
 * `/api{path}/:id/{segment}` (a child's at its own path, where its record is found through its parents' scope).
 */
export interface FileField {
  decl: ResourceDeclaration;
  /** the column holding the file id (`logo_file_id`) */
  column: string;
  /** the path segment: the field's name without `_file_id` (or `_id`): `logo` */
  segment: string;
  field: Extract<FieldDeclaration, { type: 'file' }>;
}

/** Every declared file field of a resource served at its own path (a family's members have none today). */
export function declaredFileFields(): FileField[] {
  const out: FileField[] = [];
  for (const decl of DECLARATIONS) {
    if (decl.family) continue;
    for (const [column, field] of Object.entries(decl.fields)) {
      if (field.type !== 'file') continue;
      out.push({ decl, column, segment: column.replace(/(_file)?_id$/, ''), field });
    }
  }
  return out;
}

/** A caller's own check inside a file write's transaction, before anything changes (it throws to refuse). */
export type FileGuard = (trx: Trx) => Promise<void>;

/**
 * A record's file field set by uploading and cleared (decision 0008): the upload is stored under the field's
 * owner type for the record, the column set and the file it replaces deleted, in one transaction (rows, the
 * record's audit row and the files' own); clearing empties the column and deletes the file. The bytes on the
 * disk follow once the transaction has committed.
 */
export function createFileFieldsService(files: FilesService) {
  /** The record's current file, the record locked; 404 when the record is gone. */
  async function current(trx: Trx, target: FileField, id: number): Promise<number | null> {
    const { found, fileId } = await filesRepository.lockFileColumn(trx, target.decl.table, target.column, id);
    if (!found) throw new AppError('not_found');
    return fileId;
  }

  async function setColumn(
    trx: Trx,
    target: FileField,
    id: number,
    before: number | null,
    after: number | null,
    ctx: RequestContext,
  ): Promise<void> {
    const { decl, column } = target;
    if (!(await filesRepository.setFileColumn(trx, decl.table, column, id, after, userIdOf(ctx)))) {
      throw new AppError('not_found');
    }
    await auditService.record(trx, ctx, {
      action: 'update',
      entity: decl.name,
      entityId: id,
      before: { [column]: before },
      after: { [column]: after },
    });
  }

  return {
    /**
     * Stores `upload` as record `id`'s file in `target`, replacing (and deleting) the one it had. `guard` runs first
     * inside the transaction (a caller's own rule checked under its lock: a portal student's information not yet
     * submitted).
     */
    async set(
      target: FileField,
      id: number,
      upload: ReceivedUpload,
      ctx: RequestContext,
      guard?: FileGuard,
    ): Promise<void> {
      let previous: number | null = null;
      await files.store(upload, { ownerType: target.field.owner, ownerId: id }, ctx, {
        replaces: async (trx) => {
          await guard?.(trx);
          return (previous = await current(trx, target, id));
        },
        attach: (trx, stored) => setColumn(trx, target, id, previous, stored.id, ctx),
      });
    },

    /** Empties record `id`'s file in `target` and deletes the file; nothing to do when it has none. */
    async clear(target: FileField, id: number, ctx: RequestContext, guard?: FileGuard): Promise<void> {
      await files.remove(
        ctx,
        async (trx) => {
          await guard?.(trx);
          return current(trx, target, id);
        },
        (trx, file) => setColumn(trx, target, id, file.id, null, ctx),
      );
    },
  };
}

export type FileFieldsService = ReturnType<typeof createFileFieldsService>;

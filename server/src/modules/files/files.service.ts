import type { Knex } from 'knex';
import { STORAGE_WARNING_PERCENT, type StorageStatus, type StorageUsage } from '../../../../shared/files';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { logger } from '../../lib/logger';
import { auditService } from '../audit/audit.service';
import { readSettings } from '../settings/settings.service';
import { checkOwnerAccess } from './file-owners';
import type { FileStorage } from './file-storage';
import type { ReceivedUpload } from './file-upload.middleware';
import { filesRepository, type FileRow } from './files.repository';

const MB = 1024 * 1024;

export interface FileTarget {
  ownerType: string;
  ownerId: number;
}

export interface StoreHooks {
  /** the file this upload replaces (a new profile photo replaces the old one): read under the lock */
  replaces?(trx: Trx): Promise<number | null>;
  /** links the new file to its owner record, in the same transaction */
  attach?(trx: Trx, file: FileRow): Promise<void>;
}

function statusOf(percent: number, suspended: boolean): StorageStatus {
  if (suspended) return 'suspended';
  if (percent >= 100) return 'full';
  if (percent >= STORAGE_WARNING_PERCENT) return 'almost_full';
  return 'ok';
}

function summary(file: FileRow) {
  return {
    owner_type: file.owner_type,
    owner_id: file.owner_id,
    original_name: file.original_name,
    mime_type: file.mime_type,
    size_bytes: file.size_bytes,
    sha256: file.sha256,
    path: file.path,
  };
}

/**
 * Files and storage (domain.md): stores checked uploads on the disk and records them, within the quota;
 * serves them to callers who may see their owner record; deletes them. Rows and bytes on disk change
 * together: a refused or failed upload leaves neither.
 */
export function createFilesService(db: Knex, storage: FileStorage) {
  /** The quota and the admins' switch `storage_suspended` (general settings), which refuses every upload. */
  async function storageState(trx: Trx) {
    const settings = await readSettings(trx);
    return { quotaBytes: settings.storage_quota_mb * MB, suspended: settings.storage_suspended };
  }

  async function removeFromDisk(file: FileRow): Promise<void> {
    try {
      await storage.remove(file.path);
    } catch (error) {
      // the row is gone already; a stray file costs disk space, never access
      logger.warn('stored file could not be removed', { fileId: file.id, error: String(error) });
    }
  }

  return {
    storage,

    async usage(): Promise<StorageUsage> {
      const { quotaBytes, suspended } = await storageState(db);
      const used = await filesRepository.totalBytes(db);
      const percent = quotaBytes > 0 ? Math.round((used / quotaBytes) * 1000) / 10 : 100;
      return {
        used_bytes: used,
        quota_bytes: quotaBytes,
        percent,
        suspended,
        status: statusOf(percent, suspended),
      };
    },

    /**
     * Stores a checked upload for its owner. Under the storage lock: refused when storage is suspended or
     * the total would pass the quota (`Storage is full.`), else the file is moved in and its row inserted
     * (and `hooks` run) in one transaction. The temporary file is gone afterwards, whatever happened.
     */
    async store(
      upload: ReceivedUpload,
      target: FileTarget,
      ctx: RequestContext,
      hooks: StoreHooks = {},
    ): Promise<FileRow> {
      let moved: string | null = null;
      let replaced: FileRow | undefined;
      try {
        const branchId = await checkOwnerAccess(db, ctx, target.ownerType, target.ownerId, 'attach');
        const file = await db.transaction(async (trx) => {
          await filesRepository.lockStorage(trx);
          const { quotaBytes, suspended } = await storageState(trx);
          if (suspended) throw AppError.field('business_rule', 'file', 'storageSuspended');
          const replacedId = hooks.replaces ? await hooks.replaces(trx) : null;
          replaced = replacedId ? await filesRepository.findById(trx, replacedId) : undefined;
          const used = await filesRepository.totalBytes(trx);
          if (used - (replaced?.size_bytes ?? 0) + upload.size > quotaBytes) {
            throw AppError.field('business_rule', 'file', 'storageFull');
          }
          moved = await storage.moveIn(upload.tempPath, upload.extension);
          const row = await filesRepository.insert(trx, {
            disk: storage.disk,
            path: moved,
            original_name: upload.originalName,
            mime_type: upload.mimeType,
            size_bytes: upload.size,
            sha256: upload.sha256,
            owner_type: target.ownerType,
            owner_id: target.ownerId,
            branch_id: branchId,
            uploaded_by_user_id: ctx.actor.type === 'user' ? ctx.actor.id : null,
            uploaded_by_student_id: ctx.actor.type === 'student' ? ctx.actor.id : null,
          });
          await hooks.attach?.(trx, row);
          await auditService.record(trx, ctx, {
            action: 'create',
            entity: 'file',
            entityId: row.id,
            after: summary(row),
          });
          if (replaced) {
            await filesRepository.delete(trx, replaced.id);
            await auditService.record(trx, ctx, {
              action: 'delete',
              entity: 'file',
              entityId: replaced.id,
              before: summary(replaced),
            });
          }
          return row;
        });
        moved = null;
        if (replaced) await removeFromDisk(replaced);
        return file;
      } finally {
        if (moved) await storage.remove(moved).catch(() => undefined);
        await storage.removeTemp(upload.tempPath);
      }
    },

    /**
     * Deletes the file `pick` names (read under the storage lock), after `detach` has unlinked it from its
     * owner in the same transaction; then removes it from the disk. Null when there was none.
     */
    async remove(
      ctx: RequestContext,
      pick: (trx: Trx) => Promise<number | null>,
      detach: (trx: Trx, file: FileRow) => Promise<void>,
    ): Promise<FileRow | null> {
      const file = await db.transaction(async (trx) => {
        await filesRepository.lockStorage(trx);
        const id = await pick(trx);
        const row = id ? await filesRepository.findById(trx, id) : undefined;
        if (!row) return null;
        await detach(trx, row);
        await filesRepository.delete(trx, row.id);
        await auditService.record(trx, ctx, {
          action: 'delete',
          entity: 'file',
          entityId: row.id,
          before: summary(row),
        });
        return row;
      });
      if (file) await removeFromDisk(file);
      return file;
    },

    /**
     * Deletes the files of an owner record that is being deleted (a user's profile photo): the rows in the
     * owner's transaction `trx`, each audited; answers what removes them from the disk, for the caller to run
     * once that transaction has committed (a rolled-back delete leaves rows and bytes as they were).
     */
    async removeOwned(
      trx: Trx,
      ctx: RequestContext,
      ownerType: string,
      ownerId: number,
    ): Promise<() => Promise<void>> {
      const owned = await filesRepository.findByOwner(trx, ownerType, ownerId);
      for (const file of owned) {
        await filesRepository.delete(trx, file.id);
        await auditService.record(trx, ctx, {
          action: 'delete',
          entity: 'file',
          entityId: file.id,
          before: summary(file),
        });
      }
      return async () => {
        for (const file of owned) await removeFromDisk(file);
      };
    },

    /** A file the caller may see (its owner's permission and branch scope), and where it lies; else 404. */
    async forDownload(id: number, ctx: RequestContext): Promise<{ file: FileRow; absolutePath: string }> {
      const file = await filesRepository.findById(db, id);
      if (!file) throw new AppError('not_found');
      await checkOwnerAccess(db, ctx, file.owner_type, file.owner_id, 'view', file.branch_id);
      if (file.disk !== storage.disk || !(await storage.exists(file.path))) {
        logger.warn('file row without its stored file', { fileId: file.id });
        throw new AppError('not_found');
      }
      return { file, absolutePath: storage.resolve(file.path) };
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;

import type { Knex } from 'knex';
import {
  STORAGE_WARNING_PERCENT,
  fileKindOf,
  fileUrl,
  isPreviewable,
  type FileItem,
  type FileListQuery,
  type StorageStatus,
  type StorageUsage,
} from '../../../../shared/files';
import type { ListResponse } from '../../../../shared/list';
import { msg } from '../../../../shared/messages';
import { can } from '../../../../shared/permissions';
import { branches } from '../../../../shared/resources/branches';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { fromDbDateTime, toDbDateTime } from '../../lib/clock';
import { logger } from '../../lib/logger';
import { auditService } from '../audit/audit.service';
import { readSettings } from '../settings/settings.service';
import {
  checkOwnerAccess,
  fileOwner,
  fileOwnerTypes,
  fileScopeOf,
  holderOf,
  labelsOf,
  mayAttach,
} from './file-owners';
import type { FileStorage } from './file-storage';
import { fileUsesOf, releaseFile } from './file-usages';
import type { ReceivedUpload } from './file-upload.middleware';
import { filesRepository, type FileListParams, type FileRow, type ListedOwner } from './files.repository';

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

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC instant a Hong Kong day (`YYYY-MM-DD`) begins, as the database stores it (Hong Kong keeps UTC+8). */
function hongKongDayStart(date: string, plusDays = 0): string {
  return toDbDateTime(Date.parse(`${date}T00:00:00+08:00`) + plusDays * DAY_MS);
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

  /**
   * Deletes the file `pick` names (read under the storage lock), after `detach` has unlinked it from its
   * owner in the same transaction; then removes it from the disk. Null when there was none.
   */
  async function removeFile(
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
  }

  /**
   * The owner types a list shows: one record's files (`owner_type` + `owner_id`: the caller must see that record,
   * its view permission suffices), else — the media manager, `files.view` — every owner type whose view
   * permission the caller holds, the branch-bound ones' files of records in the caller's branch scope only.
   */
  async function listedOwners(query: FileListQuery, ctx: RequestContext): Promise<ListedOwner[]> {
    if (query.owner_id !== undefined) {
      if (!query.owner_type) throw AppError.field('validation', 'owner_type', 'required');
      await checkOwnerAccess(db, ctx, query.owner_type, query.owner_id, 'view');
      return [{ type: query.owner_type, ownerId: query.owner_id }];
    }
    const holder = holderOf(ctx);
    if (!can(holder, 'files.view')) throw new AppError('forbidden');
    const scope = ctx.branchScope;
    const out: ListedOwner[] = [];
    for (const type of fileOwnerTypes()) {
      const owner = fileOwner(type)!;
      if (query.owner_type && query.owner_type !== type) continue;
      if (!can(holder, owner.viewPermission)) continue;
      out.push({
        type,
        ...(scope && owner.branchScope ? { scope: { ...owner.branchScope, branchId: scope.branchId } } : {}),
      });
    }
    return out;
  }

  /**
   * Files as the API shows them (`FileItem`): the names of their owners, branches and uploaders in the caller's
   * language and what uses each, one query per relation for the whole page (per owner type for the owners).
   */
  async function present(trx: Trx, rows: FileRow[], ctx: RequestContext): Promise<FileItem[]> {
    const language = ctx.language;
    const byType = new Map<string, number[]>();
    for (const row of rows) byType.set(row.owner_type, [...(byType.get(row.owner_type) ?? []), row.owner_id]);
    const ownerNames = new Map<string, Map<number, string>>();
    const ownerScreens = new Map<string, Map<number, string>>();
    for (const [type, ids] of byType) {
      const owner = fileOwner(type);
      ownerNames.set(type, owner ? await owner.label(trx, ids, language) : new Map());
      if (owner?.screens) ownerScreens.set(type, await owner.screens(trx, ids));
    }
    const ids = (pick: (row: FileRow) => number | null) =>
      rows.map(pick).filter((id): id is number => id !== null);
    const branchNames = await labelsOf(
      trx,
      'branches',
      ids((r) => r.branch_id),
      branches.display,
      language,
    );
    const userNames = await labelsOf(
      trx,
      'users',
      ids((r) => r.uploaded_by_user_id),
      { en: ['name'], zh_HK: ['name'] },
      language,
    );
    const studentNames = await labelsOf(
      trx,
      'students',
      ids((r) => r.uploaded_by_student_id),
      { en: ['surname_en', 'given_name_en'], zh_HK: ['name_zh'] },
      language,
    );
    const uses = await fileUsesOf(
      trx,
      rows.map((r) => r.id),
      language,
    );
    const deletes = can(holderOf(ctx), 'files.delete');
    return rows.map((row) => {
      const owner = fileOwner(row.owner_type);
      const use = uses.get(row.id);
      const uploader =
        row.uploaded_by_user_id !== null
          ? userNames.get(row.uploaded_by_user_id)
          : row.uploaded_by_student_id !== null
            ? studentNames.get(row.uploaded_by_student_id)
            : undefined;
      return {
        id: row.id,
        original_name: row.original_name,
        mime_type: row.mime_type,
        kind: fileKindOf(row.mime_type),
        size_bytes: row.size_bytes,
        owner_type: row.owner_type,
        owner_id: row.owner_id,
        owner_label: ownerNames.get(row.owner_type)?.get(row.owner_id) ?? null,
        owner_url: ownerScreens.get(row.owner_type)?.get(row.owner_id) ?? owner?.screen(row.owner_id) ?? null,
        branch_id: row.branch_id,
        branch_name: row.branch_id === null ? null : (branchNames.get(row.branch_id) ?? null),
        uploaded_by_name: uploader ?? null,
        created_at: fromDbDateTime(row.created_at) ?? '',
        in_use: use ? { kind: use.kind, label: use.label } : null,
        can_delete: !use && deletes && Boolean(owner && mayAttach(ctx, owner)),
        url: fileUrl(row.id),
        preview_url: isPreviewable(row.mime_type) ? `${fileUrl(row.id)}?inline=1` : null,
      };
    });
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
        const { fileBranchId } = await checkOwnerAccess(db, ctx, target.ownerType, target.ownerId, 'attach');
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
            branch_id: fileBranchId,
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

    remove: removeFile,

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

    /**
     * `GET /api/files`: the files the caller may see (`listedOwners`, in the caller's file scope), filtered by
     * name, kind, Hong Kong dates and uploader, sorted and paged.
     */
    async list(query: FileListQuery, ctx: RequestContext): Promise<ListResponse<FileItem>> {
      const sort = query.sort ?? '-created_at';
      const params: FileListParams = {
        owners: await listedOwners(query, ctx),
        fileScope: fileScopeOf(ctx),
        q: query.q || undefined,
        kind: query.kind,
        createdFrom: query.created_from ? hongKongDayStart(query.created_from) : undefined,
        createdBefore: query.created_to ? hongKongDayStart(query.created_to, 1) : undefined,
        uploadedBy: query.uploaded_by,
        sort: {
          column: sort.replace(/^-/, '') as FileListParams['sort']['column'],
          direction: sort.startsWith('-') ? 'desc' : 'asc',
        },
        page: query.page,
        perPage: query.per_page,
      };
      const { rows, total, totalCapped } = await filesRepository.list(db, params, ctx.signal);
      return {
        items: await present(db, rows, ctx),
        total,
        ...(totalCapped ? { total_capped: true } : {}),
        page: query.page,
        per_page: query.per_page,
      };
    },

    /** A stored file as the API shows it (`POST /api/files` answers it). */
    async item(file: FileRow, ctx: RequestContext): Promise<FileItem> {
      const [item] = await present(db, [file], ctx);
      return item;
    },

    /**
     * `DELETE /api/files/:id`: a file the caller may see (else 404), of an owner it may attach to (else 403), that
     * nothing uses (else 409 naming the use: it is changed or removed through the record using it). The in-use
     * check runs under the storage lock, in the delete's transaction.
     */
    async deleteFile(id: number, ctx: RequestContext): Promise<void> {
      const file = await filesRepository.findById(db, id);
      if (!file) throw new AppError('not_found');
      await checkOwnerAccess(db, ctx, file.owner_type, file.owner_id, 'attach', file);
      const removed = await removeFile(
        ctx,
        async () => id,
        async (trx, row) => {
          const use = (await fileUsesOf(trx, [row.id], ctx.language)).get(row.id);
          if (use) throw new AppError('conflict', msg('fileInUse', { use: use.message }));
        },
      );
      if (!removed) throw new AppError('not_found');
    },

    /**
     * Deletes a file's row whose stored bytes are lost (the orphans command): whatever used it lets go of it, the
     * row goes with an audit row, in one transaction.
     */
    async removeLost(id: number, ctx: RequestContext): Promise<FileRow | null> {
      return removeFile(
        ctx,
        async () => id,
        (trx, row) => releaseFile(trx, row.id),
      );
    },

    /** A file the caller may see (its owner's permission and branch scope), and where it lies; else 404. */
    async forDownload(id: number, ctx: RequestContext): Promise<{ file: FileRow; absolutePath: string }> {
      const file = await filesRepository.findById(db, id);
      if (!file) throw new AppError('not_found');
      await checkOwnerAccess(db, ctx, file.owner_type, file.owner_id, 'view', file);
      if (file.disk !== storage.disk || !(await storage.exists(file.path))) {
        logger.warn('file row without its stored file', { fileId: file.id });
        throw new AppError('not_found');
      }
      return { file, absolutePath: storage.resolve(file.path) };
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;

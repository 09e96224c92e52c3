import type { Knex } from 'knex';
import { FILE_KIND_MIME_TYPES, type FileKind } from '../../../../shared/files';
import { guardedQuery, type Trx } from '../../db/knex';
import { containsPattern, orWhereContains } from '../../db/search';
import { toDbDateTime } from '../../lib/clock';

export interface FileRow {
  id: number;
  disk: string;
  path: string;
  original_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  owner_type: string;
  owner_id: number;
  branch_id: number | null;
  uploaded_by_user_id: number | null;
  uploaded_by_student_id: number | null;
  created_at: string;
}

export type NewFile = Omit<FileRow, 'id' | 'created_at'>;

/** The settings row every upload locks while it checks the quota and records itself (the migration adds it). */
export const STORAGE_LOCK_KEY = 'files_storage_lock';

/**
 * How the records of `table` are in a branch: `column` names the branch, or — with `parent` — holds the id of a
 * parent record that is in a branch that way (a checklist row → its application → its student's `branch_id`).
 */
export interface RecordBranchPath {
  table: string;
  column: string;
  parent?: RecordBranchPath;
}

/** One owner type in a list: its files (one record's with `ownerId`), those of records in `scope` only. */
export interface ListedOwner {
  type: string;
  ownerId?: number;
  /** how the owner records are in a branch, and the one branch whose records' files are listed */
  scope?: RecordBranchPath & { branchId: number | null };
}

/** The ids of the records of `path.table` in branch `branchId` (following the parents up). */
function idsInBranch(db: Trx, path: RecordBranchPath, branchId: number): Knex.QueryBuilder {
  const qb = db(path.table).select(`${path.table}.id`);
  return path.parent
    ? qb.whereIn(`${path.table}.${path.column}`, idsInBranch(db, path.parent, branchId))
    : qb.where(`${path.table}.${path.column}`, branchId);
}

export interface FileListParams {
  /** the owner types listed (none: nothing) */
  owners: readonly ListedOwner[];
  /** the caller's file scope: files filed under `branchId` or under none; null: every file */
  fileScope: { branchId: number | null } | null;
  q?: string;
  kind?: FileKind;
  /** `created_at >= createdFrom` and `< createdBefore` (database UTC text) */
  createdFrom?: string;
  createdBefore?: string;
  uploadedBy?: number;
  sort: { column: 'created_at' | 'original_name' | 'size_bytes'; direction: 'asc' | 'desc' };
  page: number;
  perPage: number;
}

/** A list counts at most this many files (beyond: `total_capped`). */
export const FILE_COUNT_CAP = 10_000;

const LISTED_KINDS = Object.values(FILE_KIND_MIME_TYPES).flat();

function applyKind(qb: Knex.QueryBuilder, kind: FileKind): void {
  if (kind === 'image') qb.where('files.mime_type', 'like', 'image/%');
  else if (kind === 'other')
    qb.whereNot('files.mime_type', 'like', 'image/%').whereNotIn('files.mime_type', LISTED_KINDS);
  else qb.whereIn('files.mime_type', FILE_KIND_MIME_TYPES[kind]);
}

/** The files a list shows, not yet sorted or paged. */
function listQuery(db: Trx, p: FileListParams): Knex.QueryBuilder {
  const qb = db('files');
  if (!p.owners.length) return qb.whereRaw('1 = 0');
  qb.where((any) => {
    for (const owner of p.owners) {
      any.orWhere((w) => {
        w.where('files.owner_type', owner.type);
        if (owner.ownerId !== undefined) w.where('files.owner_id', owner.ownerId);
        const scope = owner.scope;
        if (!scope) return;
        if (scope.branchId === null) w.whereRaw('1 = 0');
        else w.whereIn('files.owner_id', idsInBranch(db, scope, scope.branchId));
      });
    }
  });
  const fileScope = p.fileScope;
  if (fileScope) {
    qb.where((w) => {
      w.whereNull('files.branch_id');
      if (fileScope.branchId !== null) w.orWhere('files.branch_id', fileScope.branchId);
    });
  }
  if (p.q) qb.where((w) => orWhereContains(w, ['files.original_name'], containsPattern(p.q!)));
  if (p.kind) applyKind(qb, p.kind);
  if (p.createdFrom) qb.where('files.created_at', '>=', p.createdFrom);
  if (p.createdBefore) qb.where('files.created_at', '<', p.createdBefore);
  if (p.uploadedBy !== undefined) qb.where('files.uploaded_by_user_id', p.uploadedBy);
  return qb;
}

function toRow(row: Record<string, unknown> | undefined): FileRow | undefined {
  if (!row) return undefined;
  return {
    ...(row as unknown as FileRow),
    id: Number(row.id),
    size_bytes: Number(row.size_bytes),
    owner_id: Number(row.owner_id),
    branch_id: row.branch_id === null ? null : Number(row.branch_id),
  };
}

export const filesRepository = {
  /**
   * Takes the storage lock until the transaction ends (`SELECT … FOR UPDATE` on MySQL/MariaDB; on SQLite the
   * single writer connection already serialises transactions). Uploads check the quota and insert under it,
   * so two of them cannot both take the last free space.
   */
  async lockStorage(db: Trx): Promise<void> {
    const row = await db('settings').where({ key: STORAGE_LOCK_KEY }).forUpdate().first('id');
    if (row) return;
    const now = toDbDateTime();
    await db('settings')
      .insert({ key: STORAGE_LOCK_KEY, value: null, created_at: now, updated_at: now })
      .onConflict('key')
      .ignore();
    await db('settings').where({ key: STORAGE_LOCK_KEY }).forUpdate().first('id');
  },

  /** Bytes stored on every disk. */
  async totalBytes(db: Trx): Promise<number> {
    const row = await db('files').sum({ total: 'size_bytes' }).first();
    return Number(row?.total ?? 0);
  },

  async insert(db: Trx, file: NewFile): Promise<FileRow> {
    const created_at = toDbDateTime();
    const [id] = await db('files').insert({ ...file, created_at });
    return { ...file, id: Number(id), created_at };
  },

  async findById(db: Trx, id: number): Promise<FileRow | undefined> {
    return toRow(await db('files').where({ id }).first());
  },

  async findByPath(db: Trx, disk: string, path: string): Promise<FileRow | undefined> {
    return toRow(await db('files').where({ disk, path }).first());
  },

  /** Every file of one owner record (`owner_type`, `owner_id`). */
  async findByOwner(db: Trx, ownerType: string, ownerId: number): Promise<FileRow[]> {
    const rows = await db('files').where({ owner_type: ownerType, owner_id: ownerId }).orderBy('id');
    return rows.map((row: Record<string, unknown>) => toRow(row)!);
  },

  async delete(db: Trx, id: number): Promise<void> {
    await db('files').where({ id }).delete();
  },

  /** One page of a list (`listQuery`) and its count, capped at `FILE_COUNT_CAP`. */
  async list(
    db: Trx,
    params: FileListParams,
    signal?: AbortSignal,
  ): Promise<{ rows: FileRow[]; total: number; totalCapped: boolean }> {
    const { column, direction } = params.sort;
    const offset = (params.page - 1) * params.perPage;
    const page = listQuery(db, params)
      .select('files.*')
      .orderBy([
        { column: `files.${column}`, order: direction },
        { column: 'files.id', order: direction },
      ])
      .limit(params.perPage)
      .offset(offset);
    const rows = (await guardedQuery<Record<string, unknown>[]>(db, page, signal)).map((r) => toRow(r)!);
    // a page that is not full ends the list: its size is known without counting
    if (rows.length < params.perPage && (rows.length > 0 || offset === 0)) {
      return { rows, total: offset + rows.length, totalCapped: false };
    }
    const capped = listQuery(db, params)
      .select('files.id')
      .limit(FILE_COUNT_CAP + 1);
    const counted = await guardedQuery<{ n: number | string }[]>(
      db,
      db.from(capped.as('listed')).count({ n: '*' }),
      signal,
    );
    const total = Number(counted[0]?.n ?? 0);
    return total > FILE_COUNT_CAP
      ? { rows, total: FILE_COUNT_CAP, totalCapped: true }
      : { rows, total, totalCapped: false };
  },

  /** Files after `afterId` in id order, at most `size` (a walk over every row). */
  async batchAfter(db: Trx, afterId: number, size: number): Promise<FileRow[]> {
    const rows = await db('files').where('id', '>', afterId).orderBy('id').limit(size);
    return rows.map((row: Record<string, unknown>) => toRow(row)!);
  },

  /** `id` and `columns` of the rows of `table` with these ids (names of a page's owners, branches, uploaders). */
  namedRows(
    db: Trx,
    table: string,
    ids: readonly number[],
    columns: readonly string[],
  ): Promise<Record<string, unknown>[]> {
    return db(table)
      .whereIn('id', ids as number[])
      .select([...new Set(['id', ...columns])]);
  },

  /**
   * The branch of record `id` of `table` (`branchColumn`'s value; null when the records name none), undefined
   * when there is no such record.
   */
  async recordBranch(
    db: Trx,
    table: string,
    id: number,
    branchColumn: string | null,
  ): Promise<number | null | undefined> {
    const row = await db(table)
      .where({ id })
      .first(branchColumn ? ['id', branchColumn] : ['id']);
    if (!row) return undefined;
    const value = branchColumn ? row[branchColumn] : null;
    return value === null || value === undefined ? null : Number(value);
  },

  /**
   * The branch of record `id` of `path.table`, followed up its parents (null when the record names none),
   * undefined when there is no such record (or its parent is gone).
   */
  async branchThrough(db: Trx, path: RecordBranchPath, id: number): Promise<number | null | undefined> {
    const row = await db(path.table).where({ id }).first(['id', path.column]);
    if (!row) return undefined;
    const value = row[path.column];
    if (value === null || value === undefined) return null;
    return path.parent ? filesRepository.branchThrough(db, path.parent, Number(value)) : Number(value);
  },

  /** The records of `table` whose file column `column` holds one of `fileIds`. */
  async usersOfFiles(
    db: Trx,
    table: string,
    column: string,
    fileIds: readonly number[],
  ): Promise<{ fileId: number; recordId: number }[]> {
    if (!fileIds.length) return [];
    const rows = await db(table)
      .whereIn(column, fileIds as number[])
      .select('id', column);
    return rows.map((row: Record<string, unknown>) => ({
      fileId: Number(row[column]),
      recordId: Number(row.id),
    }));
  },

  /** Empties `column` of the records of `table` holding file `fileId`. */
  async clearFileColumn(db: Trx, table: string, column: string, fileId: number): Promise<void> {
    await db(table)
      .where(column, fileId)
      .update({ [column]: null });
  },

  /**
   * The file id a record's file column holds, the record locked until the transaction ends (its file is being
   * replaced or removed); `found` false when there is no such record.
   */
  async lockFileColumn(
    db: Trx,
    table: string,
    column: string,
    id: number,
  ): Promise<{ found: boolean; fileId: number | null }> {
    const row = await db(table).where({ id }).forUpdate().first(['id', column]);
    if (!row) return { found: false, fileId: null };
    return { found: true, fileId: row[column] === null ? null : Number(row[column]) };
  },

  /** Sets a record's file column (and who changed it when); answers whether there was such a record. */
  async setFileColumn(
    db: Trx,
    table: string,
    column: string,
    id: number,
    fileId: number | null,
    actorId: number | null,
  ): Promise<boolean> {
    const changed = await db(table)
      .where({ id })
      .update({ [column]: fileId, updated_at: toDbDateTime(), updated_by: actorId });
    return Number(changed) > 0;
  },
};

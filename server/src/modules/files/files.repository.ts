import type { Trx } from '../../db/knex';
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

  /** Every file of one owner record (`owner_type`, `owner_id`). */
  async findByOwner(db: Trx, ownerType: string, ownerId: number): Promise<FileRow[]> {
    const rows = await db('files').where({ owner_type: ownerType, owner_id: ownerId }).orderBy('id');
    return rows.map((row: Record<string, unknown>) => toRow(row)!);
  },

  async delete(db: Trx, id: number): Promise<void> {
    await db('files').where({ id }).delete();
  },
};

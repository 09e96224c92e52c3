import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export interface SequenceKey {
  document: string;
  branch_id: number;
  year: number;
}

export const numberingRepository = {
  /**
   * The format setting's value, its row locked until the transaction ends (`SELECT … FOR UPDATE` on MySQL;
   * on SQLite the single writer serialises). Every number of one document type is taken under this lock,
   * so that creating a year's first sequence row never races (two inserts of one key would deadlock on
   * InnoDB's gap locks).
   */
  async lockFormat(db: Trx, key: string, fallback: string): Promise<string> {
    let row = await db('settings').where({ key }).forUpdate().first('value');
    if (!row) {
      const now = toDbDateTime();
      await db('settings')
        .insert({ key, value: fallback, created_at: now, updated_at: now })
        .onConflict('key')
        .ignore();
      row = await db('settings').where({ key }).forUpdate().first('value');
    }
    return row?.value || fallback;
  },

  async readFormat(db: Trx, key: string): Promise<string | null> {
    const row = await db('settings').where({ key }).first('value');
    return row?.value ?? null;
  },

  async findSequence(
    db: Trx,
    key: SequenceKey,
    lock: boolean,
  ): Promise<{ id: number; next_value: number } | undefined> {
    const qb = db('number_sequences').where(key);
    if (lock) qb.forUpdate();
    const row = await qb.first('id', 'next_value');
    return row ? { id: Number(row.id), next_value: Number(row.next_value) } : undefined;
  },

  async insertSequence(db: Trx, key: SequenceKey, nextValue: number): Promise<void> {
    const now = toDbDateTime();
    await db('number_sequences').insert({ ...key, next_value: nextValue, created_at: now, updated_at: now });
  },

  async setNext(db: Trx, id: number, nextValue: number): Promise<void> {
    await db('number_sequences').where({ id }).update({ next_value: nextValue, updated_at: toDbDateTime() });
  },

  async branchCode(db: Trx, branchId: number): Promise<string | null> {
    const row = await db('branches').where({ id: branchId }).first('code');
    return row?.code ?? null;
  },
};

import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export const settingsRepository = {
  async get(db: Trx, key: string): Promise<string | null> {
    const row = await db('settings').where({ key }).first('value');
    return row?.value ?? null;
  },
  /** Several keys in one query; a key never saved is absent. */
  async getMany(db: Trx, keys: readonly string[]): Promise<Record<string, string | null>> {
    const rows: { key: string; value: string | null }[] = await db('settings')
      .whereIn('key', [...keys])
      .select('key', 'value');
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  },
  async set(db: Trx, key: string, value: string | null, actorId: number | null = null): Promise<void> {
    const now = toDbDateTime();
    await db('settings')
      .insert({ key, value, created_at: now, updated_at: now, created_by: actorId, updated_by: actorId })
      .onConflict('key')
      .merge(['value', 'updated_at', 'updated_by']);
  },
};

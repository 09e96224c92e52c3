import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export const settingsRepository = {
  async get(db: Trx, key: string): Promise<string | null> {
    const row = await db('settings').where({ key }).first('value');
    return row?.value ?? null;
  },
  async set(db: Trx, key: string, value: string | null): Promise<void> {
    const now = toDbDateTime();
    await db('settings')
      .insert({ key, value, created_at: now, updated_at: now })
      .onConflict('key')
      .merge(['value', 'updated_at']);
  },
};

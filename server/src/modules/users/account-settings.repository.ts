import type { Trx } from '../../db/knex';

/** Several settings keys in one query (feature flags, the 2FA requirement, SMTP). */
export const accountSettingsRepository = {
  async getMany(db: Trx, keys: readonly string[]): Promise<Record<string, string | null>> {
    const rows: { key: string; value: string | null }[] = await db('settings')
      .whereIn('key', [...keys])
      .select('key', 'value');
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  },
};

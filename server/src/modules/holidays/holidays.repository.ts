import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export const holidaysRepository = {
  async existingDates(db: Trx, dates: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < dates.length; i += 500) {
      const rows = await db('holidays')
        .whereIn('date', dates.slice(i, i + 500))
        .select('date');
      for (const r of rows) found.add(String(r.date).slice(0, 10));
    }
    return found;
  },

  async insert(
    db: Trx,
    row: { date: string; name_en: string; name_zh: string },
    actorId: number | null,
  ): Promise<Record<string, unknown>> {
    const now = toDbDateTime();
    const data = { ...row, created_at: now, updated_at: now, created_by: actorId, updated_by: actorId };
    const [id] = await db('holidays').insert(data);
    return { id: Number(id), ...data };
  },
};

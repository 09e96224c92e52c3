import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export const termsRepository = {
  async count(db: Trx, table: string): Promise<number> {
    const row = await db(table).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  },

  /** Every other row of the table stops being the default (in the caller's transaction); their ids. */
  async unsetOtherDefaults(db: Trx, table: string, id: number, actorId: number | null): Promise<number[]> {
    const others = await db(table).where({ is_default: true }).whereNot({ id }).select('id');
    const ids = others.map((r) => Number(r.id));
    if (ids.length) {
      await db(table)
        .whereIn('id', ids)
        .update({ is_default: false, updated_at: toDbDateTime(), updated_by: actorId });
    }
    return ids;
  },
};

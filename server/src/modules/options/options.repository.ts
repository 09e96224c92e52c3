import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export const optionsRepository = {
  /** How many rows of `table` hold each of `values` in `column`. */
  async countValues(db: Trx, table: string, column: string, values: string[]): Promise<Map<string, number>> {
    const rows: { value: unknown; n: unknown }[] = await db(table)
      .whereIn(column, values)
      .groupBy(column)
      .select({ value: column })
      .count({ n: '*' });
    return new Map(rows.map((r) => [String(r.value), Number(r.n)]));
  },

  async idsOf(db: Trx, key: string): Promise<number[]> {
    const rows = await db('options').where({ key }).select('id');
    return rows.map((r) => Number(r.id));
  },

  async setSortOrder(db: Trx, id: number, sortOrder: number, actorId: number | null): Promise<void> {
    await db('options')
      .where({ id })
      .update({ sort_order: sortOrder, updated_at: toDbDateTime(), updated_by: actorId });
  },

  async summary(db: Trx): Promise<{ key: string; total: number; active: number }[]> {
    const rows: { key: unknown; total: unknown; active: unknown }[] = await db('options')
      .groupBy('key')
      .select('key')
      .count({ total: '*' })
      .sum({ active: db.raw('case when is_active then 1 else 0 end') });
    return rows.map((r) => ({ key: String(r.key), total: Number(r.total), active: Number(r.active ?? 0) }));
  },

  async maxSortOrder(db: Trx, key: string): Promise<number> {
    const row = await db('options').where({ key }).max({ max: 'sort_order' }).first();
    return Number(row?.max ?? 0);
  },

  async activeOf(
    db: Trx,
    keys: readonly string[],
  ): Promise<{ key: string; value: string; label_en: string; label_zh: string }[]> {
    return db('options')
      .whereIn('key', keys)
      .where({ is_active: true })
      .orderBy(['key', 'sort_order', 'id'])
      .select('key', 'value', 'label_en', 'label_zh');
  },

  async findActive(db: Trx, key: string, value: string): Promise<{ id: number } | undefined> {
    return db('options').where({ key, value, is_active: true }).first('id');
  },

  hasTable(db: Trx, table: string): Promise<boolean> {
    return db.schema.hasTable(table);
  },

  hasColumn(db: Trx, table: string, column: string): Promise<boolean> {
    return db.schema.hasColumn(table, column);
  },
};

import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export interface ApiTokenRow {
  id: number;
  user_id: number;
  name: string;
  token_hash: string;
  abilities: string;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export const apiTokensRepository = {
  findByHash(db: Trx, hash: string): Promise<ApiTokenRow | undefined> {
    return db('api_tokens').where({ token_hash: hash }).first();
  },
  findForUser(db: Trx, userId: number, id: number): Promise<ApiTokenRow | undefined> {
    return db('api_tokens').where({ user_id: userId, id }).first();
  },
  listForUser(db: Trx, userId: number): Promise<ApiTokenRow[]> {
    return db('api_tokens').where({ user_id: userId }).orderBy('id', 'desc');
  },
  async insert(
    db: Trx,
    row: { user_id: number; name: string; token_hash: string; abilities: string; expires_at: string | null },
  ): Promise<number> {
    const now = toDbDateTime();
    const [id] = await db('api_tokens').insert({ ...row, created_at: now, updated_at: now });
    return Number(id);
  },
  async update(db: Trx, id: number, data: { name?: string; abilities?: string }): Promise<void> {
    await db('api_tokens')
      .where({ id })
      .update({ ...data, updated_at: toDbDateTime() });
  },
  async touch(db: Trx, id: number): Promise<void> {
    await db('api_tokens').where({ id }).update({ last_used_at: toDbDateTime() });
  },
  async delete(db: Trx, id: number): Promise<void> {
    await db('api_tokens').where({ id }).delete();
  },
  async deleteForUser(db: Trx, userId: number): Promise<number> {
    return db('api_tokens').where({ user_id: userId }).delete();
  },
};

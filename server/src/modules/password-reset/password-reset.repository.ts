import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export const passwordResetRepository = {
  /** One live token per address: a new request replaces the old one. */
  async put(db: Trx, email: string, tokenHash: string): Promise<void> {
    await db('password_reset_tokens').where({ email }).delete();
    await db('password_reset_tokens').insert({ email, token_hash: tokenHash, created_at: toDbDateTime() });
  },
  find(
    db: Trx,
    email: string,
  ): Promise<{ id: number; email: string; token_hash: string; created_at: string } | undefined> {
    return db('password_reset_tokens').where({ email }).first();
  },
  /** Spends the token: true for exactly one caller. */
  async take(db: Trx, id: number): Promise<boolean> {
    return (await db('password_reset_tokens').where({ id }).delete()) === 1;
  },
};

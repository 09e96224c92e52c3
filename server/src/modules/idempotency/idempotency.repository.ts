import type { Knex } from 'knex';
import { toDbDateTime } from '../../lib/clock';

export interface IdempotencyRow {
  id: number;
  scope: string;
  idempotency_key: string;
  request_hash: string;
  status: 'pending' | 'done';
  response_status: number | null;
  response_body: string | null;
  expires_at: string;
}

export const idempotencyRepository = {
  find(db: Knex, scope: string, key: string): Promise<IdempotencyRow | undefined> {
    return db('idempotency_keys').where({ scope, idempotency_key: key }).first();
  },
  /** Claims the key for this request: false when another request holds it (the unique index decides). */
  async claim(
    db: Knex,
    row: { scope: string; key: string; requestHash: string; now: number; ttlMs: number },
  ): Promise<boolean> {
    try {
      await db('idempotency_keys').insert({
        scope: row.scope,
        idempotency_key: row.key,
        request_hash: row.requestHash,
        status: 'pending',
        created_at: toDbDateTime(row.now),
        expires_at: toDbDateTime(row.now + row.ttlMs),
      });
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw err;
    }
  },
  async complete(db: Knex, id: number, status: number, body: string): Promise<void> {
    await db('idempotency_keys')
      .where({ id })
      .update({ status: 'done', response_status: status, response_body: body });
  },
  async release(db: Knex, id: number): Promise<void> {
    await db('idempotency_keys').where({ id }).delete();
  },
  /** Removes expired keys (the one of `scope`/`key`, or all): answers how many. */
  deleteExpired(db: Knex, now: number, only?: { scope: string; key: string }): Promise<number> {
    const qb = db('idempotency_keys').where('expires_at', '<=', toDbDateTime(now));
    if (only) qb.where({ scope: only.scope, idempotency_key: only.key });
    return qb.delete();
  },
};

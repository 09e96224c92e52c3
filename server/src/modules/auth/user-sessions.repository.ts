import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export interface UserSessionRow {
  id: number;
  session_id_hash: string;
  user_id: number | null;
  student_id: number | null;
  ip: string | null;
  user_agent: string | null;
  last_active_at: string;
}

/** One row per signed-in browser, whatever the session store: the source of truth for "is this session live". */
export const userSessionsRepository = {
  async create(
    db: Trx,
    row: {
      session_id_hash: string;
      user_id?: number;
      student_id?: number;
      ip: string | null;
      user_agent: string | null;
    },
  ): Promise<void> {
    const now = toDbDateTime();
    await db('user_sessions').insert({ ...row, last_active_at: now, created_at: now, updated_at: now });
  },
  findByHash(db: Trx, hash: string): Promise<UserSessionRow | undefined> {
    return db('user_sessions').where({ session_id_hash: hash }).first();
  },
  async touch(db: Trx, id: number, ip: string | null): Promise<void> {
    const now = toDbDateTime();
    await db('user_sessions').where({ id }).update({ last_active_at: now, updated_at: now, ip });
  },
  async deleteByHash(db: Trx, hash: string): Promise<void> {
    await db('user_sessions').where({ session_id_hash: hash }).delete();
  },
  async deleteForUser(db: Trx, userId: number): Promise<number> {
    return db('user_sessions').where({ user_id: userId }).delete();
  },
  listForUser(db: Trx, userId: number): Promise<UserSessionRow[]> {
    return db('user_sessions').where({ user_id: userId }).orderBy('last_active_at', 'desc');
  },
  /**
   * Removes the rows of sessions that can no longer be used: idle since `idleBefore` or begun before
   * `startedBefore` (UTC database times). Answers how many went.
   */
  async deleteExpired(db: Trx, idleBefore: string, startedBefore: string): Promise<number> {
    return db('user_sessions')
      .where('last_active_at', '<', idleBefore)
      .orWhere('created_at', '<', startedBefore)
      .delete();
  },
  /** Ends every browser session of the user but the one whose hash is kept. */
  async deleteOthers(db: Trx, userId: number, keepHash: string): Promise<number> {
    return db('user_sessions').where({ user_id: userId }).whereNot({ session_id_hash: keepHash }).delete();
  },
};

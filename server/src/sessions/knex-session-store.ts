import session from 'express-session';
import type { Knex } from 'knex';

/**
 * Expiry here is housekeeping on the real clock, as express-session computes the cookie's expiry; the idle and
 * absolute timeouts are enforced by the authenticate middleware.
 *
 * express-session store in the application database (the embedded default, and MySQL without Redis).
 * This and the repositories are the only code that touch Knex.
 */
export class KnexSessionStore extends session.Store {
  private lastSweep = 0;

  constructor(
    private readonly db: Knex,
    private readonly defaultTtlMs: number,
  ) {
    super();
  }

  private expiresAt(sess: session.SessionData): number {
    const expires = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : null;
    return expires ?? Date.now() + this.defaultTtlMs;
  }

  override get(sid: string, cb: (err: unknown, sess?: session.SessionData | null) => void): void {
    this.db('sessions')
      .where({ sid })
      .first()
      .then((row) => {
        if (!row || Number(row.expires_at) <= Date.now()) return cb(null, null);
        cb(null, JSON.parse(row.sess));
      }, cb);
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const row = { sid, sess: JSON.stringify(sess), expires_at: this.expiresAt(sess) };
    this.db('sessions')
      .insert(row)
      .onConflict('sid')
      .merge(['sess', 'expires_at'])
      .then(() => this.sweep())
      .then(
        () => cb?.(),
        (err) => cb?.(err),
      );
  }

  /**
   * Nothing to write. express-session touches every unchanged session at the end of every request, which here
   * would be one UPDATE per request; the row's expiry already covers the session's whole life (it is written
   * with the cookie's expiry, the absolute timeout, whenever the session is saved, and the authenticate
   * middleware saves it at least once a minute of activity), and the timeouts are enforced from the session
   * data, not from this column.
   */
  override touch(_sid: string, _sess: session.SessionData, cb?: (err?: unknown) => void): void {
    cb?.();
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    this.db('sessions')
      .where({ sid })
      .delete()
      .then(
        () => cb?.(),
        (err) => cb?.(err),
      );
  }

  /** Expired rows are removed at most once a minute, on a write (and by the sweeper, sweep.ts). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await KnexSessionStore.sweepExpired(this.db, now);
  }

  static async sweepExpired(db: Knex, now: number): Promise<number> {
    return db('sessions').where('expires_at', '<=', now).delete();
  }
}

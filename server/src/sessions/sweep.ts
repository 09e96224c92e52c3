import type { Knex } from 'knex';
import type { Config } from '../config';
import { clock, toDbDateTime } from '../lib/clock';
import { userSessionsRepository } from '../modules/auth/user-sessions.repository';
import { createIdempotencyService } from '../modules/idempotency/idempotency.service';
import { KnexSessionStore } from './knex-session-store';

/** user_sessions.last_active_at is written at most once a minute: a row this much older than idle is dead. */
const TOUCH_SLACK_MS = 2 * 60_000;

/**
 * Expired sessions go (quality §36): the browser-session rows of sessions past their idle or absolute limit,
 * and the embedded store's expired rows (Redis expires its own by TTL). Run at start-up and every few minutes.
 */
export async function sweepExpiredSessions(db: Knex, config: Config, now = clock.now()): Promise<number> {
  const idleBefore = toDbDateTime(now - config.session.idleMs - TOUCH_SLACK_MS);
  const startedBefore = toDbDateTime(now - config.session.absoluteMs);
  const rows = await userSessionsRepository.deleteExpired(db, idleBefore, startedBefore);
  if (!config.redisUrl) await KnexSessionStore.sweepExpired(db, now);
  return rows;
}

/**
 * Sweeps now and every `everyMs` until stopped (the timer never keeps the process alive): expired sessions, and
 * idempotency keys past their 24 hours.
 */
export function startSessionSweeper(db: Knex, config: Config, everyMs = 10 * 60_000): () => void {
  const keys = createIdempotencyService(db);
  const run = () => {
    void sweepExpiredSessions(db, config).catch(() => undefined);
    void keys.sweep().catch(() => undefined);
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

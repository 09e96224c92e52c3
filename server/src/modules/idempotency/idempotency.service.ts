import type { Knex } from 'knex';
import { AppError } from '../../lib/app-error';
import { clock, toDbDateTime } from '../../lib/clock';
import { logger } from '../../lib/logger';
import { idempotencyRepository } from './idempotency.repository';

/** How long a key and its answer are kept (issue 28: 24 h, in the database, so every instance sees them). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** How long a repeat waits for the first request's answer before it is told the first is still running. */
const WAIT_MS = 15_000;
const POLL_MS = 25;

export type IdempotentStart =
  { kind: 'run'; id: number } | { kind: 'replay'; status: number; body: string | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An `Idempotency-Key` of one caller (quality.md 25): the first request with it claims it and runs; every later
 * one with the same key and the same request gets the first one's answer (waiting for it while the first still
 * runs), on any instance, for 24 hours; the same key with another request is refused. A first request that ended
 * in a server error lets the key go, so a retry runs again.
 */
export function createIdempotencyService(db: Knex) {
  return {
    async begin(scope: string, key: string, requestHash: string): Promise<IdempotentStart> {
      const started = Date.now();
      for (;;) {
        const now = clock.now();
        if (
          await idempotencyRepository.claim(db, { scope, key, requestHash, now, ttlMs: IDEMPOTENCY_TTL_MS })
        ) {
          const row = await idempotencyRepository.find(db, scope, key);
          return { kind: 'run', id: row!.id };
        }
        const held = await idempotencyRepository.find(db, scope, key);
        if (!held) continue; // let go in between: claim again
        if (String(held.expires_at) <= toDbDateTime(now)) {
          await idempotencyRepository.deleteExpired(db, now, { scope, key });
          continue;
        }
        if (held.request_hash !== requestHash) throw new AppError('idempotency_key_reused');
        if (held.status === 'done') {
          return { kind: 'replay', status: Number(held.response_status), body: held.response_body };
        }
        if (Date.now() - started > WAIT_MS) throw new AppError('idempotency_in_progress');
        await sleep(POLL_MS);
      }
    },

    /** Keeps the first answer (or lets the key go after a server error, so a retry runs again). */
    async finish(id: number, status: number, body: string): Promise<void> {
      try {
        if (status >= 500) await idempotencyRepository.release(db, id);
        else await idempotencyRepository.complete(db, id, status, body);
      } catch (err) {
        logger.error('idempotency key not recorded', { error: String(err) });
      }
    },

    sweep(): Promise<number> {
      return idempotencyRepository.deleteExpired(db, clock.now());
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

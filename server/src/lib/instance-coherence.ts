import type { RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { changeEvents, EVERY_TABLE } from './change-events';
import { logger } from './logger';

/**
 * Keeps the in-process caches of every app instance on one database true to it (quality.md 29; decision 0013).
 *
 * Each committed change is announced in Redis by bumping the changed tables' counters in one hash
 * (`HINCRBY {prefix}changes <table> 1`), and the writer's answer waits until Redis has taken it. Each request, on
 * any instance, first reads that hash (`HGETALL`, one round trip on the Redis that holds the sessions anyway) and
 * drops what the counters say changed since its instance last looked. So the very next request after a change —
 * made on whichever instance — is decided on fresh rows: the order is given by Redis, not by the timing of a
 * message. (A pub/sub message would arrive *some time* after the writer answered; a request reaching the other
 * instance in that gap would still be served from the old cache.)
 *
 * Fails closed: when Redis cannot be read or written (down, too slow), the caches are suspended — every request
 * reads the database — until the hash can be read again; an instance whose announcement was lost then bumps `*`,
 * which empties every instance's caches. A Redis restart empties the hash: counters that went away count as
 * changed.
 */
export interface InstanceCoherence {
  /** first on every API request: drops what other instances changed; holds the answer until its own changes are out */
  middleware: RequestHandler;
  /** stops announcing (the app is closing) */
  close(): void;
}

/** how long a request waits for Redis before it goes on without the caches */
const READ_TIMEOUT_MS = 1_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function createInstanceCoherence(redis: Redis, prefix: string): InstanceCoherence {
  const key = `${prefix}changes`;
  /** the counters as this instance last read them */
  let seen: Record<string, string> | null = null;
  let suspended = false;
  /** an announcement of ours was lost: tell everyone that everything changed, once Redis is back */
  let lost = false;

  function suspend(reason: unknown): void {
    if (!suspended) {
      suspended = true;
      changeEvents.suspendCaches();
      logger.warn('Redis cannot be reached: caches suspended, every request reads the database', {
        error: String(reason),
      });
    }
  }

  function resume(): void {
    if (!suspended) return;
    suspended = false;
    changeEvents.resumeCaches();
    logger.info('Redis reached again: caches resumed');
  }

  const stopAnnouncing = changeEvents.announceWith(async (tables) => {
    if (redis.status === 'end') return;
    try {
      const batch = redis.multi();
      for (const table of tables) batch.hincrby(key, table, 1);
      await within(batch.exec(), READ_TIMEOUT_MS);
    } catch (err) {
      lost = true;
      suspend(err);
    }
  });

  /** The first connection of a starting instance is waited for (briefly); a lost one is not. */
  let everReady = redis.status === 'ready';
  const firstReady = everReady
    ? Promise.resolve()
    : new Promise<void>((resolve) =>
        redis.once('ready', () => {
          everReady = true;
          resolve();
        }),
      );

  /** Reads the counters and drops what changed; throws when the caches must not be used for this request. */
  async function sync(): Promise<void> {
    if (!everReady && redis.status !== 'end') await within(firstReady, READ_TIMEOUT_MS);
    if (redis.status !== 'ready') throw new Error(`Redis is ${redis.status}`);
    if (lost) {
      await within(redis.hincrby(key, EVERY_TABLE, 1), READ_TIMEOUT_MS);
      lost = false;
    }
    const now = await within(redis.hgetall(key), READ_TIMEOUT_MS);
    if (seen) {
      const changed = new Set<string>();
      for (const [table, count] of Object.entries(now)) if (seen[table] !== count) changed.add(table);
      for (const table of Object.keys(seen)) if (!(table in now)) changed.add(table);
      if (changed.size) void changeEvents.emit([...changed], 'remote');
    } else {
      // the first look: nothing cached can predate it that this instance did not see change itself
      void changeEvents.emit([EVERY_TABLE], 'remote');
    }
    seen = now;
  }

  /** The answer goes out once this request's own changes have reached Redis. */
  function holdUntilAnnounced(res: Response): void {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const pending = changeEvents.announced();
      if (!pending) return end(...args);
      void pending.then(() => end(...args));
      return res;
    }) as Response['end'];
  }

  return {
    middleware: (req, res, next) => {
      changeEvents.trackAnnouncements(() => {
        holdUntilAnnounced(res);
        sync().then(
          () => {
            resume();
            next();
          },
          (err: unknown) => {
            suspend(err);
            next();
          },
        );
      });
    },
    close: stopAnnouncing,
  };
}

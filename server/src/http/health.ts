import express, { type RequestHandler, type Router } from 'express';
import type { Redis } from 'ioredis';
import type { DatabaseReadiness } from '../db/readiness';

/**
 * The instance's life as the load balancer sees it: serving, or stopping (SIGTERM). While it stops, `/readyz`
 * answers 503 so that the proxy's health check takes the instance out, and every answer carries
 * `Connection: close` so that no kept-alive connection outlives it (main.ts closes the listener after the drain).
 */
export function createLifecycle() {
  let stopping = false;
  return {
    get stopping(): boolean {
      return stopping;
    },
    stop(): void {
      stopping = true;
    },
    /** Sets `Connection: close` on every answer once the instance is stopping. */
    closeWhenStopping: ((_req, res, next) => {
      if (stopping) res.setHeader('Connection', 'close');
      next();
    }) as RequestHandler,
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;

/** How long Redis has to answer a PING before it counts as unreachable. */
const REDIS_TIMEOUT_MS = 1000;

async function redisReachable(redis: Redis): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), REDIS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([redis.ping().then((answer) => answer === 'PONG'), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz`: the process answers (200, nothing else is asked). `GET /readyz`: this instance should get traffic —
 * the database answers, every migration of this code is applied, Redis answers when it is configured, and the
 * instance is not stopping; else 503 naming what is not. Both are outside `/api`: no session, cookie, CSRF token or
 * request log, and no answer that a person reads (compose's healthchecks and Caddy's active health checks call them).
 */
export function healthRouter(deps: {
  database: () => Promise<DatabaseReadiness>;
  redis?: Redis;
  lifecycle: Lifecycle;
}): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [database, redis] = await Promise.all([
      deps.database(),
      deps.redis ? redisReachable(deps.redis) : Promise.resolve(null),
    ]);
    const checks = {
      database: database.reachable ? 'ok' : 'unreachable',
      migrations:
        database.pending === null
          ? 'unknown'
          : database.pending === 0
            ? 'current'
            : `${database.pending} pending`,
      redis: redis === null ? 'not configured' : redis ? 'ok' : 'unreachable',
      instance: deps.lifecycle.stopping ? 'stopping' : 'serving',
    };
    const ready = database.reachable && database.pending === 0 && redis !== false && !deps.lifecycle.stopping;
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
  return router;
}

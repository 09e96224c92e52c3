import type { Request } from 'express';
import { rateLimit, ipKeyGenerator, type Store, type RateLimitRequestHandler } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error';
import { clock } from '../lib/clock';

export interface ThrottleOptions {
  name: string;
  limit: number;
  windowMs: number;
  key: (req: Request) => string;
  /** count only refused attempts (responses ≥ 400) */
  failuresOnly?: boolean;
}

export type Throttle = RateLimitRequestHandler;

/** Builds express-rate-limit throttles on one store: Redis when configured (shared by every instance), else memory. */
export function throttleFactory(redis: Redis | undefined, prefix: string) {
  return (opts: ThrottleOptions): Throttle => {
    const store: Store | undefined = redis
      ? new RedisStore({
          prefix: `${prefix}rl:${opts.name}:`,
          sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as never,
        })
      : undefined;
    return rateLimit({
      windowMs: opts.windowMs,
      limit: opts.limit,
      store,
      keyGenerator: opts.key,
      skipSuccessfulRequests: opts.failuresOnly ?? false,
      standardHeaders: false,
      legacyHeaders: false,
      validate: { keyGeneratorIpFallback: false, trustProxy: false, xForwardedForHeader: false },
      handler: (req, _res, next) => {
        const info = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit;
        const reset = info?.resetTime?.getTime() ?? clock.now() + opts.windowMs;
        next(
          new AppError('throttled', undefined, {
            retryAfterSeconds: Math.max(1, Math.ceil((reset - Date.now()) / 1000)),
          }),
        );
      },
    });
  };
}

export function ipKey(req: Request): string {
  return ipKeyGenerator(req.ip ?? 'unknown');
}

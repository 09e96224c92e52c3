import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { ApiRouter } from '../http/api-router';
import type { throttleFactory } from '../http/throttle';
import type { AuthService } from './auth/auth.service';

/** What a feature module gets to register its routes. */
export interface ModuleDeps {
  api: ApiRouter;
  db: Knex;
  config: Config;
  redis?: Redis;
  auth: AuthService;
  throttle: ReturnType<typeof throttleFactory>;
}

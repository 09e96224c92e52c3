import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { ApiRouter } from '../http/api-router';
import type { throttleFactory } from '../http/throttle';
import type { BackgroundWork } from '../lib/background';
import type { AuthService } from './auth/auth.service';
import type { MailService } from './mail/mail.service';
import type { SettingsGuard } from './settings/protected-settings';

/** What a feature module gets to register its routes. */
export interface ModuleDeps {
  api: ApiRouter;
  db: Knex;
  config: Config;
  redis?: Redis;
  auth: AuthService;
  throttle: ReturnType<typeof throttleFactory>;
  /** the app's one mail service (SMTP settings, sending, the after-reply queue) */
  mail: MailService;
  /** work done after the reply (background.ts) */
  background: BackgroundWork;
  /** every change of settings goes through it: the protected ones need an admin (protected-settings.ts) */
  settingsGuard: SettingsGuard;
}

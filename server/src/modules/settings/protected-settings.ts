import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { clock } from '../../lib/clock';
import { logger } from '../../lib/logger';
import { assertMayChangeProtectedSettings } from '../access/access-rules';
import { hongKongTime, renderMail } from '../mail/mail-templates';
import { SMTP_KEYS, type MailService } from '../mail/mail.service';
import { usersRepository } from '../users/users.repository';

/**
 * The settings that hand over the keys to every account: mail (a password reset link goes wherever SMTP
 * says; the reminders mail students and staff), security (required 2FA, self-registration, the feature switches) and storage (quota, suspension,
 * upload limit). Whoever changes them could take over the admin account, so they are protected.
 */
const PROTECTED = new Set<string>([
  ...SMTP_KEYS,
  'require_two_factor',
  'registration_enabled',
  'storage_quota_mb',
  'storage_suspended',
  'max_upload_mb',
  // the reminders mail students and staff through the mail settings
  'reminders_enabled',
  'reminders_time',
]);

export function isProtectedSetting(key: string): boolean {
  return PROTECTED.has(key) || key.startsWith('feature_');
}

/**
 * Every change of settings runs through `change`: one transaction, in which the work reports the keys it
 * alters with `touched`. A protected key needs an admin whose password was confirmed within the admins' window
 * (access-rules.ts; else the change rolls back with 403 or 423). Once it has committed, every active admin is
 * told by mail — through the mail settings in force *before* the change, so that a new SMTP server never hears
 * of its own installation.
 */
export function createSettingsGuard(deps: { db: Knex; mail: MailService }) {
  const { db, mail } = deps;

  async function announce(
    ctx: RequestContext,
    changes: string[],
    before: Awaited<ReturnType<MailService['current']>>,
  ) {
    if (!before) {
      logger.warn('settings change not announced: no mail settings before it', { changes });
      return;
    }
    const actorRow = ctx.actor.id ? await usersRepository.findById(db, ctx.actor.id) : undefined;
    const actor = actorRow ? `${actorRow.name} <${actorRow.email}>` : 'system';
    const when = hongKongTime(clock.now());
    for (const admin of await usersRepository.listActiveAdmins(db)) {
      mail.queue(
        {
          to: admin.email,
          ...renderMail('settingsChanged', admin.language, { actor, when, ip: ctx.ip, changes }),
        },
        before,
      );
    }
  }

  return {
    async change<T>(
      ctx: RequestContext,
      work: (trx: Trx, touched: (keys: readonly string[]) => void) => Promise<T>,
    ): Promise<T> {
      const mailBefore = await mail.current();
      const changed = new Set<string>();
      const result = await db.transaction((trx) =>
        work(trx, (keys) => {
          const sensitive = keys.filter(isProtectedSetting);
          if (sensitive.length) assertMayChangeProtectedSettings(ctx);
          for (const key of sensitive) changed.add(key);
        }),
      );
      if (changed.size) await announce(ctx, [...changed], mailBefore);
      return result;
    },
  };
}

export type SettingsGuard = ReturnType<typeof createSettingsGuard>;

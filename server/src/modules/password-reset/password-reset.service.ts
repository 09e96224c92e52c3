import bcrypt from 'bcrypt';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { logger } from '../../lib/logger';
import { auditService } from '../audit/audit.service';
import { BCRYPT_COST } from '../auth/auth.service';
import { userSessionsRepository } from '../auth/user-sessions.repository';
import type { MailService } from '../mail/mail.service';
import { appUrl } from '../profile/profile.service';
import { usersRepository } from '../users/users.repository';
import { passwordResetRepository } from './password-reset.repository';
import { renderMail } from '../mail/mail-templates';

export const RESET_VALID_MS = 60 * 60_000;
export const RESET_SENT = 'If that address belongs to an account, we have emailed a password reset link.';
export const RESET_INVALID = 'This password reset token is invalid.';

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

export function createPasswordResetService(db: Knex, config: Config, mail: MailService) {
  /** Mails in the background, so that a known and an unknown address answer alike and as fast. */
  const pending = new Set<Promise<void>>();

  return {
    /** Settles the mails still being sent (tests, shutdown). */
    async flush(): Promise<void> {
      await Promise.allSettled([...pending]);
    },

    /**
     * Same answer for every address. Only the missing SMTP settings are reported, and for every address
     * alike (it says nothing about the account).
     */
    async request(email: string, ctx: RequestContext): Promise<{ message: string }> {
      const smtp = await mail.mustHaveSettings();
      const user = await usersRepository.findByEmail(db, email);
      await auditService.record(db, ctx, {
        action: 'password_reset_requested',
        entity: 'user',
        entityId: user?.id ?? null,
        detail: { email },
      });
      if (user && bool(user.is_active)) {
        const token = randomToken(32);
        await passwordResetRepository.put(db, user.email.toLowerCase(), sha256(token));
        const link = `${appUrl(config)}/password/reset?${new URLSearchParams({ token, email: user.email })}`;
        const sending = mail
          .sendWith(smtp, { to: user.email, ...renderMail('passwordReset', user.language, { link }) })
          .catch((err) => {
            logger.warn('password reset mail failed', { error: String(err?.message ?? err) });
          })
          .finally(() => pending.delete(sending));
        pending.add(sending);
      }
      return { message: RESET_SENT };
    },

    /** Sets the new password; never signs in. Every session of the account ends. */
    async reset(input: { token: string; email: string; password: string }, ctx: RequestContext) {
      const row = await passwordResetRepository.find(db, input.email);
      const fresh =
        row && clock.now() - new Date(`${row.created_at.replace(' ', 'T')}Z`).getTime() <= RESET_VALID_MS;
      if (!row || !fresh || !safeEqual(row.token_hash, sha256(input.token))) {
        throw AppError.field('validation', 'email', RESET_INVALID);
      }
      const user = await usersRepository.findByEmail(db, input.email);
      if (!user) throw AppError.field('validation', 'email', 'User not found');
      const hash = await bcrypt.hash(input.password, BCRYPT_COST);
      await db.transaction(async (trx) => {
        if (!(await passwordResetRepository.take(trx, row.id))) {
          throw AppError.field('validation', 'email', RESET_INVALID);
        }
        await usersRepository.update(trx, user.id, { password_hash: hash });
        await userSessionsRepository.deleteForUser(trx, user.id);
        await auditService.record(
          trx,
          { ...ctx, actor: { type: 'user', id: user.id } },
          {
            action: 'password_reset',
            entity: 'user',
            entityId: user.id,
          },
        );
      });
      return { message: 'Your password has been reset. Please sign in.' };
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

import { hashPassword } from '../../lib/passwords';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { auditService } from '../audit/audit.service';
import { userSessionsRepository } from '../auth/user-sessions.repository';
import type { MailService } from '../mail/mail.service';
import { appUrl } from '../profile/profile.service';
import { usersRepository } from '../users/users.repository';
import { passwordResetRepository } from './password-reset.repository';
import { hongKongTime, renderMail } from '../mail/mail-templates';
import { apiTokensRepository } from '../api-tokens/api-tokens.repository';
import type { BackgroundWork } from '../../lib/background';
import { FIELD_MESSAGES } from '../../../../shared/messages';
import { logger } from '../../lib/logger';

export const RESET_VALID_MS = 60 * 60_000;
export const RESET_SENT = 'If that address belongs to an account, we have emailed a password reset link.';
export const RESET_INVALID = 'resetTokenInvalid';

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

export function createPasswordResetService(
  db: Knex,
  config: Config,
  mail: MailService,
  background: BackgroundWork,
) {
  /** After the reply: the account looked up, the request audited, a token made and mailed to a live account. */
  async function issue(email: string, ctx: RequestContext): Promise<void> {
    const user = await usersRepository.findByEmail(db, email);
    await auditService.record(db, ctx, {
      action: 'password_reset_requested',
      entity: 'user',
      entityId: user?.id ?? null,
      detail: { email },
    });
    if (!user || !bool(user.is_active)) return;
    if (!(await mail.current())) {
      // the visitor was told what every visitor is told; the admins read why no link went out here
      logger.warn('password reset link not sent: SMTP is not configured', { user_id: user.id });
      return;
    }
    const token = randomToken(32);
    await passwordResetRepository.put(db, user.email.toLowerCase(), sha256(token));
    const link = `${appUrl(config)}/password/reset?${new URLSearchParams({ token, email: user.email })}`;
    await mail.send({ to: user.email, ...renderMail('passwordReset', user.language, { link }) });
  }

  return {
    /**
     * The same answer for every address, in the same time, whatever the mail settings: an anonymous visitor
     * learns neither whether the account exists nor how mail is set up. Everything happens after the reply
     * (`reply` is called first, then the work is queued): the account looked up, the token made and mailed; a
     * missing SMTP setup or a failed sending is logged for the admins.
     */
    async request(email: string, ctx: RequestContext, reply: (answer: { message: string }) => void) {
      reply({ message: RESET_SENT });
      background.run('password-reset', () => issue(email, ctx));
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
      if (!user) throw AppError.field('validation', 'email', 'userNotFound');
      const hash = await hashPassword(input.password);
      await db.transaction(async (trx) => {
        if (!(await passwordResetRepository.take(trx, row.id))) {
          throw AppError.field('validation', 'email', RESET_INVALID);
        }
        await usersRepository.update(trx, user.id, { password_hash: hash });
        // whoever held the old password loses everything it opened: sessions and API tokens
        await userSessionsRepository.deleteForUser(trx, user.id);
        await apiTokensRepository.deleteForUser(trx, user.id);
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
      mail.queue({
        to: user.email,
        ...renderMail('passwordChanged', user.language, { when: hongKongTime(clock.now()), ip: ctx.ip }),
      });
      return { message: FIELD_MESSAGES.passwordReset };
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

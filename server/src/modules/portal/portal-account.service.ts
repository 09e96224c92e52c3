import type { Knex } from 'knex';
import { FIELD_MESSAGES } from '../../../../shared/messages';
import type { Config } from '../../config';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import type { BackgroundWork } from '../../lib/background';
import { clock, toDbDateTime } from '../../lib/clock';
import { logger } from '../../lib/logger';
import { randomToken, sha256 } from '../../lib/crypto';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { auditService } from '../audit/audit.service';
import { hongKongTime, renderMail } from '../mail/mail-templates';
import type { MailService } from '../mail/mail.service';
import { RESET_SENT, RESET_VALID_MS } from '../password-reset/password-reset.service';
import { portalAccessRepository } from '../students/portal-access.repository';
import { portalUrl } from '../students/portal-access.service';
import { studentsRepository } from './students.repository';

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/**
 * A student's portal account, on the portal host: a forgotten password (a `reset` portal link, spent by
 * `POST /api/password/set` like an invitation), changing the password, and the language kept in the student's row.
 * The staff reset's rules apply: the same neutral answer for every address (the look-up and the mail happen after
 * the reply), links valid `RESET_VALID_MS` and once, the new password by the spec's rule, other sessions ended.
 */
export function createPortalAccountService(deps: {
  db: Knex;
  config: Config;
  mail: MailService;
  background: BackgroundWork;
}) {
  const { db, config, mail, background } = deps;

  /** After the reply: the student looked up, the request audited, a link made and mailed in the student's language. */
  async function issue(email: string, ctx: RequestContext): Promise<void> {
    const student = await studentsRepository.findByPortalEmail(db, email);
    await auditService.record(db, ctx, {
      action: 'password_reset_requested',
      entity: 'student',
      entityId: student?.id ?? null,
      detail: { email },
    });
    if (!student?.portal_email || !bool(student.portal_enabled)) return;
    if (!(await mail.current())) {
      // the visitor was told what every visitor is told; the admins read why no link went out here
      logger.warn('portal password reset link not sent: SMTP is not configured', { student_id: student.id });
      return;
    }
    const token = randomToken(32);
    await portalAccessRepository.putToken(
      db,
      {
        student_id: student.id,
        purpose: 'reset',
        token_hash: sha256(token),
        expires_at: toDbDateTime(clock.now() + RESET_VALID_MS),
      },
      null,
    );
    const link = `${portalUrl(config)}/password/reset?${new URLSearchParams({ token })}`;
    await mail.send({ to: student.portal_email, ...renderMail('passwordReset', student.language, { link }) });
  }

  return {
    /** `POST /api/forgot-password` on the portal host: the staff reset's neutral answer, the work after it. */
    async requestReset(email: string, ctx: RequestContext, reply: (answer: { message: string }) => void) {
      // whatever the mail settings (a missing setup is logged after the reply, not told to a visitor)
      reply({ message: RESET_SENT });
      background.run('portal-password-reset', () => issue(email, ctx));
    },

    /**
     * The signed-in student's new password: the current one checked, the flag of a password staff chose cleared,
     * every other session of the student ended (this one stays), audited, and a notice mailed when mail is set up.
     */
    async changePassword(
      studentId: number,
      input: { current_password: string; password: string },
      sessionHash: string,
      ctx: RequestContext,
    ): Promise<{ message: string; message_key: 'passwordUpdated' }> {
      const row = await studentsRepository.findById(db, studentId);
      if (!row) throw new AppError('not_found');
      if (!(await verifyPassword(input.current_password, row.portal_password_hash)))
        throw AppError.field('validation', 'current_password', 'currentPasswordWrong');
      const hash = await hashPassword(input.password);
      await db.transaction(async (trx) => {
        await portalAccessRepository.updateStudent(
          trx,
          studentId,
          { portal_password_hash: hash, portal_must_change_password: false },
          null,
        );
        await portalAccessRepository.endOtherSessions(trx, studentId, sessionHash);
        await auditService.record(trx, ctx, {
          action: 'password_changed',
          entity: 'student',
          entityId: studentId,
        });
      });
      if (row.portal_email)
        mail.queue({
          to: row.portal_email,
          ...renderMail('passwordChanged', row.language, { when: hongKongTime(clock.now()), ip: ctx.ip }),
        });
      return { message: FIELD_MESSAGES.passwordUpdated, message_key: 'passwordUpdated' };
    },

    /** The student's language (mails, the portal's default), audited; allowed after submitting too. */
    async setLanguage(studentId: number, language: string, ctx: RequestContext): Promise<void> {
      await db.transaction(async (trx) => {
        const before = await studentsRepository.findById(trx, studentId);
        if (!before) throw new AppError('not_found');
        await portalAccessRepository.updateStudent(trx, studentId, { language }, null);
        await auditService.record(trx, ctx, {
          action: 'update',
          entity: 'student',
          entityId: studentId,
          before: { language: before.language },
          after: { language },
        });
      });
    },
  };
}

export type PortalAccountService = ReturnType<typeof createPortalAccountService>;

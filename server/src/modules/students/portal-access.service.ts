import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { clock, toDbDateTime } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/crypto';
import { hashPassword } from '../../lib/passwords';
import type { Row } from '../../resources/resource';
import type { ResourceService } from '../../resources/resource.service';
import { resourceRepository } from '../../resources/resource.repository';
import { msg, type Message } from '../../../../shared/messages';
import { auditService } from '../audit/audit.service';
import { renderMail } from '../mail/mail-templates';
import type { MailService } from '../mail/mail.service';
import { appUrl } from '../profile/profile.service';
import {
  portalAccessRepository,
  type PortalAccessStudent,
  type PortalTokenPurpose,
  type PortalTokenRow,
} from './portal-access.repository';

/** How long an invitation link works. */
export const INVITATION_VALID_DAYS = 7;
const DAY_MS = 86_400_000;

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/**
 * The portal's public address: `PORTAL_HOST` when set, else `student.` + the back-office host of `APP_URL` (the
 * first label `student` is what makes a host the portal: context.ts `hostKindOf`), same scheme and port.
 */
export function portalUrl(config: Config): string {
  const url = new URL(appUrl(config));
  url.hostname = config.portalHost ?? `student.${url.hostname}`;
  return url.origin;
}

/** A message answer: the English text for API users, the key and values for clients to word themselves. */
function notice(message: Message): { message: string; message_key: string; message_params?: object } {
  return {
    message: message.text,
    message_key: message.key,
    ...(message.params ? { message_params: message.params } : {}),
  };
}

/**
 * A portal link's secret checked (exported for the portal issue: its forgot-password and set-password pages):
 * the live token row with its student, or null when the link is unknown, spent, expired, of another purpose, or
 * its student can no longer sign in (portal access off, no portal email). Reads only; `setPasswordWithToken`
 * spends it.
 */
export async function verifyPortalToken(
  db: Trx,
  token: string,
  purposes: readonly PortalTokenPurpose[] = ['invitation', 'reset'],
): Promise<{ token: PortalTokenRow; student: PortalAccessStudent } | null> {
  if (!token) return null;
  const row = await portalAccessRepository.findTokenByHash(db, sha256(token));
  if (!row || !purposes.includes(row.purpose)) return null;
  if (String(row.expires_at) <= toDbDateTime(clock.now())) return null;
  const student = await portalAccessRepository.findStudent(db, row.student_id);
  if (!student || !bool(student.portal_enabled) || !student.portal_email) return null;
  return { token: row, student };
}

/**
 * Portal access, staff side (students issue, deliverable 8): the invitation mail with a single-use set-password
 * link, a first password staff set (the student must change it at the next sign-in), and reopening a student's
 * submitted information. Enabling portal access and its email are fields of the student (the generic update).
 * Every action needs the student in the caller's scope (404 outside) and is audited, never with a password or a
 * token. The consuming side of the link (`setPasswordWithToken`) is served on the portal host.
 */
export function createPortalAccessService(deps: {
  db: Knex;
  config: Config;
  mail: MailService;
  students: ResourceService;
}) {
  const { db, config, mail, students } = deps;

  /** The student, locked for the rest of the transaction. */
  async function locked(trx: Trx, id: number): Promise<PortalAccessStudent> {
    await resourceRepository.lockById(trx, 'students', id);
    const row = await portalAccessRepository.findStudent(trx, id);
    if (!row) throw new AppError('not_found');
    return row;
  }

  return {
    /**
     * Mails the student (in the student's language) a link to set a portal password, valid for
     * `INVITATION_VALID_DAYS` days and once; a new invitation replaces the last. The link is stored before the
     * mail goes (the student may follow it at once) and taken back, with the invitation date, when the mail
     * fails; the audit row is written once it was sent.
     */
    async invite(id: number, ctx: RequestContext): Promise<Row> {
      const seen = await students.mustBeChangeable(id, ctx);
      if (!seen.portal_email || !bool(seen.portal_enabled))
        throw AppError.field('business_rule', 'portal_email', 'portalEmailFirst');
      await mail.mustHaveSettings();
      const token = randomToken(32);
      const tokenHash = sha256(token);
      const now = clock.now();
      const { student, previousInvitedAt } = await db.transaction(async (trx) => {
        const row = await locked(trx, id);
        if (!row.portal_email || !bool(row.portal_enabled))
          throw AppError.field('business_rule', 'portal_email', 'portalEmailFirst');
        await portalAccessRepository.putToken(
          trx,
          {
            student_id: id,
            purpose: 'invitation',
            token_hash: tokenHash,
            expires_at: toDbDateTime(now + INVITATION_VALID_DAYS * DAY_MS),
          },
          ctx.actor.id,
        );
        await portalAccessRepository.updateStudent(
          trx,
          id,
          { portal_invited_at: toDbDateTime(now) },
          ctx.actor.id,
        );
        return { student: row, previousInvitedAt: row.portal_invited_at };
      });
      const email = String(student.portal_email);
      const link = `${portalUrl(config)}/password/set?${new URLSearchParams({ token })}`;
      const name =
        [student.given_name_en, student.surname_en].filter(Boolean).join(' ') ||
        String(student.name_zh ?? '');
      try {
        await mail.send({
          to: email,
          ...renderMail('portalInvitation', student.language, { name, link, days: INVITATION_VALID_DAYS }),
        });
      } catch (err) {
        await db.transaction(async (trx) => {
          const live = await portalAccessRepository.findTokenByHash(trx, tokenHash);
          if (live) await portalAccessRepository.takeToken(trx, live.id);
          await portalAccessRepository.updateStudent(
            trx,
            id,
            { portal_invited_at: previousInvitedAt },
            ctx.actor.id,
          );
        });
        throw err;
      }
      await auditService.record(db, ctx, {
        action: 'portal_invite',
        entity: 'student',
        entityId: id,
        detail: { email, expires_in_days: INVITATION_VALID_DAYS },
      });
      return { ...notice(msg('portalInvitationSent', { email })), student: await students.get(id, ctx) };
    },

    /**
     * Staff set a first portal password (bcrypt, as staff passwords); the student must change it at the next
     * sign-in (the portal's sign-in answers `must_change_password: true`). Sessions the student had open end:
     * whoever held the old password keeps nothing. Audited without the password.
     */
    async setPassword(id: number, password: string, ctx: RequestContext): Promise<Row> {
      await students.mustBeChangeable(id, ctx);
      const hash = await hashPassword(password);
      await db.transaction(async (trx) => {
        await locked(trx, id);
        await portalAccessRepository.updateStudent(
          trx,
          id,
          { portal_password_hash: hash, portal_must_change_password: true },
          ctx.actor.id,
        );
        await portalAccessRepository.endSessions(trx, id);
        await auditService.record(trx, ctx, {
          action: 'portal_password_set',
          entity: 'student',
          entityId: id,
        });
      });
      return students.get(id, ctx);
    },

    /**
     * Makes a submitted student's portal forms editable again: clears `info_submitted_at` and
     * `info_confirmed_at`. Refused with 409 when there is nothing submitted. Audited as `reopen`.
     */
    async reopen(id: number, ctx: RequestContext): Promise<Row> {
      await students.mustBeChangeable(id, ctx);
      await db.transaction(async (trx) => {
        const before = await locked(trx, id);
        if (!before.info_submitted_at) throw new AppError('conflict', 'studentNotSubmitted');
        await portalAccessRepository.updateStudent(
          trx,
          id,
          { info_submitted_at: null, info_confirmed_at: null },
          ctx.actor.id,
        );
        const after = await portalAccessRepository.findStudent(trx, id);
        await auditService.record(trx, ctx, {
          action: 'reopen',
          entity: 'student',
          entityId: id,
          before,
          after: after ?? null,
        });
      });
      return students.get(id, ctx);
    },

    /**
     * The portal's set-password with a mailed link: the link works once (spent in the transaction that sets the
     * password, so two submissions of one link set it once); the student chose this password, so nothing must
     * be changed at the next sign-in; the student's other sessions end. Never signs in.
     */
    async setPasswordWithToken(
      input: { token: string; password: string },
      ctx: RequestContext,
    ): Promise<{ message: string; message_key: string }> {
      const found = await verifyPortalToken(db, input.token);
      if (!found) throw AppError.field('validation', 'token', 'portalLinkInvalid');
      const hash = await hashPassword(input.password);
      const studentId = found.student.id;
      await db.transaction(async (trx) => {
        if (!(await portalAccessRepository.takeToken(trx, found.token.id)))
          throw AppError.field('validation', 'token', 'portalLinkInvalid');
        await portalAccessRepository.updateStudent(
          trx,
          studentId,
          { portal_password_hash: hash, portal_must_change_password: false },
          null,
        );
        await portalAccessRepository.endSessions(trx, studentId);
        await auditService.record(
          trx,
          { ...ctx, actor: { type: 'student', id: studentId } },
          {
            action: 'portal_password_set',
            entity: 'student',
            entityId: studentId,
            detail: { via: found.token.purpose },
          },
        );
      });
      return notice(msg('portalPasswordSet'));
    },
  };
}

export type PortalAccessService = ReturnType<typeof createPortalAccessService>;

import { createHmac } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { RequestContext, StaffUser } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { clock, fromDbDateTime, toDbDateTime } from '../../lib/clock';
import { safeEqual } from '../../lib/crypto';
import type { ResourceService } from '../../resources/resource.service';
import { apiTokensRepository } from '../api-tokens/api-tokens.repository';
import { auditService } from '../audit/audit.service';
import { userSessionsRepository } from '../auth/user-sessions.repository';
import type { MailService } from '../mail/mail.service';
import { usersRepository, type UserRow } from '../users/users.repository';
import { describeUserAgent } from './user-agent';
import { hongKongTime, renderMail } from '../mail/mail-templates';

const VERIFY_VALID_MS = 24 * 60 * 60_000;
export const WRONG_PASSWORD = 'currentPasswordWrong';

export function appUrl(config: Config): string {
  return (config.appUrl ?? `http://localhost:${config.port}`).replace(/\/$/, '');
}

/** The signed-in user's own account: profile, password, browser sessions, email verification, deletion. */
export function createProfileService(deps: {
  db: Knex;
  config: Config;
  mail: MailService;
  users: ResourceService;
}) {
  const { db, config, mail } = deps;

  async function mustFind(id: number): Promise<UserRow> {
    const row = await usersRepository.findById(db, id);
    if (!row) throw AppError.field('validation', 'email', 'userNotFound');
    return row;
  }

  function signature(id: number, email: string, expires: number): string {
    return createHmac('sha256', config.appKey)
      .update(`verify|${id}|${email.toLowerCase()}|${expires}`)
      .digest('hex');
  }

  async function present(row: UserRow, auth: StaffUser) {
    const branch = row.branch_id ? await usersRepository.findBranch(db, row.branch_id) : undefined;
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      language: row.language,
      email_verified_at: fromDbDateTime(row.email_verified_at),
      is_admin: auth.is_admin,
      role: auth.role,
      branch: branch ?? null,
      permissions: auth.permissions,
      two_factor_enabled: Boolean(row.two_factor_confirmed_at),
      two_factor_pending_confirmation: Boolean(row.two_factor_secret) && !row.two_factor_confirmed_at,
    };
  }

  const service = {
    async show(auth: StaffUser) {
      return present(await mustFind(auth.id), auth);
    },

    async checkPassword(userId: number, password: string): Promise<boolean> {
      const row = await mustFind(userId);
      return verifyPassword(password, row.password_hash);
    },

    /**
     * Name, email and language. A new email address is unverified until the link mailed to it is followed;
     * the answer says whether that mail went out.
     */
    async update(
      auth: StaffUser,
      input: { name?: string; email?: string; language?: string; current_password?: string },
      ctx: RequestContext,
    ) {
      const before = await mustFind(auth.id);
      const emailChanged = input.email !== undefined && input.email !== before.email.toLowerCase();
      if (emailChanged) {
        // the address is where password reset links go: changing it needs the current password (quality §33)
        if (!input.current_password) {
          throw AppError.field('validation', 'current_password', 'currentPasswordRequired');
        }
        if (!(await verifyPassword(input.current_password, before.password_hash))) {
          throw AppError.field('validation', 'current_password', WRONG_PASSWORD);
        }
        const taken = await usersRepository.findByEmail(db, input.email!);
        if (taken && taken.id !== auth.id) throw AppError.field('duplicate', 'email');
      }
      const data: Record<string, unknown> = {};
      if (input.name !== undefined) data.name = input.name;
      if (input.language !== undefined) data.language = input.language;
      if (emailChanged) {
        data.email = input.email;
        data.email_verified_at = null;
      }
      await db.transaction(async (trx) => {
        if (Object.keys(data).length) await usersRepository.update(trx, auth.id, data);
        await auditService.record(trx, ctx, {
          action: 'update',
          entity: 'user',
          entityId: auth.id,
          before: { name: before.name, email: before.email, language: before.language },
          after: {
            name: data.name ?? before.name,
            email: data.email ?? before.email,
            language: data.language ?? before.language,
          },
        });
      });
      let verification: 'sent' | 'smtp_not_configured' | 'email_failed' | null = null;
      if (emailChanged) {
        // the old address hears of it, in case it was not its owner who changed it
        mail.queue({
          to: before.email,
          ...renderMail('emailChanged', before.language, {
            email: input.email!,
            when: hongKongTime(clock.now()),
          }),
        });
        try {
          await service.sendVerification(auth.id);
          verification = 'sent';
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          verification = err.code === 'smtp_not_configured' ? 'smtp_not_configured' : 'email_failed';
        }
      }
      const after = await mustFind(auth.id);
      return { user: await present(after, { ...auth, name: after.name, email: after.email }), verification };
    },

    /**
     * Needs the current password; ends the account's other sessions (this one stays signed in) and, unless
     * asked not to, its API tokens; a notice goes to the account's address.
     */
    async changePassword(
      userId: number,
      input: { current_password: string; password: string; revoke_tokens?: boolean },
      sessionHash: string | null,
      ctx: RequestContext,
    ): Promise<{ tokens_revoked: number }> {
      const row = await mustFind(userId);
      if (!(await verifyPassword(input.current_password, row.password_hash))) {
        throw AppError.field('validation', 'current_password', WRONG_PASSWORD);
      }
      const hash = await hashPassword(input.password);
      const revoked = await db.transaction(async (trx) => {
        await usersRepository.update(trx, userId, { password_hash: hash });
        if (sessionHash) await userSessionsRepository.deleteOthers(trx, userId, sessionHash);
        else await userSessionsRepository.deleteForUser(trx, userId);
        const tokens =
          input.revoke_tokens === false ? 0 : await apiTokensRepository.deleteForUser(trx, userId);
        await auditService.record(trx, ctx, {
          action: 'password_changed',
          entity: 'user',
          entityId: userId,
          detail: { api_tokens_revoked: tokens },
        });
        return tokens;
      });
      mail.queue({
        to: row.email,
        ...renderMail('passwordChanged', row.language, { when: hongKongTime(clock.now()), ip: ctx.ip }),
      });
      return { tokens_revoked: revoked };
    },

    async sessions(userId: number, currentHash: string | null) {
      const rows = await userSessionsRepository.listForUser(db, userId);
      return {
        items: rows.map((r) => {
          const agent = describeUserAgent(r.user_agent);
          return {
            id: r.id,
            ip: r.ip,
            browser: agent.browser,
            platform: agent.platform,
            is_desktop: agent.desktop,
            last_active: fromDbDateTime(r.last_active_at),
            is_current: r.session_id_hash === currentHash,
          };
        }),
      };
    },

    /** Every other browser of this account is signed out: its cookie answers 401 from the next request. */
    async logoutOtherSessions(userId: number, currentHash: string, ctx: RequestContext): Promise<number> {
      const n = await userSessionsRepository.deleteOthers(db, userId, currentHash);
      await auditService.record(db, ctx, {
        action: 'logout_other_sessions',
        entity: 'user',
        entityId: userId,
        detail: { ended: n },
      });
      return n;
    },

    /** The account itself goes, through the users resource (references checked, audited); sessions and tokens with it. */
    async deleteAccount(userId: number, ctx: RequestContext): Promise<void> {
      await deps.users.remove(userId, { ...ctx, branchScope: null });
      await userSessionsRepository.deleteForUser(db, userId);
      await apiTokensRepository.deleteForUser(db, userId);
    },

    /** Mails a signed link (valid 24 h, void once the address changes) to the account's address. */
    async sendVerification(userId: number): Promise<void> {
      await mail.mustHaveSettings();
      const row = await mustFind(userId);
      const expires = clock.now() + VERIFY_VALID_MS;
      const query = new URLSearchParams({
        id: String(row.id),
        expires: String(expires),
        signature: signature(row.id, row.email, expires),
      });
      const link = `${appUrl(config)}/email/verify?${query}`;
      await mail.send({ to: row.email, ...renderMail('verifyEmail', row.language, { link }) });
    },

    async verifyEmail(input: { id: number; expires: number; signature: string }, ctx: RequestContext) {
      const row = await usersRepository.findById(db, input.id);
      if (!row) throw AppError.field('validation', 'id', 'userNotFound');
      const valid =
        input.expires > clock.now() &&
        safeEqual(input.signature, signature(row.id, row.email, input.expires));
      if (!valid) throw AppError.field('validation', 'signature', 'verificationExpired');
      if (!row.email_verified_at) {
        await usersRepository.update(db, row.id, { email_verified_at: toDbDateTime() });
        await auditService.record(db, ctx, { action: 'email_verified', entity: 'user', entityId: row.id });
      }
      return { verified: true };
    },
  };
  return service;
}

export type ProfileService = ReturnType<typeof createProfileService>;

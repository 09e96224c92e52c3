import nodemailer from 'nodemailer';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { decrypt, encrypt } from '../../lib/crypto';
import { logger } from '../../lib/logger';
import { settingsRepository } from '../settings/settings.repository';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import type { BackgroundWork } from '../../lib/background';
import { auditService } from '../audit/audit.service';

export const SMTP_KEYS = [
  'smtp_host',
  'smtp_port',
  'smtp_user',
  'smtp_password',
  'smtp_from',
  'smtp_secure',
] as const;

export interface SmtpSettings {
  host: string;
  port: number;
  user?: string;
  password?: string;
  from: string;
  secure: boolean;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** files sent with it (an invoice's PDF) */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface SmtpInput {
  host: string;
  port: number;
  user?: string | null;
  password?: string | null;
  from: string;
  secure: boolean;
}

/**
 * Mail through SMTP with nodemailer. The settings table's `smtp_*` keys (password encrypted with the app
 * key) win; the environment's SMTP_* settings are the fallback. No host or sender → the spec's "Please confirm
 * whether the SMTP settings are completed"; a refused or failed send → "Email failed". `queue` sends after the
 * reply (background.ts), for mail nobody waits on: notices, a password reset link.
 */
export function createMailService(db: Knex, config: Config, background: BackgroundWork) {
  async function stored(): Promise<Record<string, string | null>> {
    return settingsRepository.getMany(db, SMTP_KEYS);
  }

  async function settings(): Promise<(SmtpSettings & { source: 'settings' | 'env' }) | null> {
    const s = await stored();
    if (s.smtp_host && s.smtp_from) {
      return {
        host: s.smtp_host,
        port: Number(s.smtp_port) || 587,
        user: s.smtp_user || undefined,
        password: s.smtp_password ? decrypt(s.smtp_password, config.appKey) : undefined,
        from: s.smtp_from,
        secure: s.smtp_secure === 'true',
        source: 'settings',
      };
    }
    return config.smtp ? { ...config.smtp, source: 'env' } : null;
  }

  async function mustHaveSettings(): Promise<SmtpSettings> {
    const smtp = await settings();
    if (!smtp) throw new AppError('smtp_not_configured');
    return smtp;
  }

  async function deliver(smtp: SmtpSettings, message: MailMessage): Promise<void> {
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail({ from: smtp.from, ...message });
    } catch (err) {
      logger.warn('mail not sent', { to: message.to, error: String((err as Error)?.message ?? err) });
      throw new AppError('email_failed');
    } finally {
      transport.close();
    }
  }

  return {
    /** Throws the SMTP message when nothing is configured (checked before any other work). */
    mustHaveSettings,

    /** The mail settings in force now (the settings table's, else the environment's), or null. */
    current: settings,

    async send(message: MailMessage): Promise<void> {
      await deliver(await mustHaveSettings(), message);
    },

    async sendWith(smtp: SmtpSettings, message: MailMessage): Promise<void> {
      await deliver(smtp, message);
    },

    /**
     * Sends after the reply, through `smtp` (default: the settings in force when it is sent); a failure is
     * logged, never answered. Without any mail settings the mail is dropped and logged.
     */
    queue(message: MailMessage, smtp?: SmtpSettings | null): void {
      background.run('mail', async () => {
        const via = smtp ?? (await settings());
        if (!via) {
          logger.warn('mail not sent: no SMTP settings', { to: message.to, subject: message.subject });
          return;
        }
        await deliver(via, message);
      });
    },

    /** What the admin's SMTP form shows: never the password, only whether one is stored. */
    async show() {
      const s = await stored();
      const current = await settings();
      return {
        host: s.smtp_host ?? null,
        port: s.smtp_port ? Number(s.smtp_port) : null,
        user: s.smtp_user ?? null,
        from: s.smtp_from ?? null,
        secure: s.smtp_secure === 'true',
        password_set: Boolean(s.smtp_password),
        /** where the mail settings in force come from */
        source: current?.source ?? null,
      };
    },

    /**
     * Saves the SMTP settings in the caller's transaction and answers the keys it changed. A stored password
     * belongs to the server it was saved for: a new host or port without a new password clears it, so that it
     * is never sent anywhere else.
     */
    async save(trx: Trx, input: SmtpInput, ctx: RequestContext): Promise<string[]> {
      const before = await settingsRepository.getMany(trx, SMTP_KEYS);
      const values: Record<string, string | null> = {
        smtp_host: input.host,
        smtp_port: String(input.port),
        smtp_user: input.user || null,
        smtp_from: input.from,
        smtp_secure: input.secure ? 'true' : 'false',
      };
      const moved =
        (before.smtp_host ?? null) !== values.smtp_host || (before.smtp_port ?? null) !== values.smtp_port;
      if (input.password !== undefined) {
        values.smtp_password =
          input.password === null || input.password === '' ? null : encrypt(input.password, config.appKey);
      } else if (moved && before.smtp_password) {
        values.smtp_password = null;
      }
      const changed = Object.keys(values).filter(
        (key) => key === 'smtp_password' || (before[key] ?? null) !== values[key],
      );
      for (const key of changed) await settingsRepository.set(trx, key, values[key], ctx.actor.id);
      const after = await settingsRepository.getMany(trx, SMTP_KEYS);
      // the audit scrubs smtp_password: the log only shows that the other fields changed
      await auditService.record(trx, ctx, { action: 'update', entity: 'settings', before, after });
      return changed;
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;

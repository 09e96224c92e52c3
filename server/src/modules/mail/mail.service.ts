import nodemailer from 'nodemailer';
import type { Knex } from 'knex';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { decrypt, encrypt } from '../../lib/crypto';
import { logger } from '../../lib/logger';
import { settingsRepository } from '../settings/settings.repository';
import type { RequestContext } from '../../http/context';
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
}

/**
 * Mail through SMTP with nodemailer. The settings table's `smtp_*` keys (password encrypted with the app
 * key) win; the environment's SMTP_* settings are the fallback. No host or sender → the spec's "Please confirm
 * whether the SMTP settings are completed"; a refused or failed send → "Email failed".
 */
export function createMailService(db: Knex, config: Config) {
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

    async send(message: MailMessage): Promise<void> {
      await deliver(await mustHaveSettings(), message);
    },

    async sendWith(smtp: SmtpSettings, message: MailMessage): Promise<void> {
      await deliver(smtp, message);
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

    async save(
      input: {
        host: string;
        port: number;
        user?: string | null;
        password?: string | null;
        from: string;
        secure: boolean;
      },
      ctx: RequestContext,
    ) {
      await db.transaction(async (trx) => {
        const before = await settingsRepository.getMany(trx, SMTP_KEYS);
        await settingsRepository.set(trx, 'smtp_host', input.host);
        await settingsRepository.set(trx, 'smtp_port', String(input.port));
        await settingsRepository.set(trx, 'smtp_user', input.user ?? null);
        await settingsRepository.set(trx, 'smtp_from', input.from);
        await settingsRepository.set(trx, 'smtp_secure', input.secure ? 'true' : 'false');
        if (input.password !== undefined) {
          await settingsRepository.set(
            trx,
            'smtp_password',
            input.password === null || input.password === '' ? null : encrypt(input.password, config.appKey),
          );
        }
        const after = await settingsRepository.getMany(trx, SMTP_KEYS);
        // the audit scrubs smtp_password: the log only shows that the other fields changed
        await auditService.record(trx, ctx, { action: 'update', entity: 'settings', before, after });
      });
      return this.show();
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;

import type { Knex } from 'knex';
import QRCode from 'qrcode';
import type { Config } from '../../config';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { toDbDateTime } from '../../lib/clock';
import { decrypt, encrypt, safeEqual } from '../../lib/crypto';
import { auditService } from '../audit/audit.service';
import { usersRepository, type UserRow } from '../users/users.repository';
import { hashRecoveryCode, matchingStep, newRecoveryCodes, newSecret, otpauthUrl } from './totp';

export const TOTP_ISSUER = 'Study Abroad Admin';

/**
 * Two-factor authentication with TOTP (speakeasy): the secret is kept encrypted with the app key, the 8
 * recovery codes as SHA-256 hashes (each spent once), and a code works once (the last accepted time-step
 * is remembered per user).
 */
export function createTwoFactorService(db: Knex, config: Config) {
  const seal = (plain: string) => encrypt(plain, config.appKey);
  const open = (sealed: string) => decrypt(sealed, config.appKey);

  async function mustFind(id: number): Promise<UserRow> {
    const row = await usersRepository.findById(db, id);
    if (!row) throw new AppError('not_found');
    return row;
  }

  /** True once for a right code in the window; a replay of the same or an older step is refused. */
  async function acceptCode(row: UserRow, code: string): Promise<boolean> {
    if (!row.two_factor_secret) return false;
    const step = matchingStep(open(row.two_factor_secret), code);
    if (step === null) return false;
    return usersRepository.advanceTwoFactorStep(db, row.id, step);
  }

  async function acceptRecoveryCode(row: UserRow, code: string): Promise<boolean> {
    if (!row.two_factor_recovery_codes) return false;
    const hashes: string[] = JSON.parse(row.two_factor_recovery_codes);
    const wanted = hashRecoveryCode(code);
    const index = hashes.findIndex((h) => safeEqual(h, wanted));
    if (index < 0) return false;
    const rest = hashes.filter((_, i) => i !== index);
    return usersRepository.replaceRecoveryCodes(
      db,
      row.id,
      row.two_factor_recovery_codes,
      JSON.stringify(rest),
    );
  }

  async function issueRecoveryCodes(userId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await usersRepository.update(db, userId, {
      two_factor_recovery_codes: JSON.stringify(codes.map(hashRecoveryCode)),
    });
    return codes;
  }

  return {
    async status(userId: number) {
      const row = await mustFind(userId);
      const remaining = row.two_factor_recovery_codes ? JSON.parse(row.two_factor_recovery_codes).length : 0;
      return {
        enabled: Boolean(row.two_factor_confirmed_at),
        pending_confirmation: Boolean(row.two_factor_secret) && !row.two_factor_confirmed_at,
        recovery_codes_left: remaining,
      };
    },

    /** Starts (or restarts) enrolment: a new secret, not yet in force until a code confirms it. */
    async enable(userId: number, ctx: RequestContext) {
      const row = await mustFind(userId);
      if (row.two_factor_confirmed_at) {
        throw new AppError('conflict', 'twoFactorAlreadyOn');
      }
      const secret = newSecret();
      await usersRepository.update(db, userId, {
        two_factor_secret: seal(secret),
        two_factor_recovery_codes: null,
        two_factor_confirmed_at: null,
        two_factor_last_step: null,
      });
      await auditService.record(db, ctx, { action: 'two_factor_enabling', entity: 'user', entityId: userId });
      const url = otpauthUrl(secret, row.email, TOTP_ISSUER);
      return { secret, otpauth_url: url, qr_code: await QRCode.toDataURL(url) };
    },

    /** The QR code and secret of an enrolment in progress (the page reloaded before confirming). */
    async pendingSecret(userId: number) {
      const row = await mustFind(userId);
      if (!row.two_factor_secret || row.two_factor_confirmed_at) throw new AppError('not_found');
      const secret = open(row.two_factor_secret);
      const url = otpauthUrl(secret, row.email, TOTP_ISSUER);
      return { secret, otpauth_url: url, qr_code: await QRCode.toDataURL(url) };
    },

    /** A right code from the app puts 2FA in force and hands out the 8 recovery codes (shown this once). */
    async confirm(userId: number, code: string, ctx: RequestContext) {
      const row = await mustFind(userId);
      if (!row.two_factor_secret || row.two_factor_confirmed_at) {
        throw new AppError('conflict', 'twoFactorNothingToConfirm');
      }
      if (!(await acceptCode(row, code))) {
        throw AppError.field('validation', 'code', 'twoFactorCodeInvalid');
      }
      await usersRepository.update(db, userId, { two_factor_confirmed_at: toDbDateTime() });
      const codes = await issueRecoveryCodes(userId);
      await auditService.record(db, ctx, { action: 'two_factor_enabled', entity: 'user', entityId: userId });
      return { recovery_codes: codes };
    },

    /** All 8 codes replaced: the old ones stop working. */
    async regenerateRecoveryCodes(userId: number, ctx: RequestContext) {
      const row = await mustFind(userId);
      if (!row.two_factor_confirmed_at) throw new AppError('conflict', 'twoFactorOff');
      const codes = await issueRecoveryCodes(userId);
      await auditService.record(db, ctx, {
        action: 'two_factor_recovery_codes_regenerated',
        entity: 'user',
        entityId: userId,
      });
      return { recovery_codes: codes };
    },

    async disable(userId: number, ctx: RequestContext): Promise<void> {
      await mustFind(userId);
      await usersRepository.update(db, userId, {
        two_factor_secret: null,
        two_factor_recovery_codes: null,
        two_factor_confirmed_at: null,
        two_factor_last_step: null,
      });
      await auditService.record(db, ctx, { action: 'two_factor_disabled', entity: 'user', entityId: userId });
    },

    /** The sign-in challenge: a code from the app, or one recovery code. */
    async verifyChallenge(
      userId: number,
      answer: { code?: string; recovery_code?: string },
    ): Promise<boolean> {
      const row = await usersRepository.findById(db, userId);
      if (!row?.two_factor_confirmed_at) return false;
      if (answer.code) return acceptCode(row, answer.code);
      if (answer.recovery_code) return acceptRecoveryCode(row, answer.recovery_code);
      return false;
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

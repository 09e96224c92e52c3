import { z } from 'zod';
import { LOCALES } from '../features';
import { PERMISSIONS } from '../permissions';
import { PASSWORD_RULE_MESSAGES, zEmail, zPassword } from './auth';

export const ZProfileUpdate = z.strictObject({
  name: z.string().trim().min(1, 'This field is required.').max(100).optional(),
  email: zEmail.optional(),
  language: z.enum(LOCALES).optional(),
  /** required when the email address changes (a new address is where password resets go) */
  current_password: z.string().max(200).optional(),
});
export type ProfileUpdate = z.infer<typeof ZProfileUpdate>;

export const ZPasswordUpdate = z
  .strictObject({
    current_password: z.string().min(1, 'The current password is required.').max(200),
    password: zPassword,
    password_confirmation: z.string().max(200),
    /** also revoke the account's API tokens (default: yes); the other browser sessions end either way */
    revoke_tokens: z.boolean().optional(),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: PASSWORD_RULE_MESSAGES.confirmation,
  });

export const ZConfirmPassword = z.strictObject({ password: z.string().min(1).max(200) });

export const ZTwoFactorConfirm = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code is six digits.'),
});

export const zAbility = z.string().refine((k) => PERMISSIONS.includes(k), 'Unknown permission key.');

/** The last instant a DATETIME column holds (MySQL: 9999-12-31 23:59:59 UTC). */
const LAST_STORABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

export const ZApiTokenCreate = z.strictObject({
  name: z.string().trim().min(1, 'This field is required.').max(100),
  abilities: z.array(zAbility).max(200),
  // an offset can carry 9999-12-31T23:59:59-14:00 into the year 10000, which no column stores
  expires_at: z.iso
    .datetime({ offset: true })
    .refine((s) => Date.parse(s) <= LAST_STORABLE_MS)
    .nullable()
    .optional(),
});
export const ZApiTokenUpdate = z.strictObject({
  name: z.string().trim().min(1, 'This field is required.').max(100).optional(),
  abilities: z.array(zAbility).max(200),
});

export const ZSmtpSettings = z.strictObject({
  host: z.string().trim().min(1, 'This field is required.').max(191),
  port: z.number().int().min(1).max(65535),
  user: z.string().max(191).nullable().optional(),
  /** omitted: keep the stored one; null: remove it */
  password: z.string().max(500).nullable().optional(),
  from: z.string().trim().min(3).max(191),
  secure: z.boolean(),
});
export const ZSmtpTest = z.strictObject({ to: zEmail });

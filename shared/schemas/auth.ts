import { z } from 'zod';
import { MESSAGES } from '../errors';

/** An email address as every account form takes it: trimmed, lower-cased, the spec's message. */
export const zEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(191)
  .pipe(z.email({ error: MESSAGES.invalidEmail }));

export const PASSWORD_RULE_MESSAGES = {
  min: 'The password must be at least 8 characters.',
  upper: 'The password must contain at least one uppercase letter.',
  lower: 'The password must contain at least one lowercase letter.',
  digit: 'The password must contain at least one number.',
  bytes: 'The password may not be longer than 72 bytes.',
  confirmation: 'The password confirmation does not match.',
} as const;

/**
 * The spec's password rule (§5): at least 8 characters, an upper-case letter, a lower-case letter, a digit;
 * at most 72 bytes (bcrypt's limit: refused beyond, never silently truncated).
 */
export const zPassword = z
  .string()
  .min(8, PASSWORD_RULE_MESSAGES.min)
  .regex(/\p{Lu}/u, PASSWORD_RULE_MESSAGES.upper)
  .regex(/\p{Ll}/u, PASSWORD_RULE_MESSAGES.lower)
  .regex(/\p{Nd}/u, PASSWORD_RULE_MESSAGES.digit)
  .refine((s) => new TextEncoder().encode(s).length <= 72, PASSWORD_RULE_MESSAGES.bytes);

export const ZForgotPassword = z.strictObject({ email: zEmail });

export const ZResetPassword = z
  .strictObject({
    token: z.string().min(1).max(200),
    email: zEmail,
    password: zPassword,
    password_confirmation: z.string().max(200),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: PASSWORD_RULE_MESSAGES.confirmation,
  });

export const ZTwoFactorChallenge = z.union([
  z.strictObject({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'The code is six digits.'),
  }),
  z.strictObject({ recovery_code: z.string().trim().min(1).max(50) }),
]);

export const ZRegister = z
  .strictObject({
    name: z.string().trim().min(1, 'This field is required.').max(100),
    email: zEmail,
    password: zPassword,
    password_confirmation: z.string().max(200),
    terms: z.boolean().optional(),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: PASSWORD_RULE_MESSAGES.confirmation,
  });

export const ZVerifyEmail = z.strictObject({
  id: z.number().int().positive(),
  expires: z.number().int().positive(),
  signature: z.string().regex(/^[a-f0-9]{64}$/, 'The verification link is invalid.'),
});

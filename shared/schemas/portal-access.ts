import { z } from 'zod';
import { PASSWORD_RULE_MESSAGES, zPassword } from './auth';

/**
 * A student's portal password as staff set it (`POST /api/students/{id}/portal/password`): the spec's password
 * rule, the same as staff passwords, confirmed.
 */
export const ZPortalPassword = z
  .strictObject({
    password: zPassword,
    password_confirmation: z.string().max(200),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: PASSWORD_RULE_MESSAGES.confirmation,
  });

/** The portal's set-password form (`POST /api/password/set` on the portal host): the mailed link's token. */
export const ZPortalSetPassword = z
  .strictObject({
    token: z.string().min(1).max(200),
    password: zPassword,
    password_confirmation: z.string().max(200),
  })
  .refine((b) => b.password === b.password_confirmation, {
    path: ['password_confirmation'],
    message: PASSWORD_RULE_MESSAGES.confirmation,
  });

import { z } from 'zod';
import { LOCALES } from '../features';
import { zEmail, zPassword } from './auth';
import { zId } from './common';

const fields = {
  name: z.string().trim().min(1, 'This field is required.').max(100),
  email: zEmail,
  role_id: zId.nullable().optional(),
  branch_id: zId.nullable().optional(),
  /** takes effect at the user's next sign-in */
  is_admin: z.boolean().optional(),
  language: z.enum(LOCALES).optional(),
  is_active: z.boolean().optional(),
};

export const ZUserCreate = z.strictObject({
  ...fields,
  password: zPassword,
  password_confirmation: z.string().max(200),
});
export const ZUserUpdate = z
  .strictObject({ ...fields, password: zPassword, password_confirmation: z.string().max(200) })
  .partial();
export type UserCreate = z.infer<typeof ZUserCreate>;

/** The users rules' own messages (the client shows each from `serverMessages.<key>`). */
export const USER_MESSAGES = {
  lastAdminDemote: 'The last active admin must stay an admin: make another user an admin first.',
  lastAdminDeactivate: 'The last active admin cannot be deactivated: make another user an admin first.',
  lastAdminDelete: 'The last active admin cannot be deleted: make another user an admin first.',
  ownPasswordOnProfile: 'Change your own password on your profile, with your current password.',
  ownTwoFactorOnProfile: 'Turn off your own two-factor authentication on your profile.',
  twoFactorRequiredNeedsFeature:
    'Two-factor authentication cannot be required while staff cannot manage it: keep that feature on.',
} as const;

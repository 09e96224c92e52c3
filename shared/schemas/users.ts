import { z } from 'zod';
import { LOCALES } from '../features';
import { zEmail, zPassword } from './auth';
import { zId } from './common';

const fields = {
  name: z.string().trim().min(1, 'This field is required.').max(100),
  email: zEmail,
  role_id: zId.nullable().optional(),
  branch_id: zId.nullable().optional(),
  /** takes effect on the user's next request (the flag is read on every request) */
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

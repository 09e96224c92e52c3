import { z } from 'zod';
import { deriveSchemas } from '../resources/derive';
import { users } from '../resources/users';
import { zPassword } from './auth';

/** Derived from the declaration (shared/resources/users.ts), plus the password a new account starts with. */
const derived = deriveSchemas(users);
const password = { password: zPassword, password_confirmation: z.string().max(200) };
export const ZUserCreate = derived.create.extend(password);
/** a password set here is for a user who cannot sign in (one's own changes on the profile) */
export const ZUserUpdate = derived.update.extend(z.strictObject(password).partial().shape);
export type UserCreate = z.infer<typeof ZUserCreate>;

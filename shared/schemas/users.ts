import { z } from 'zod';
import { deriveSchemas } from '../resources/derive';
import { users } from '../resources/users';
import { zPassword } from './auth';
import { zId } from './common';

/** Derived from the declaration (shared/resources/users.ts), plus the password a new account starts with. */
const derived = deriveSchemas(users);
const password = { password: zPassword, password_confirmation: z.string().max(200) };
export const ZUserCreate = derived.create.extend(password);
/** a password set here is for a user who cannot sign in (one's own changes on the profile) */
export const ZUserUpdate = derived.update.extend(z.strictObject(password).partial().shape);
/**
 * The user form's: a new account needs a role and a branch (the server refuses one without: users.resource.ts;
 * a branch-scoped manager's API call may leave the branch out, it is then the manager's own).
 */
export const ZUserCreateForm = ZUserCreate.extend({ role_id: zId, branch_id: zId });
export const ZUserUpdateForm = ZUserUpdate.extend({ role_id: zId, branch_id: zId });
export type UserCreate = z.infer<typeof ZUserCreate>;

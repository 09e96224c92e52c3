import { z } from 'zod';
import { FIELD_MESSAGES } from '../messages';
import { PERMISSIONS } from '../permissions';
import { deriveSchemas } from '../resources/derive';
import { roles } from '../resources/roles';

export { DATA_SCOPES } from '../resources/roles';

/** The role's permission keys: not a declared field (a JSON array), chosen on the module × action grid. */
const zPermissions = z
  .array(z.string().refine((k) => PERMISSIONS.includes(k), FIELD_MESSAGES.unknownPermission))
  .max(PERMISSIONS.length * 2);

/** Derived from the declaration (shared/resources/roles.ts), plus the permissions. */
const derived = deriveSchemas(roles);
export const ZRoleCreate = derived.create.extend({ permissions: zPermissions });
export const ZRoleUpdate = derived.update.extend({ permissions: zPermissions.optional() });
export type RoleCreate = z.infer<typeof ZRoleCreate>;

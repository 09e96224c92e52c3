import { z } from 'zod';
import { PERMISSIONS } from '../permissions';

export const DATA_SCOPES = ['all', 'branch'] as const;

export const ZRoleCreate = z.strictObject({
  name: z.string().trim().min(1, 'This field is required.').max(100),
  description: z.string().trim().max(500).nullable().optional(),
  data_scope: z.enum(DATA_SCOPES),
  permissions: z
    .array(z.string().refine((k) => PERMISSIONS.includes(k), 'Unknown permission key.'))
    .max(PERMISSIONS.length * 2),
});
export const ZRoleUpdate = ZRoleCreate.partial();
export type RoleCreate = z.infer<typeof ZRoleCreate>;

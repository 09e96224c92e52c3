/**
 * Permission keys are `module.action` (domain.md "Organisation and access"). This one list is read by the
 * server's route guards and by the client's menu, buttons and role editor grid.
 */
export const MODULES = [
  'dashboard',
  'calendar',
  'schools',
  'products',
  'special_events',
  'quotations',
  'orders',
  'receipts',
  'refunds',
  'students',
  'student_categories',
  'reports',
  'users',
  'roles',
  'companies',
  'branches',
  'settings',
  'files',
] as const;
export type Module = (typeof MODULES)[number];

export const CRUD_ACTIONS = ['view', 'create', 'update', 'delete'] as const;

/** Actions beyond CRUD that belong to one module only. */
export const EXTRA_ACTIONS: Partial<Record<Module, readonly string[]>> = {
  orders: ['void'],
  receipts: ['approve'],
  refunds: ['approve'],
  reports: ['export'],
  files: ['view_all'],
};

export const PERMISSIONS: readonly string[] = MODULES.flatMap((m) => [
  ...CRUD_ACTIONS.map((a) => `${m}.${a}`),
  ...(EXTRA_ACTIONS[m] ?? []).map((a) => `${m}.${a}`),
]);
export type Permission = string;

export function isPermission(key: string): boolean {
  return PERMISSIONS.includes(key);
}

export type DataScope = 'all' | 'branch';

/**
 * The route key of what only admins reach (the audit log; the mail, security and storage settings). No role
 * can be granted it: it is not in `PERMISSIONS`, so a role's list drops it, and `can` lets only admins pass.
 */
export const ADMINS_ONLY = 'admin';

/** Whether a user holding `granted` (and possibly being an admin) may use `required`. */
export function can(
  user: { is_admin?: boolean | number; permissions?: readonly string[] } | null,
  required: string,
): boolean {
  if (!user) return false;
  if (user.is_admin) return true;
  return (user.permissions ?? []).includes(required);
}

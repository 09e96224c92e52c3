/**
 * Permission keys are `module.action` (domain.md "Organisation and access"). This one list is read by the
 * server's route guards and by the client's menu, buttons and role editor grid. `products` covers the services
 * and their categories (the spec's "service and category"); `quotation_items` is the price list quotations pick
 * from, a module of its own beside `quotations` (docs/decisions/0017-catalogue.md).
 */
export const MODULES = [
  'dashboard',
  'calendar',
  'schools',
  'products',
  'special_events',
  'quotations',
  'quotation_items',
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
  // one key per report group (each opens its reports: shared/reports), and the export of any report held
  reports: ['students', 'schools', 'orders', 'calendar', 'export'],
  files: ['view_all'],
};

/**
 * Modules without view / create / update / delete: only their own actions. The reports are read, never written, and
 * each group of them is granted on its own (decision 0019), so a `reports.view` or `reports.create` would mean
 * nothing.
 */
export const WITHOUT_CRUD: readonly Module[] = ['reports'];

/**
 * Modules whose records are never deleted (their declarations say `undeletable`: money documents are voided or
 * cancelled, decisions 0018 and 0020): no `delete` to grant, so the role grid offers none. A role saved before
 * keeps nothing of it: stored keys outside `PERMISSIONS` are dropped when read.
 */
export const WITHOUT_DELETE: readonly Module[] = ['orders', 'receipts', 'refunds'];

/** A module's actions, in the order the role grid shows them: CRUD (unless it has none), then its own. */
export function moduleActions(module: Module): readonly string[] {
  const crud = WITHOUT_CRUD.includes(module)
    ? []
    : CRUD_ACTIONS.filter((action) => action !== 'delete' || !WITHOUT_DELETE.includes(module));
  return [...crud, ...(EXTRA_ACTIONS[module] ?? [])];
}

export const PERMISSIONS: readonly string[] = MODULES.flatMap((m) =>
  moduleActions(m).map((a) => `${m}.${a}`),
);
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

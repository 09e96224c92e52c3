import { msg, type MessageKey } from '../../../../shared/messages';
import { PERMISSIONS, type DataScope } from '../../../../shared/permissions';
import type { CallerAccess, RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';

/**
 * The access rules (README "Access rules", architecture.md): no caller ever reaches an account, a role, a
 * setting or a power stronger than its own. Every route that touches accounts, roles, sessions, tokens or
 * security settings asks here; nothing else decides it.
 *
 * - **Power** is what an account can do: the admin flag, the permission keys of its role, the role's data
 *   scope (`all` branches or its own `branch`) and its branch.
 * - **Acting on an account** (update, email, password, 2FA reset, role or branch change, deactivate,
 *   delete, sessions, tokens): only an admin acts on an admin; otherwise the caller's permissions include every
 *   permission of the target's role, an `all`-scope target needs an `all`-scope caller, and a branch-scoped
 *   caller reaches only users of its own branch.
 * - **Granting** (a role's permissions and data scope, a role given to a user, an API token's abilities, the
 *   admin flag): never more than the caller holds; `data_scope: all` is a grant like a permission.
 * - **Roles**: nobody but an admin edits the role it holds itself, a role stronger than its own, or (when it
 *   sees one branch) a role held by users of other branches.
 * - **Settings** of mail, security and storage: admins only, with a recent password confirmation.
 */

export interface Power {
  isAdmin: boolean;
  permissions: readonly string[];
  dataScope: DataScope;
  branchId: number | null;
}

/** What a role grants: its permission keys and its data scope. */
export interface Grant {
  permissions: readonly string[];
  dataScope: DataScope;
}

const ALL: Power = { isAdmin: true, permissions: PERMISSIONS, dataScope: 'all', branchId: null };

/** A role's permissions as stored (a JSON array), only keys of the shared list. */
export function parsePermissions(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const keys = JSON.parse(json);
    return Array.isArray(keys) ? keys.filter((k): k is string => PERMISSIONS.includes(k)) : [];
  } catch {
    return [];
  }
}

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** A role row's grant (permissions stored as JSON or already parsed). */
export function grantOfRole(role: { permissions: unknown; data_scope: unknown } | null | undefined): Grant {
  if (!role) return { permissions: [], dataScope: 'branch' };
  const permissions = Array.isArray(role.permissions)
    ? (role.permissions as string[])
    : parsePermissions(role.permissions as string | null);
  return { permissions, dataScope: role.data_scope === 'all' ? 'all' : 'branch' };
}

/** The power of a staff account, from its row and its role's row (none: no permissions, own branch). */
export function accountPower(
  user: { is_admin?: unknown; branch_id?: unknown },
  role: { permissions: unknown; data_scope: unknown } | null | undefined,
): Power {
  const branchId = user.branch_id === null || user.branch_id === undefined ? null : Number(user.branch_id);
  if (bool(user.is_admin)) return { ...ALL, branchId };
  return { isAdmin: false, ...grantOfRole(role), branchId };
}

/** The caller's power, or null for a student or an anonymous visitor (who hold none). */
export function callerPower(ctx: RequestContext): (Power & Pick<CallerAccess, 'roleId' | 'userId'>) | null {
  const a = ctx.access;
  if (!a) return null;
  return {
    isAdmin: a.isAdmin,
    permissions: a.permissions,
    dataScope: a.dataScope,
    branchId: a.branchId,
    roleId: a.roleId,
    userId: a.userId,
  };
}

/** Whether `holder` holds at least `grant`: every permission key, and `all` branches when the grant has it. */
export function covers(holder: Power, grant: Grant): boolean {
  if (holder.isAdmin) return true;
  const held = new Set(holder.permissions);
  if (grant.permissions.some((p) => !held.has(p))) return false;
  return grant.dataScope !== 'all' || holder.dataScope === 'all';
}

/** The one rule for acting on another account: the target is not stronger than the caller. */
export function mayActOn(caller: Power, target: Power): boolean {
  if (target.isAdmin) return caller.isAdmin;
  if (caller.isAdmin) return true;
  if (!covers(caller, target)) return false;
  if (caller.dataScope === 'branch' && (target.branchId === null || target.branchId !== caller.branchId)) {
    return false;
  }
  return true;
}

/** Refuses (403, the screen explains it) an action on an account stronger than the caller's. */
export function assertMayActOn(ctx: RequestContext, target: Power): void {
  const caller = callerPower(ctx);
  if (!caller || !mayActOn(caller, target)) {
    throw new AppError('insufficient_rights', 'accountStronger');
  }
}

/**
 * Why the caller may not change (update or delete) this role, or null when it may. `holdersElsewhere` counts
 * the users of other branches than the caller's who hold the role (asked only of a branch-scoped caller).
 */
export function roleRefusal(
  ctx: RequestContext,
  role: { id: number; permissions: unknown; data_scope: unknown },
  holdersElsewhere: number,
): MessageKey | null {
  const caller = callerPower(ctx);
  if (!caller) return 'insufficientRights';
  if (caller.isAdmin) return null;
  if (caller.roleId !== null && Number(role.id) === caller.roleId) return 'roleOwn';
  if (!covers(caller, grantOfRole(role))) return 'roleStronger';
  if (caller.dataScope === 'branch' && holdersElsewhere > 0) return 'roleOtherBranches';
  return null;
}

/**
 * A caller never grants more than it holds: permission keys it lacks (a role's, a role given to a user, an API
 * token's abilities) and `all` branches when it sees one are refused on `field` (422).
 */
export function assertGrantable(
  ctx: RequestContext,
  grant: { permissions: readonly string[]; dataScope?: DataScope },
  field: string,
): void {
  const caller = callerPower(ctx);
  if (caller?.isAdmin) return;
  const held = new Set(caller?.permissions ?? []);
  const extra = grant.permissions.filter((p) => !held.has(p));
  if (extra.length) {
    throw AppError.field('validation', field, msg('grantNotHeld', { keys: extra.join(', ') }));
  }
  if (grant.dataScope === 'all' && caller?.dataScope !== 'all') {
    throw AppError.field('validation', field, 'scopeNotHeld');
  }
}

/** Only an admin makes an admin or changes an admin account's flag. */
export function assertAdmin(ctx: RequestContext, field: string, message: MessageKey): void {
  if (!ctx.access?.isAdmin) throw AppError.field('insufficient_rights', field, message);
}

/**
 * Mail, security and storage settings: an admin, whose session confirmed the password within the admins'
 * window (`ADMIN_CONFIRM_MINUTES`); else 403, or 423 to ask for the password first.
 */
export function assertMayChangeProtectedSettings(ctx: RequestContext): void {
  if (!ctx.access?.isAdmin) throw new AppError('insufficient_rights', 'adminOnlySettings');
  if (ctx.access.viaToken || !ctx.access.recentPasswordConfirmation) {
    throw new AppError('password_confirmation_required');
  }
}

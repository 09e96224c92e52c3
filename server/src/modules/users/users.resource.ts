import { LOCALES } from '../../../../shared/features';
import type { MessageKey, MessageRef } from '../../../../shared/messages';
import { PERMISSIONS } from '../../../../shared/permissions';
import { deriveSchemas } from '../../../../shared/resources/derive';
import { users } from '../../../../shared/resources/users';
import { ZUserCreate, ZUserUpdate } from '../../../../shared/schemas/users';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError, fieldMap } from '../../lib/app-error';
import { hashPassword } from '../../lib/passwords';
import type { ResourceDefinition } from '../../resources/resource';
import { apiDateTime, declaredRules, type StoredRow } from '../../resources/rows';
import {
  accountPower,
  assertAdmin,
  assertGrantable,
  callerPower,
  covers,
  grantOfRole,
  mayActOn,
} from '../access/access-rules';
import { apiTokensRepository } from '../api-tokens/api-tokens.repository';
import { auditService } from '../audit/audit.service';
import { userSessionsRepository } from '../auth/user-sessions.repository';
import { adminRemovalOf, assertNotLastAdmin } from './last-admin';
import { usersRepository } from './users.repository';

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** The accounts among `rows` that are stronger than the caller (access-rules.ts), each with the reason. */
async function strongerAccounts(
  db: Trx,
  rows: StoredRow<typeof users>[],
  ctx: RequestContext,
): Promise<Map<number, MessageKey>> {
  const caller = callerPower(ctx);
  const roleIds = rows.map((r) => r.role_id).filter((id): id is number => Boolean(id));
  const roles = new Map((await usersRepository.rolesByIds(db, roleIds)).map((r) => [r.id, r]));
  const refused = new Map<number, MessageKey>();
  for (const row of rows) {
    const target = accountPower(row, row.role_id ? roles.get(row.role_id) : null);
    if (!caller || !mayActOn(caller, target)) refused.set(row.id, 'accountStronger');
  }
  return refused;
}

const derived = deriveSchemas(users);

/** What the users' schemas add to the declared fields: a password set for someone else (ZUserCreate). */
type UserPassword = { password: string; password_confirmation: string };

/**
 * The rules of staff accounts beyond their declaration (shared/resources/users.ts): passwords are hashed here and
 * never leave, nor do 2FA secrets; the access rules (no account stronger than the caller's, no grant beyond its
 * own, the last admin stays); deactivating or setting someone's password ends their sessions and API tokens.
 */
export const userRules: Partial<ResourceDefinition> = declaredRules<typeof users, UserPassword>(users, {
  schemas: { ...derived, create: ZUserCreate, update: ZUserUpdate },
  hidden: [
    'password_hash',
    'two_factor_secret',
    'two_factor_recovery_codes',
    'two_factor_last_step',
    'two_factor_confirmed_at',
  ],
  toResponse(row) {
    return {
      ...row,
      email_verified_at: apiDateTime(row.email_verified_at),
      last_login_at: apiDateTime(row.last_login_at),
      terms_accepted_at: apiDateTime(row.terms_accepted_at),
    };
  },
  /** Whether 2FA is on (one query for a page); the role's and branch's names are the declared lookups. */
  async expand(db, rows) {
    const twoFactor = await usersRepository.twoFactorConfirmed(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, two_factor_enabled: twoFactor.has(r.id) }));
  },
  /** a user is picked by name or email (the audit log's user filter, a student's consultant) */
  lookupSearch: ['email'],
  /** An account stronger than the caller's is out of its reach: update, password, 2FA reset, delete. */
  refusals: strongerAccounts,
  async beforeWrite(db, data, existing, ctx) {
    // a branch-scoped manager's new users belong to its branch
    if (!existing && ctx.branchScope && data.branch_id === undefined)
      data.branch_id = ctx.branchScope.branchId;
    if ('password' in data && data.password !== data.password_confirmation) {
      throw AppError.field('validation', 'password_confirmation', 'passwordConfirmation');
    }
    if ('password_confirmation' in data && !('password' in data)) {
      throw AppError.field('validation', 'password', 'required');
    }
    if (data.is_admin === true && !(existing && bool(existing.is_admin))) {
      assertAdmin(ctx, 'is_admin', 'adminOnlyMakeAdmin');
    }
    const own = existing !== null && existing.id === ctx.actor.id;
    // one's own password and email change on the profile, where the current password is asked for (§7, §33)
    if (own && 'password' in data) {
      throw AppError.field('business_rule', 'password', 'ownPasswordOnProfile');
    }
    if (own && data.email !== undefined && data.email !== existing.email) {
      throw AppError.field('business_rule', 'email', 'ownEmailOnProfile');
    }
    const removal = existing ? adminRemovalOf(data) : null;
    if (existing && removal) await assertNotLastAdmin(db, existing.id, removal);
    if (data.role_id) {
      const role = await usersRepository.findRole(db, data.role_id);
      if (!role) throw AppError.field('validation', 'role_id', 'roleMissing');
      // a role given to a user is a grant: never one stronger than the caller's own (data scope included)
      if (data.role_id !== existing?.role_id) assertGrantable(ctx, grantOfRole(role), 'role_id');
    }
    if (data.branch_id) {
      if (!(await usersRepository.branchesByIds(db, [data.branch_id])).length) {
        throw AppError.field('validation', 'branch_id', 'branchMissing');
      }
    }
    // after the refusals of power: every account has a role and a branch (domain.md "users"), admins too: is_admin widens the power, it does
    // not replace the role, and the branch numbers and scopes what the user creates (the first-admin CLI gives both)
    const missing = (['role_id', 'branch_id'] as const).filter((field) =>
      existing ? field in data && !data[field] : !data[field],
    );
    if (missing.length) {
      const errors = fieldMap<MessageRef[]>();
      for (const field of missing) errors[field] = [{ key: 'required' }];
      throw new AppError('validation', 'validation', { errors });
    }
  },
  async prepare(_db, input, existing) {
    const { password, password_confirmation: _confirmation, ...data } = input;
    if (password) data.password_hash = await hashPassword(password);
    // a new address is not verified, whoever typed it
    if (existing && data.email !== undefined && data.email !== existing.email) data.email_verified_at = null;
    return data;
  },
  /** Deactivating an account ends all its sessions and API tokens at once (deleting it cascades the same). */
  async afterWrite(db, row, before, ctx) {
    if (before && bool(before.is_active) && !bool(row.is_active)) {
      await userSessionsRepository.deleteForUser(db, row.id);
      await apiTokensRepository.deleteForUser(db, row.id);
    }
    // a password set by someone else ends the user's sign-ins and API tokens; audited without the password
    if (before && row.password_hash !== before.password_hash) {
      await userSessionsRepository.deleteForUser(db, row.id);
      await apiTokensRepository.deleteForUser(db, row.id);
      await auditService.record(db, ctx, { action: 'password_set', entity: 'user', entityId: row.id });
    }
  },
  /** The last active admin cannot be deleted (nor delete their own account). */
  async beforeDelete(db, row) {
    await assertNotLastAdmin(db, row.id, 'delete');
  },
  /** The choices of the user form: only roles the caller may grant, only branches it may assign. */
  createForm: async (db, ctx) => {
    const caller = callerPower(ctx);
    const roles = (await usersRepository.allRoles(db)).filter(
      (role) => caller !== null && covers(caller, grantOfRole(role)),
    );
    return {
      roles: roles.map((r) => ({ id: r.id, name: r.name, name_zh: r.name_zh, data_scope: r.data_scope })),
      branches: await usersRepository.listBranches(
        db,
        ctx.branchScope ? ctx.branchScope.branchId : undefined,
      ),
      permissions: PERMISSIONS,
      languages: LOCALES,
    };
  },
});

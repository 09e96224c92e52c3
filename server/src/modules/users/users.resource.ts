import bcrypt from 'bcrypt';
import { LOCALES } from '../../../../shared/features';
import { PERMISSIONS } from '../../../../shared/permissions';
import { PASSWORD_RULE_MESSAGES } from '../../../../shared/schemas/auth';
import { FIELD_MESSAGES } from '../../../../shared/messages';
import { ZUserCreate, ZUserUpdate } from '../../../../shared/schemas/users';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { fromDbDateTime } from '../../lib/clock';
import type { ResourceDefinition, Row } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';
import { apiTokensRepository } from '../api-tokens/api-tokens.repository';
import { auditService } from '../audit/audit.service';
import { BCRYPT_COST, parsePermissions } from '../auth/auth.service';
import { userSessionsRepository } from '../auth/user-sessions.repository';
import { assertAdmin, assertGrantable } from './grants';
import { adminRemovalOf, assertNotLastAdmin } from './last-admin';

export const IS_ADMIN_NOTICE = 'A change to the admin flag takes effect when the user next signs in.';

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Staff accounts (settings → users). Passwords are hashed here and never leave; neither do 2FA secrets. */
export const usersResource: ResourceDefinition = {
  name: 'user',
  path: '/users',
  table: 'users',
  module: 'users',
  branchColumn: 'branch_id',
  schemas: {
    create: ZUserCreate,
    update: ZUserUpdate,
    filters: z.object({
      role_id: z.coerce.number().int().positive().optional(),
      branch_id: z.coerce.number().int().positive().optional(),
      is_active: z.enum(['true', 'false']).optional(),
    }),
  },
  searchable: ['name', 'email'],
  sortable: ['name', 'email', 'created_at', 'last_login_at'],
  defaultSort: 'name',
  exportColumns: [
    { key: 'name', en: 'Name', zh: '姓名' },
    { key: 'email', en: 'Email', zh: '電郵' },
    { key: 'role_id', en: 'Role ID', zh: '角色編號' },
    { key: 'branch_id', en: 'Branch ID', zh: '分行編號' },
    { key: 'is_admin', en: 'Admin', zh: '管理員' },
    { key: 'language', en: 'Language', zh: '語言' },
    { key: 'is_active', en: 'Active', zh: '啟用' },
    { key: 'two_factor_enabled', en: '2FA', zh: '雙重認證' },
    { key: 'last_login_at', en: 'Last sign-in', zh: '最後登入' },
  ],
  unique: [['email']],
  references: [{ table: 'students', column: 'consultant_user_id', key: 'students' }],
  booleans: ['is_admin', 'is_active'],
  hidden: [
    'password_hash',
    'two_factor_secret',
    'two_factor_recovery_codes',
    'two_factor_last_step',
    'two_factor_confirmed_at',
  ],
  applyFilters(qb, filters) {
    if (filters.role_id) qb.where('role_id', filters.role_id);
    if (filters.branch_id) qb.where('branch_id', filters.branch_id);
    if (filters.is_active) qb.where('is_active', filters.is_active === 'true' ? 1 : 0);
  },
  toResponse(row: Row): Row {
    return {
      ...row,
      email_verified_at: fromDbDateTime(row.email_verified_at),
      last_login_at: fromDbDateTime(row.last_login_at),
      terms_accepted_at: fromDbDateTime(row.terms_accepted_at),
      is_admin_notice: IS_ADMIN_NOTICE,
    };
  },
  async expand(db, rows) {
    const twoFactor = new Map(
      (
        await resourceRepository.findWhere(
          db,
          'users',
          (qb) =>
            qb.whereIn(
              'id',
              rows.map((r) => r.id),
            ),
          ['id', 'two_factor_confirmed_at'],
        )
      ).map((r) => [r.id, Boolean(r.two_factor_confirmed_at)]),
    );
    return rows.map((r) => ({ ...r, two_factor_enabled: twoFactor.get(r.id) ?? false }));
  },
  async beforeWrite(db, data, existing, ctx) {
    // a branch-scoped manager's new users belong to its branch
    if (!existing && ctx.branchScope && data.branch_id === undefined)
      data.branch_id = ctx.branchScope.branchId;
    if ('password' in data && data.password !== data.password_confirmation) {
      throw AppError.field('validation', 'password_confirmation', PASSWORD_RULE_MESSAGES.confirmation);
    }
    if ('password_confirmation' in data && !('password' in data)) {
      throw AppError.field('validation', 'password', 'This field is required.');
    }
    if (existing && bool(existing.is_admin)) {
      assertAdmin(ctx, 'is_admin', 'Only an admin can change an admin account.');
    }
    if (data.is_admin === true && !(existing && bool(existing.is_admin))) {
      assertAdmin(ctx, 'is_admin', 'Only an admin can make a user an admin.');
    }
    if (existing && 'password' in data) {
      // one's own password changes on the profile, where the current one is asked for (quality §7)
      if (existing.id === ctx.actor.id)
        throw AppError.field('business_rule', 'password', FIELD_MESSAGES.ownPasswordOnProfile);
      // whoever sets a password can sign in as that user: never someone holding more than the caller
      const role = existing.role_id
        ? await resourceRepository.findWhere(db, 'roles', (qb) => qb.where('id', existing.role_id))
        : [];
      assertGrantable(ctx, role.length ? parsePermissions(role[0].permissions) : [], 'password');
    }
    const removal = existing ? adminRemovalOf(data) : null;
    if (existing && removal) await assertNotLastAdmin(db, existing.id, removal);
    if (data.role_id) {
      const role = await resourceRepository.findWhere(db, 'roles', (qb) => qb.where('id', data.role_id));
      if (!role.length) throw AppError.field('validation', 'role_id', 'This role does not exist.');
      if (data.role_id !== existing?.role_id) {
        assertGrantable(ctx, parsePermissions(role[0].permissions), 'role_id');
      }
    }
    if (data.branch_id) {
      const branch = await resourceRepository.findWhere(db, 'branches', (qb) =>
        qb.where('id', data.branch_id),
      );
      if (!branch.length) throw AppError.field('validation', 'branch_id', 'This branch does not exist.');
    }
  },
  async prepare(_db, input, existing) {
    const { password, password_confirmation: _confirmation, ...data } = input;
    if (password) data.password_hash = await bcrypt.hash(password, BCRYPT_COST);
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
  createForm: async (db) => ({
    defaults: { language: 'zh_HK', is_active: true, is_admin: false },
    roles: await resourceRepository.findWhere(db, 'roles', (qb) => qb.orderBy('name'), [
      'id',
      'name',
      'data_scope',
    ]),
    branches: await resourceRepository.findWhere(db, 'branches', (qb) => qb.orderBy('code'), [
      'id',
      'code',
      'name_en',
      'name_zh',
    ]),
    permissions: PERMISSIONS,
    languages: LOCALES,
    is_admin_notice: IS_ADMIN_NOTICE,
  }),
};

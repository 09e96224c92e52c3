import { CRUD_ACTIONS, EXTRA_ACTIONS, MODULES, PERMISSIONS } from '../../../../shared/permissions';
import { DATA_SCOPES, ZRoleCreate, ZRoleUpdate } from '../../../../shared/schemas/roles';
import type { ResourceDefinition, Row } from '../../resources/resource';
import { assertGrantable, callerPower, parsePermissions, roleRefusal } from '../access/access-rules';
import { usersRepository } from '../users/users.repository';

/** Roles: a set of permission keys (stored as a JSON array) and the data scope (all branches / own branch). */
export const rolesResource: ResourceDefinition = {
  name: 'role',
  path: '/roles',
  table: 'roles',
  module: 'roles',
  schemas: { create: ZRoleCreate, update: ZRoleUpdate },
  searchable: ['name', 'description'],
  sortable: ['name', 'created_at'],
  defaultSort: 'name',
  exportColumns: [
    { key: 'name', en: 'Name', zh: '名稱' },
    { key: 'description', en: 'Description', zh: '描述' },
    { key: 'data_scope', en: 'Data scope', zh: '資料範圍' },
    {
      key: 'permissions',
      en: 'Permissions',
      zh: '權限',
      value: (r) => (r.permissions as string[]).join(', '),
    },
  ],
  unique: [['name']],
  references: [{ table: 'users', column: 'role_id', key: 'users' }],
  toResponse: (row: Row): Row => ({ ...row, permissions: parsePermissions(row.permissions) }),
  /**
   * Roles out of the caller's reach (access-rules.ts): the one it holds, one with rights it lacks, and — when it
   * sees one branch — one held by users of other branches.
   */
  async refusals(db, rows, ctx) {
    const caller = callerPower(ctx);
    const elsewhere =
      caller && !caller.isAdmin && caller.dataScope === 'branch'
        ? await usersRepository.holdersOutsideBranch(
            db,
            rows.map((r) => r.id),
            caller.branchId,
          )
        : new Map<number, number>();
    const refused = new Map<number, string>();
    for (const row of rows) {
      const reason = roleRefusal(ctx, row as never, elsewhere.get(row.id) ?? 0);
      if (reason) refused.set(row.id, reason);
    }
    return refused;
  },
  /** A role is a grant: its permissions and its data scope stay within the caller's own. */
  async beforeWrite(_db, data, existing, ctx) {
    if (data.permissions) assertGrantable(ctx, { permissions: data.permissions }, 'permissions');
    const dataScope = data.data_scope ?? existing?.data_scope;
    assertGrantable(ctx, { permissions: [], dataScope }, 'data_scope');
  },
  async prepare(_db, input) {
    if (!input.permissions) return input;
    // stored in the shared list's order, each key once
    const chosen = new Set<string>(input.permissions);
    return { ...input, permissions: JSON.stringify(PERMISSIONS.filter((p) => chosen.has(p))) };
  },
  createForm: async () => ({
    defaults: { data_scope: 'branch', permissions: [] },
    data_scopes: DATA_SCOPES,
    permissions: PERMISSIONS,
    /** the role editor's module × action grid */
    grid: MODULES.map((module) => ({
      module,
      actions: [...CRUD_ACTIONS, ...(EXTRA_ACTIONS[module] ?? [])],
    })),
  }),
};

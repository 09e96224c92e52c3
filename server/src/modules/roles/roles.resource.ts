import { CRUD_ACTIONS, EXTRA_ACTIONS, MODULES, PERMISSIONS } from '../../../../shared/permissions';
import { DATA_SCOPES, ZRoleCreate, ZRoleUpdate } from '../../../../shared/schemas/roles';
import type { ResourceDefinition, Row } from '../../resources/resource';
import { parsePermissions } from '../auth/auth.service';
import { assertGrantable } from '../users/grants';

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
  async beforeWrite(_db, data, _existing, ctx) {
    if (data.permissions) assertGrantable(ctx, data.permissions, 'permissions');
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

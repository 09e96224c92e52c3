import { declareResource } from './declaration';

export const DATA_SCOPES = ['all', 'branch'] as const;

/**
 * Roles: a set of permission keys and the data scope (all branches / own branch). The permissions (a JSON array
 * of keys, chosen on a module × action grid) are the roles rules' own: server/src/modules/roles/roles.resource.ts.
 */
export const roles = declareResource({
  name: 'role',
  path: '/roles',
  table: 'roles',
  module: 'roles',
  fields: {
    name: { type: 'text', max: 100, required: true, unique: true, searchable: true, sortable: true },
    /** its name in Chinese; a role without one is named by `name` in both languages */
    name_zh: { type: 'text', max: 100, searchable: true, sortable: true },
    description: { type: 'text', max: 500, searchable: true },
    data_scope: { type: 'text', max: 10, values: DATA_SCOPES, required: true, default: 'branch', help: true },
    created_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
  },
  // a name missing in the language asked for is the other language's (server/src/resources/relations.ts)
  display: { en: ['name'], zh_HK: ['name_zh'] },
  defaultSort: 'name',
  references: [{ table: 'users', column: 'role_id', key: 'users' }],
});

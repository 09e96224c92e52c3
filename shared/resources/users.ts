import { LOCALES } from '../features';
import { declareResource } from './declaration';

/**
 * Staff accounts (settings → users). The password (set on create, or by someone else for a user who cannot sign
 * in) and the access rules are the users rules' own: server/src/modules/users/users.resource.ts.
 */
export const users = declareResource({
  name: 'user',
  path: '/users',
  table: 'users',
  module: 'users',
  fields: {
    name: { type: 'text', max: 100, required: true, searchable: 'name', sortable: true },
    email: { type: 'email', required: true, unique: true, searchable: 'identifier', sortable: true },
    role_id: { type: 'lookup', resource: 'role', filterable: true },
    branch_id: { type: 'lookup', resource: 'branch', filterable: true },
    /** takes effect on the user's next request (the flag is read on every request) */
    is_admin: { type: 'boolean', default: false, help: true },
    language: { type: 'text', max: 10, values: LOCALES, default: 'zh_HK' },
    is_active: { type: 'boolean', default: true, filterable: true, help: true },
    two_factor_enabled: { type: 'boolean', readOnly: true },
    last_login_at: { type: 'datetime', readOnly: true, sortable: true },
    created_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
  },
  display: { en: ['name'], zh_HK: ['name'] },
  defaultSort: 'name',
  branchColumn: 'branch_id',
  references: [{ table: 'students', column: 'consultant_user_id', key: 'students' }],
});

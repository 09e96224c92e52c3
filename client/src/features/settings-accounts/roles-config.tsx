import i18next from 'i18next';
import { DATA_SCOPES, ZRoleCreate, ZRoleUpdate } from '../../../../shared/schemas/roles';
import type { ResourceConfig } from '../../components/resource/types';
import { RoleGrid } from './role-grid';

const scopeLabel = (scope: unknown) =>
  scope === 'all' ? i18next.t('accounts.roles.scopeAll') : i18next.t('accounts.roles.scopeBranch');

/** Settings → roles: a name, the data scope and the permission keys in a module × action grid. */
export const rolesConfig: ResourceConfig = {
  name: 'role',
  apiPath: '/api/roles',
  routePath: '/settings/roles',
  module: 'roles',
  titleKey: 'accounts.roles.title',
  searchable: true,
  exportable: true,
  recordTitle: (row) => String(row.name ?? ''),
  referencedHintKey: 'accounts.roles.referenced',
  auditEntity: 'role',
  columns: [
    { key: 'name', titleKey: 'accounts.roles.name', sortable: true },
    { key: 'description', titleKey: 'accounts.roles.description' },
    { key: 'data_scope', titleKey: 'accounts.roles.dataScope', render: (row) => scopeLabel(row.data_scope) },
    {
      key: 'permissions',
      titleKey: 'accounts.roles.permissionCount',
      render: (row) => String(Array.isArray(row.permissions) ? row.permissions.length : 0),
    },
  ],
  form: {
    create: ZRoleCreate,
    update: ZRoleUpdate,
    fields: [
      { name: 'name', labelKey: 'accounts.roles.name', input: { type: 'text' } },
      { name: 'description', labelKey: 'accounts.roles.description', input: { type: 'textarea' } },
      {
        name: 'data_scope',
        labelKey: 'accounts.roles.dataScope',
        helpKey: 'accounts.roles.dataScopeHelp',
        input: {
          type: 'select',
          options: () => DATA_SCOPES.map((s) => ({ value: s, label: scopeLabel(s) })),
        },
      },
      {
        name: 'permissions',
        labelKey: 'accounts.roles.permissions',
        input: {
          type: 'custom',
          render: ({ record: _record, id: _id, ...control }) => <RoleGrid {...control} />,
        },
      },
    ],
  },
};

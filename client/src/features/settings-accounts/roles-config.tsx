import i18next from 'i18next';
import { DATA_SCOPES, ZRoleCreate, ZRoleUpdate } from '../../../../shared/schemas/roles';
import type { User } from '../../app/types';
import type { ResourceConfig, ResourceRow, Translate } from '../../components/resource/types';
import { RoleGrid } from './role-grid';

/**
 * Why the user may not change a role the server keeps from them (`allowed_actions` empty), in the order the
 * server's access rules check it: the role they hold, a role with rights they lack (a permission, or every
 * branch when they see one), else a role held by users of other branches.
 */
export function roleRefusalNote(row: ResourceRow, { t, user }: { t: Translate; user: User | null }): string {
  if (!user) return t('accounts.roles.readOnly');
  if (user.role && Number(row.id) === user.role.id) return t('serverMessages.roleOwn');
  const held = new Set(user.permissions);
  const permissions = Array.isArray(row.permissions) ? (row.permissions as string[]) : [];
  const wider = row.data_scope === 'all' && user.role?.data_scope !== 'all';
  if (wider || permissions.some((p) => !held.has(p))) return t('serverMessages.roleStronger');
  return t('serverMessages.roleOtherBranches');
}

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
  refusalNote: roleRefusalNote,
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

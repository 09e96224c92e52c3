import { Tag } from 'antd';
import i18next from 'i18next';
import { LOCALES } from '../../../../shared/features';
import { ZUserCreate, ZUserUpdate } from '../../../../shared/schemas/users';
import type { ResourceConfig } from '../../components/resource/types';
import { LookupSelect, recordLookupLabel } from './lookups';
import { UserSecurityTab } from './user-security-tab';

const yesNo = (v: unknown) =>
  v ? <Tag color="green">{i18next.t('accounts.yes')}</Tag> : <Tag>{i18next.t('accounts.no')}</Tag>;

/**
 * Settings → users: staff accounts (role, branch, admin flag, language, active). An account stronger than the
 * user's (`allowed_actions` empty) opens read-only, saying so; one's own email is changed on the profile, and
 * only an admin makes an admin.
 */
export const usersConfig: ResourceConfig = {
  name: 'user',
  apiPath: '/api/users',
  routePath: '/settings/users',
  module: 'users',
  titleKey: 'accounts.users.title',
  searchable: true,
  exportable: true,
  recordTitle: (row) => String(row.name ?? ''),
  referencedHintKey: 'accounts.users.referenced',
  auditEntity: 'user',
  filters: [
    {
      name: 'is_active',
      labelKey: 'accounts.users.active',
      type: 'select',
      options: [
        { value: 'true', labelKey: 'accounts.yes' },
        { value: 'false', labelKey: 'accounts.no' },
      ],
    },
  ],
  columns: [
    { key: 'name', titleKey: 'accounts.users.name', sortable: true },
    { key: 'email', titleKey: 'accounts.users.email', sortable: true },
    // the names the server gives each row (the create form's choices hold only the roles this user may give)
    {
      key: 'role_id',
      titleKey: 'accounts.users.role',
      render: (row, { language }) => recordLookupLabel(row, 'role', language) ?? '—',
    },
    {
      key: 'branch_id',
      titleKey: 'accounts.users.branch',
      render: (row, { language }) => recordLookupLabel(row, 'branch', language) ?? '—',
    },
    { key: 'is_admin', titleKey: 'accounts.users.isAdmin', render: (row) => yesNo(row.is_admin) },
    { key: 'is_active', titleKey: 'accounts.users.active', render: (row) => yesNo(row.is_active) },
    {
      key: 'two_factor_enabled',
      titleKey: 'accounts.users.twoFactor',
      render: (row) => yesNo(row.two_factor_enabled),
    },
    {
      key: 'last_login_at',
      titleKey: 'accounts.users.lastLogin',
      sortable: true,
      render: (row) => (row.last_login_at ? String(row.last_login_at).slice(0, 16).replace('T', ' ') : '—'),
    },
  ],
  tabs: [
    {
      key: 'security',
      labelKey: 'accounts.users.security.tab',
      render: (record) => <UserSecurityTab record={record} />,
    },
  ],
  form: {
    create: ZUserCreate,
    update: ZUserUpdate,
    fields: [
      { name: 'name', labelKey: 'accounts.users.name', input: { type: 'text' } },
      {
        name: 'email',
        labelKey: 'accounts.users.email',
        input: { type: 'text' },
        // one's own address changes on the profile, where the current password is asked for
        locked: ({ record, user }) =>
          record && user && record.id === user.id ? 'serverMessages.ownEmailOnProfile' : null,
      },
      {
        name: 'role_id',
        labelKey: 'accounts.users.role',
        input: {
          type: 'custom',
          render: ({ record, ...control }) => (
            <LookupSelect
              source={{ url: '/api/users/create', list: 'roles' }}
              currentLabel={recordLookupLabel(record, 'role', i18next.language)}
              {...control}
            />
          ),
        },
      },
      {
        name: 'branch_id',
        labelKey: 'accounts.users.branch',
        input: {
          type: 'custom',
          render: ({ record, ...control }) => (
            <LookupSelect
              source={{ url: '/api/users/create', list: 'branches' }}
              currentLabel={recordLookupLabel(record, 'branch', i18next.language)}
              {...control}
            />
          ),
        },
      },
      {
        name: 'language',
        labelKey: 'accounts.users.language',
        input: {
          type: 'select',
          options: () => LOCALES.map((l) => ({ value: l, label: i18next.t(`language.${l}`) })),
        },
      },
      {
        name: 'is_admin',
        labelKey: 'accounts.users.isAdmin',
        helpKey: 'accounts.users.isAdminHelp',
        input: { type: 'switch' },
        locked: ({ user }) => (user?.is_admin ? null : 'serverMessages.adminOnlyMakeAdmin'),
      },
      {
        name: 'is_active',
        labelKey: 'accounts.users.active',
        helpKey: 'accounts.users.activeHelp',
        input: { type: 'switch' },
      },
      { name: 'password', labelKey: 'accounts.users.password', input: { type: 'password' }, only: 'create' },
      {
        name: 'password_confirmation',
        labelKey: 'accounts.users.passwordConfirmation',
        input: { type: 'password' },
        only: 'create',
      },
    ],
  },
};

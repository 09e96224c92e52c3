import { Tag } from 'antd';
import i18next from 'i18next';
import { LOCALES } from '../../../../shared/features';
import { ZUserCreate, ZUserUpdate } from '../../../../shared/schemas/users';
import type { ResourceConfig } from '../../components/resource/types';
import { LookupName, LookupSelect } from './lookups';
import { UserSecurityTab } from './user-security-tab';

const yesNo = (v: unknown) =>
  v ? <Tag color="green">{i18next.t('accounts.yes')}</Tag> : <Tag>{i18next.t('accounts.no')}</Tag>;

/** Settings → users: staff accounts (role, branch, admin flag, language, active). */
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
    {
      key: 'role_id',
      titleKey: 'accounts.users.role',
      render: (row) => <LookupName source={{ url: '/api/users/create', list: 'roles' }} id={row.role_id} />,
    },
    {
      key: 'branch_id',
      titleKey: 'accounts.users.branch',
      render: (row) => (
        <LookupName source={{ url: '/api/users/create', list: 'branches' }} id={row.branch_id} />
      ),
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
      { name: 'email', labelKey: 'accounts.users.email', input: { type: 'text' } },
      {
        name: 'role_id',
        labelKey: 'accounts.users.role',
        input: {
          type: 'custom',
          render: ({ record: _record, ...control }) => (
            <LookupSelect source={{ url: '/api/users/create', list: 'roles' }} {...control} />
          ),
        },
      },
      {
        name: 'branch_id',
        labelKey: 'accounts.users.branch',
        input: {
          type: 'custom',
          render: ({ record: _record, ...control }) => (
            <LookupSelect source={{ url: '/api/users/create', list: 'branches' }} {...control} />
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

import { Tag } from 'antd';
import i18next from 'i18next';
import { ZBranchCreate, ZBranchUpdate } from '../../../../shared/schemas/branches';
import type { ResourceConfig } from '../../components/resource/types';
import { LookupName, LookupSelect } from './lookups';

/** Settings → branches: the offices of the companies (the code goes into document numbers). */
export const branchesConfig: ResourceConfig = {
  name: 'branch',
  apiPath: '/api/branches',
  routePath: '/settings/branches',
  module: 'branches',
  titleKey: 'accounts.branches.title',
  searchable: true,
  exportable: true,
  recordTitle: (row, language) =>
    `${String(row.code ?? '')} ${String((language === 'en' ? row.name_en : row.name_zh) ?? '')}`.trim(),
  referencedHintKey: 'accounts.branches.referenced',
  auditEntity: 'branch',
  columns: [
    { key: 'code', titleKey: 'accounts.branches.code', sortable: true },
    {
      key: 'company_id',
      titleKey: 'accounts.branches.company',
      render: (row) => (
        <LookupName source={{ url: '/api/branches/create', list: 'companies' }} id={row.company_id} />
      ),
    },
    { key: 'name_en', titleKey: 'accounts.branches.nameEn', sortable: true },
    { key: 'name_zh', titleKey: 'accounts.branches.nameZh', sortable: true },
    { key: 'phone', titleKey: 'accounts.branches.phone' },
    {
      key: 'is_active',
      titleKey: 'accounts.branches.active',
      render: (row) =>
        row.is_active ? (
          <Tag color="green">{i18next.t('accounts.yes')}</Tag>
        ) : (
          <Tag>{i18next.t('accounts.no')}</Tag>
        ),
    },
  ],
  form: {
    create: ZBranchCreate,
    update: ZBranchUpdate,
    fields: [
      {
        name: 'company_id',
        labelKey: 'accounts.branches.company',
        input: {
          type: 'custom',
          render: ({ record: _record, ...control }) => (
            <LookupSelect
              source={{ url: '/api/branches/create', list: 'companies' }}
              allowClear={false}
              {...control}
            />
          ),
        },
      },
      {
        name: 'code',
        labelKey: 'accounts.branches.code',
        helpKey: 'accounts.branches.codeHelp',
        input: { type: 'text' },
      },
      { name: 'name_en', labelKey: 'accounts.branches.nameEn', input: { type: 'text' } },
      { name: 'name_zh', labelKey: 'accounts.branches.nameZh', input: { type: 'text' } },
      { name: 'address', labelKey: 'accounts.branches.address', input: { type: 'textarea' } },
      { name: 'phone', labelKey: 'accounts.branches.phone', input: { type: 'text' } },
      { name: 'email', labelKey: 'accounts.branches.email', input: { type: 'text' } },
      { name: 'is_active', labelKey: 'accounts.branches.active', input: { type: 'switch' } },
    ],
  },
};

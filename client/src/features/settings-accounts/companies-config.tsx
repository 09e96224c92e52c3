import { Tag } from 'antd';
import i18next from 'i18next';
import { ZCompanyCreate, ZCompanyUpdate } from '../../../../shared/schemas/companies';
import type { ResourceConfig } from '../../components/resource/types';

/** Settings → companies: the legal entities that issue documents. */
export const companiesConfig: ResourceConfig = {
  name: 'company',
  apiPath: '/api/companies',
  routePath: '/settings/companies',
  module: 'companies',
  titleKey: 'accounts.companies.title',
  searchable: true,
  exportable: true,
  recordTitle: (row, language) =>
    `${String(row.code ?? '')} ${String((language === 'en' ? row.name_en : row.name_zh) ?? '')}`.trim(),
  referencedHintKey: 'accounts.companies.referenced',
  auditEntity: 'company',
  columns: [
    { key: 'code', titleKey: 'accounts.companies.code', sortable: true },
    { key: 'name_en', titleKey: 'accounts.companies.nameEn', sortable: true },
    { key: 'name_zh', titleKey: 'accounts.companies.nameZh', sortable: true },
    { key: 'phone', titleKey: 'accounts.companies.phone' },
    { key: 'email', titleKey: 'accounts.companies.email' },
    {
      key: 'is_active',
      titleKey: 'accounts.companies.active',
      render: (row) =>
        row.is_active ? (
          <Tag color="green">{i18next.t('accounts.yes')}</Tag>
        ) : (
          <Tag>{i18next.t('accounts.no')}</Tag>
        ),
    },
  ],
  form: {
    create: ZCompanyCreate,
    update: ZCompanyUpdate,
    fields: [
      { name: 'code', labelKey: 'accounts.companies.code', input: { type: 'text' } },
      { name: 'name_en', labelKey: 'accounts.companies.nameEn', input: { type: 'text' } },
      { name: 'name_zh', labelKey: 'accounts.companies.nameZh', input: { type: 'text' } },
      { name: 'address_en', labelKey: 'accounts.companies.addressEn', input: { type: 'textarea' } },
      { name: 'address_zh', labelKey: 'accounts.companies.addressZh', input: { type: 'textarea' } },
      { name: 'phone', labelKey: 'accounts.companies.phone', input: { type: 'text' } },
      { name: 'email', labelKey: 'accounts.companies.email', input: { type: 'text' } },
      { name: 'website', labelKey: 'accounts.companies.website', input: { type: 'text' } },
      { name: 'business_registration_no', labelKey: 'accounts.companies.brNo', input: { type: 'text' } },
      { name: 'bank_details', labelKey: 'accounts.companies.bankDetails', input: { type: 'textarea' } },
      { name: 'invoice_footer', labelKey: 'accounts.companies.invoiceFooter', input: { type: 'textarea' } },
      { name: 'is_active', labelKey: 'accounts.companies.active', input: { type: 'switch' } },
    ],
  },
};

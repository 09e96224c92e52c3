import { declareResource } from './declaration';

/** Companies: the legal entities that issue documents (settings → companies). */
export const companies = declareResource({
  name: 'company',
  path: '/companies',
  table: 'companies',
  module: 'companies',
  fields: {
    code: { type: 'text', max: 20, required: true, unique: true, searchable: 'identifier', sortable: true },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    address_en: { type: 'text', max: 500, list: false },
    address_zh: { type: 'text', max: 500, list: false },
    phone: { type: 'text', max: 50, searchable: 'identifier' },
    email: { type: 'email', searchable: 'identifier' },
    website: { type: 'text', max: 191, list: false },
    business_registration_no: { type: 'text', max: 50 },
    bank_details: { type: 'text', max: 5000, multiline: true },
    invoice_footer: { type: 'text', max: 5000, multiline: true },
    is_active: { type: 'boolean', default: true },
    created_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
  },
  display: { en: ['code', 'name_en'], zh_HK: ['code', 'name_zh'] },
  defaultSort: 'code',
  references: [{ table: 'branches', column: 'company_id', key: 'branches' }],
});

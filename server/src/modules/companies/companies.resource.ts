import { ZCompanyCreate, ZCompanyUpdate } from '../../../../shared/schemas/companies';
import type { ResourceDefinition } from '../../resources/resource';

/** Companies: the legal entities that issue documents. */
export const companiesResource: ResourceDefinition = {
  name: 'company',
  path: '/companies',
  table: 'companies',
  module: 'companies',
  schemas: { create: ZCompanyCreate, update: ZCompanyUpdate },
  searchable: ['code', 'name_en', 'name_zh', 'email', 'phone'],
  sortable: ['code', 'name_en', 'name_zh', 'created_at'],
  defaultSort: 'code',
  exportColumns: [
    { key: 'code', en: 'Code', zh: '編號' },
    { key: 'name_en', en: 'Name (English)', zh: '名稱（英文）' },
    { key: 'name_zh', en: 'Name (Chinese)', zh: '名稱（中文）' },
    { key: 'phone', en: 'Phone', zh: '電話' },
    { key: 'email', en: 'Email', zh: '電郵' },
    { key: 'business_registration_no', en: 'BR number', zh: '商業登記號碼' },
    { key: 'is_active', en: 'Active', zh: '啟用' },
  ],
  unique: [['code']],
  references: [{ table: 'branches', column: 'company_id', key: 'branches' }],
  booleans: ['is_active'],
  createForm: async () => ({ defaults: { is_active: true } }),
};

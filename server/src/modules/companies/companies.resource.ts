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
  unique: [['code']],
  references: [{ table: 'branches', column: 'company_id', key: 'branches' }],
  booleans: ['is_active'],
  createForm: async () => ({ defaults: { is_active: true } }),
};

import { z } from 'zod';
import { ZBranchCreate, ZBranchUpdate } from '../../../../shared/schemas/branches';
import { AppError } from '../../lib/app-error';
import type { ResourceDefinition } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';

/**
 * Branches (offices) of the companies. A branch-scoped role sees its own branch only: the scope column is
 * the branch's own id.
 */
export const branchesResource: ResourceDefinition = {
  name: 'branch',
  path: '/branches',
  table: 'branches',
  module: 'branches',
  branchColumn: 'id',
  schemas: {
    create: ZBranchCreate,
    update: ZBranchUpdate,
    filters: z.object({ company_id: z.coerce.number().int().positive().optional() }),
  },
  searchable: ['code', 'name_en', 'name_zh', 'address', 'phone'],
  sortable: ['code', 'name_en', 'name_zh', 'created_at'],
  defaultSort: 'code',
  exportColumns: [
    { key: 'code', en: 'Code', zh: '編號' },
    { key: 'company_id', en: 'Company ID', zh: '公司編號' },
    { key: 'name_en', en: 'Name (English)', zh: '名稱（英文）' },
    { key: 'name_zh', en: 'Name (Chinese)', zh: '名稱（中文）' },
    { key: 'phone', en: 'Phone', zh: '電話' },
    { key: 'email', en: 'Email', zh: '電郵' },
    { key: 'is_active', en: 'Active', zh: '啟用' },
  ],
  unique: [['code']],
  references: [
    { table: 'users', column: 'branch_id', key: 'users' },
    { table: 'students', column: 'branch_id', key: 'students' },
  ],
  booleans: ['is_active'],
  applyFilters(qb, filters) {
    if (filters.company_id) qb.where('company_id', filters.company_id);
  },
  async beforeWrite(db, data, existing, ctx) {
    // a branch-scoped role manages its own branch, it does not open new ones
    if (!existing && ctx.branchScope) throw new AppError('forbidden');
    if (data.company_id !== undefined) {
      const company = await resourceRepository.findWhere(db, 'companies', (qb) =>
        qb.where('id', data.company_id),
      );
      if (!company.length) throw AppError.field('validation', 'company_id', 'This company does not exist.');
    }
  },
  createForm: async (db) => ({
    defaults: { is_active: true },
    companies: await resourceRepository.findWhere(db, 'companies', (qb) => qb.orderBy('code'), [
      'id',
      'code',
      'name_en',
      'name_zh',
    ]),
  }),
};

import { AppError } from '../../lib/app-error';
import type { ResourceDefinition } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';
import { declaredRules } from '../../resources/rows';
import { branches } from '../../../../shared/resources/branches';

/**
 * The rules of branches beyond their declaration (shared/resources/branches.ts): a branch-scoped role manages
 * its own branch and opens no new ones, and a branch belongs to a company that exists.
 */
export const branchRules: Partial<ResourceDefinition> = declaredRules(branches, {
  async beforeWrite(db, data, existing, ctx) {
    // a branch-scoped role manages its own branch, it does not open new ones
    if (!existing && ctx.branchScope) throw new AppError('forbidden');
    if (data.company_id !== undefined) {
      const company = await resourceRepository.findWhere(db, 'companies', (qb) =>
        qb.where('id', data.company_id),
      );
      if (!company.length) throw AppError.field('validation', 'company_id', 'companyMissing');
    }
  },
  /** the company choices of today's client form (the declared `GET /api/companies/lookup` answers the same) */
  createForm: async (db) => ({
    companies: await resourceRepository.findWhere(db, 'companies', (qb) => qb.orderBy('code'), [
      'id',
      'code',
      'name_en',
      'name_zh',
    ]),
  }),
});

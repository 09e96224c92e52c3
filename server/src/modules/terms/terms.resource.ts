import type { orderTerms, refundTerms } from '../../../../shared/resources/terms';
import { declaredDefaults } from '../../../../shared/resources/derive';
import { AppError } from '../../lib/app-error';
import type { ResourceDefinition } from '../../resources/resource';
import { declaredRules } from '../../resources/rows';
import { auditService } from '../audit/audit.service';
import { sanitizeRichText } from './rich-text';
import { termsRepository } from './terms.repository';

/**
 * The rules of order terms and refund terms beyond their declarations (shared/resources/terms.ts): bilingual rich
 * text, sanitised on the way in, and exactly one default of each kind once any exists: the first is the default,
 * making one the default unsets the other in the same transaction, and the default can be neither unset,
 * deactivated nor deleted while other terms could take its place. A term in use is deactivated, not deleted.
 */
export function termsRules(decl: typeof orderTerms | typeof refundTerms): Partial<ResourceDefinition> {
  const table = decl.table;
  return declaredRules(decl, {
    referencedHint: 'deactivateThem',
    async beforeWrite(_db, data, existing) {
      const wasDefault = Boolean(existing?.is_default);
      const isDefault = data.is_default ?? wasDefault;
      const isActive = data.is_active ?? (existing ? Boolean(existing.is_active) : true);
      if (wasDefault && data.is_default === false) {
        throw AppError.field('business_rule', 'is_default', 'termsAlwaysDefault');
      }
      if (isDefault && !isActive) {
        throw AppError.field('business_rule', 'is_active', 'termsDefaultActive');
      }
    },
    async prepare(db, input, existing) {
      const data = { ...input };
      for (const field of ['content_en', 'content_zh']) {
        if (typeof data[field] === 'string') data[field] = sanitizeRichText(data[field]);
      }
      // the first terms of a kind are its default
      if (!existing && data.is_active !== false && (await termsRepository.count(db, table)) === 0) {
        data.is_default = true;
      }
      return data;
    },
    async afterWrite(db, row, _before, ctx) {
      if (!row.is_default) return;
      for (const id of await termsRepository.unsetOtherDefaults(db, table, row.id, ctx.actor.id)) {
        await auditService.record(db, ctx, {
          action: 'update',
          entity: decl.name,
          entityId: id,
          before: { is_default: true },
          after: { is_default: false },
        });
      }
    },
    async beforeDelete(db, row) {
      if (row.is_default && (await termsRepository.count(db, table)) > 1) {
        throw new AppError('conflict', 'termsDefaultDelete');
      }
    },
    createForm: async (db) => ({
      defaults: { ...declaredDefaults(decl), is_default: (await termsRepository.count(db, table)) === 0 },
    }),
  });
}

import { z } from 'zod';
import { ZTermsCreate, ZTermsUpdate } from '../../../../shared/schemas/terms';
import { AppError } from '../../lib/app-error';
import type { Reference, ResourceDefinition } from '../../resources/resource';
import { auditService } from '../audit/audit.service';
import { sanitizeRichText } from './rich-text';
import { termsRepository } from './terms.repository';

export type TermsKind = 'order' | 'refund';

/** The documents that print the terms: a term in use cannot be deleted (deactivate it instead). */
const USED_BY: Record<TermsKind, Reference[]> = {
  order: [
    { table: 'quotations', column: 'order_term_id', key: 'quotations', whenTableExists: true },
    { table: 'orders', column: 'order_term_id', key: 'orders', whenTableExists: true },
  ],
  refund: [{ table: 'refunds', column: 'refund_term_id', key: 'refunds', whenTableExists: true }],
};

/**
 * Order terms and refund terms (`/api/order-terms`, `/api/refund-terms`): bilingual rich text, sanitised on
 * the way in, and exactly one default of each kind once any exists: the first is the default, making one
 * the default unsets the other in the same transaction, and the default can be neither unset, deactivated
 * nor deleted while other terms could take its place.
 */
export function termsResource(kind: TermsKind): ResourceDefinition {
  const table = `${kind}_terms`;
  const def: ResourceDefinition = {
    name: `${kind}_terms`,
    path: `/${kind}-terms`,
    table,
    module: 'settings',
    schemas: {
      create: ZTermsCreate,
      update: ZTermsUpdate,
      filters: z.object({ is_active: z.enum(['true', 'false', '1', '0']).optional() }),
    },
    searchable: ['title_en', 'title_zh'],
    sortable: ['sort_order', 'title_en', 'title_zh', 'updated_at'],
    defaultSort: 'sort_order',
    booleans: ['is_default', 'is_active'],
    references: USED_BY[kind],
    referencedHint: 'Deactivate them instead of deleting them.',
    exportColumns: [
      { key: 'title_en', en: 'Title (English)', zh: '標題（英文）' },
      { key: 'title_zh', en: 'Title (Chinese)', zh: '標題（中文）' },
      { key: 'is_default', en: 'Default', zh: '預設' },
      { key: 'is_active', en: 'Active', zh: '啟用' },
      { key: 'sort_order', en: 'Order', zh: '排序' },
    ],
    applyFilters(qb, filters) {
      if (filters.is_active !== undefined) {
        qb.where('is_active', filters.is_active === 'true' || filters.is_active === '1');
      }
    },
    async beforeWrite(_db, data, existing) {
      const wasDefault = Boolean(existing?.is_default);
      const isDefault = data.is_default ?? wasDefault;
      const isActive = data.is_active ?? (existing ? Boolean(existing.is_active) : true);
      if (wasDefault && data.is_default === false) {
        throw AppError.field(
          'business_rule',
          'is_default',
          'Make other terms the default instead: there is always one default.',
        );
      }
      if (isDefault && !isActive) {
        throw AppError.field('business_rule', 'is_active', 'The default terms must stay active.');
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
          entity: def.name,
          entityId: id,
          before: { is_default: true },
          after: { is_default: false },
        });
      }
    },
    async beforeDelete(db, row) {
      if (row.is_default && (await termsRepository.count(db, table)) > 1) {
        throw new AppError('conflict', 'Make other terms the default before deleting these.');
      }
    },
    createForm: async (db) => ({
      defaults: { is_active: true, is_default: (await termsRepository.count(db, table)) === 0 },
    }),
  };
  return def;
}

import { declareResource, type FieldDeclaration } from './declaration';

/** Rich text (HTML); the server keeps only an allow-list of tags and attributes. */
const TERMS_FIELDS = {
  title_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
  title_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
  content_en: { type: 'richtext', max: 200_000, required: true },
  content_zh: { type: 'richtext', max: 200_000, required: true },
  is_default: { type: 'boolean', default: false, help: true },
  is_active: { type: 'boolean', default: true, filterable: true },
  sort_order: { type: 'integer', min: 0, max: 1_000_000, default: 0, sortable: true },
  updated_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
} as const satisfies Record<string, FieldDeclaration>;

/**
 * Order terms and refund terms: bilingual printed terms, two tables of one shape, exactly one default of each
 * kind (the terms rules: server/src/modules/terms/terms.resource.ts). A term in use cannot be deleted.
 */
export const orderTerms = declareResource({
  name: 'order_terms',
  path: '/order-terms',
  table: 'order_terms',
  module: 'settings',
  fields: TERMS_FIELDS,
  display: { en: ['title_en'], zh_HK: ['title_zh'] },
  defaultSort: 'sort_order',
  references: [
    { table: 'quotations', column: 'order_term_id', key: 'quotations', whenTableExists: true },
    { table: 'orders', column: 'order_term_id', key: 'orders', whenTableExists: true },
  ],
});

export const refundTerms = declareResource({
  name: 'refund_terms',
  path: '/refund-terms',
  table: 'refund_terms',
  module: 'settings',
  fields: TERMS_FIELDS,
  display: { en: ['title_en'], zh_HK: ['title_zh'] },
  defaultSort: 'sort_order',
  references: [{ table: 'refunds', column: 'refund_term_id', key: 'refunds', whenTableExists: true }],
});

import { declareResource } from './declaration';

/**
 * Reusable priced items quotations pick from (domain.md "Products, events, quotation items"; spec
 * `/quotations/item`): a package for a school, an intake and a subject that intake opens (chosen in that order,
 * as the application form does), or a bundle of services (a product), all optional; a unit and a unit price in
 * its currency.
 */
export const quotationItems = declareResource({
  name: 'quotation_item',
  path: '/quotation-items',
  table: 'quotation_items',
  module: 'quotation_items',
  fields: {
    code: {
      type: 'text',
      max: 40,
      required: true,
      unique: true,
      searchable: 'identifier',
      sortable: true,
      pattern: 'code',
      uppercase: true,
    },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    product_id: { type: 'lookup', resource: 'product', filterable: true },
    school_id: { type: 'lookup', resource: 'school', filterable: true },
    admission_id: {
      type: 'lookup',
      resource: 'school_admission',
      filterable: true,
      list: false,
      export: true,
      narrowedBy: { field: 'school_id', filter: 'school_id' },
    },
    subject_id: {
      type: 'lookup',
      resource: 'school_subject',
      filterable: true,
      help: true,
      narrowedBy: { field: 'admission_id', filter: 'admission_id' },
    },
    unit: { type: 'option', key: 'unit' },
    unit_price: { type: 'money', currency: 'currency', min: 0, required: true },
    currency: { type: 'currency', required: true, list: false, export: true },
    description: { type: 'text', max: 2000, multiline: true },
    is_active: { type: 'boolean', default: true, filterable: true },
  },
  display: { en: ['code', 'name_en'], zh_HK: ['code', 'name_zh'] },
  defaultSort: 'code',
  references: [
    { table: 'quotation_lines', column: 'quotation_item_id', key: 'quotation_lines', whenTableExists: true },
    { table: 'order_items', column: 'quotation_item_id', key: 'order_items', whenTableExists: true },
  ],
  page: { route: '/quotations/item', menu: { group: 'quotations', order: 20 } },
});

import { declareResource } from './declaration';

/**
 * What the agency sells (domain.md "Products, events, quotation items"; spec `/products/categories`,
 * `/products/products`): services grouped in categories, each with a unique code, a unit of the `unit` option
 * list and a price in its currency. The screens call them services, as the spec's labels do ("service and
 * category"); the API and the routes keep the spec's `products`.
 */
export const productCategories = declareResource({
  name: 'product_category',
  path: '/product-categories',
  table: 'product_categories',
  module: 'products',
  fields: {
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    sort_order: { type: 'integer', min: 0, max: 99999, default: 0, sortable: true },
    is_active: { type: 'boolean', default: true, filterable: true },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh'] },
  defaultSort: 'sort_order',
  unique: [['name_en'], ['name_zh']],
  references: [{ table: 'products', column: 'category_id', key: 'products' }],
  page: { route: '/products/categories', menu: { group: 'products', order: 20 } },
});

/**
 * A service (application handling, a language course, dormitory arrangement …): imported from and exported to
 * XLSX / CSV with a template in either language. In use by a quotation item, a quotation line or an order line,
 * it cannot be deleted (deactivate it instead).
 */
export const products = declareResource({
  name: 'product',
  path: '/products',
  table: 'products',
  module: 'products',
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
    category_id: { type: 'lookup', resource: 'product_category', required: true, filterable: true },
    unit: { type: 'option', key: 'unit' },
    price: { type: 'money', currency: 'currency', min: 0, required: true },
    currency: { type: 'currency', required: true, list: false, export: true },
    description: { type: 'text', max: 2000, multiline: true },
    is_active: { type: 'boolean', default: true, filterable: true },
  },
  display: { en: ['code', 'name_en'], zh_HK: ['code', 'name_zh'] },
  defaultSort: 'code',
  references: [
    { table: 'quotation_items', column: 'product_id', key: 'quotation_items' },
    { table: 'quotation_lines', column: 'product_id', key: 'quotation_lines', whenTableExists: true },
    { table: 'order_items', column: 'product_id', key: 'order_items', whenTableExists: true },
  ],
  importable: true,
  page: { route: '/products/products', menu: { group: 'products', order: 10 } },
});

import { declareResource } from './declaration';

/** Student categories (spec `/students/categories`): a coloured tag on each student. */
export const studentCategories = declareResource({
  name: 'student_category',
  path: '/student-categories',
  table: 'student_categories',
  module: 'student_categories',
  fields: {
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    color: { type: 'color', default: '#1677ff' },
    sort_order: { type: 'integer', min: 0, max: 99999, default: 0, sortable: true },
    is_active: { type: 'boolean', default: true, filterable: true },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh'] },
  defaultSort: 'sort_order',
  unique: [['name_en'], ['name_zh']],
  references: [{ table: 'students', column: 'category_id', key: 'students' }],
  importable: true,
  page: { route: '/students/categories', menu: { group: 'students', order: 20 } },
});

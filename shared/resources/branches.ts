import { declareResource } from './declaration';

/**
 * Branches (offices) of the companies. A branch-scoped role sees its own branch only: the scope column is the
 * branch's own id.
 */
export const branches = declareResource({
  name: 'branch',
  path: '/branches',
  table: 'branches',
  module: 'branches',
  fields: {
    code: {
      type: 'text',
      max: 10,
      required: true,
      uppercase: true,
      pattern: 'letters_digits',
      unique: true,
      searchable: 'identifier',
      sortable: true,
      help: true,
    },
    company_id: { type: 'lookup', resource: 'company', required: true, filterable: true },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    address: { type: 'text', max: 500, searchable: 'name', list: false },
    phone: { type: 'text', max: 50, searchable: 'identifier' },
    email: { type: 'email' },
    is_active: { type: 'boolean', default: true },
    created_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
  },
  display: { en: ['code', 'name_en'], zh_HK: ['code', 'name_zh'] },
  defaultSort: 'code',
  branchColumn: 'id',
  references: [
    { table: 'users', column: 'branch_id', key: 'users' },
    { table: 'students', column: 'branch_id', key: 'students' },
  ],
});

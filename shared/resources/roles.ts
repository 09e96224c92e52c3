import { declareResource } from './declaration';

export const DATA_SCOPES = ['all', 'branch'] as const;

/**
 * The descriptions of the roles an install creates (the demo seed, `npm run admin:create`), in both languages;
 * migration 20261128000040_role_descriptions gives existing installs' seeded roles the Chinese.
 */
export const SEEDED_ROLE_DESCRIPTIONS: Record<'Administrator' | 'Consultant', { en: string; zh: string }> = {
  Administrator: { en: 'Every module, every branch', zh: '所有模組，所有分行' },
  Consultant: {
    en: 'Students, quotations and invoices of their own branch',
    zh: '所屬分行的學生、報價單及發票',
  },
};

/**
 * Roles: a set of permission keys and the data scope (all branches / own branch). The permissions (a JSON array
 * of keys, chosen on a module × action grid) are the roles rules' own: server/src/modules/roles/roles.resource.ts.
 */
export const roles = declareResource({
  name: 'role',
  path: '/roles',
  table: 'roles',
  module: 'roles',
  fields: {
    name: { type: 'text', max: 100, required: true, unique: true, searchable: 'name', sortable: true },
    /** its name in Chinese; a role without one is named by `name` in both languages */
    name_zh: { type: 'text', max: 100, searchable: 'name', sortable: true },
    description: { type: 'text', max: 500, searchable: 'name' },
    /** its description in Chinese; the list shows the reader's language (the English where there is none) */
    description_zh: { type: 'text', max: 500, searchable: 'name', list: false, export: true },
    data_scope: { type: 'text', max: 10, values: DATA_SCOPES, required: true, default: 'branch', help: true },
    created_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
  },
  // a name missing in the language asked for is the other language's (server/src/resources/relations.ts)
  display: { en: ['name'], zh_HK: ['name_zh'] },
  defaultSort: 'name',
  references: [{ table: 'users', column: 'role_id', key: 'users' }],
});

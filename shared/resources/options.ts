import { declareResource } from './declaration';

/** The editable option lists (domain.md "Reference data"), each at `/api/options/{key}`. */
export const OPTION_KEYS = [
  'nationality',
  'gender',
  'relationship',
  'education_level',
  'korean_level',
  'topik_level',
  'visa_type',
  'school_type',
  'degree_level',
  'term',
  'document_type',
  'payment_method',
  'unit',
  'event_type',
  'currency',
  'student_status',
] as const;
export type OptionKey = (typeof OPTION_KEYS)[number];

/**
 * The option lists: one declaration for every list of the shared `options` table, served at `/api/options/{key}`
 * (each list's rows have that `key`). A value in use cannot be deleted nor change its code (the option rules:
 * server/src/modules/options/options.resource.ts).
 */
export const options = declareResource({
  name: 'option',
  path: '/options/:key',
  table: 'options',
  module: 'settings',
  family: { param: 'key', members: OPTION_KEYS },
  fields: {
    /** a stable code, stored in the records that use it (students.gender …) */
    value: {
      type: 'text',
      max: 40,
      required: true,
      pattern: 'code',
      searchable: 'identifier',
      sortable: true,
      help: true,
    },
    label_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    label_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    /** a new entry without one goes to the end of its list */
    sort_order: { type: 'integer', min: 0, max: 1_000_000, sortable: true },
    is_active: { type: 'boolean', default: true, filterable: true },
    /** how many records use the value: when > 0 it cannot be deleted, only deactivated */
    in_use: { type: 'integer', readOnly: true },
  },
  display: { en: ['label_en'], zh_HK: ['label_zh'] },
  defaultSort: 'sort_order',
});

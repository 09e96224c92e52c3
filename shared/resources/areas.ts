import { declareResource } from './declaration';

/**
 * Areas and their districts, one tree two levels deep: an area has no parent, a district's parent is its area.
 * The list shows the areas, each with its districts; `?parent_id=` lists one area's districts; an export writes
 * both, each district naming its area (a tree: the machinery's `tree`, server/src/resources/resource.ts).
 */
export const areas = declareResource({
  name: 'area',
  path: '/areas',
  table: 'areas',
  module: 'settings',
  fields: {
    parent_id: { type: 'lookup', resource: 'area', filterable: true, help: true },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_ko: { type: 'text', max: 200, searchable: 'name' },
    sort_order: { type: 'integer', min: 0, max: 1_000_000, default: 0, sortable: true },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh'] },
  defaultSort: 'sort_order',
  unique: [['parent_id', 'name_en']],
  references: [{ table: 'areas', column: 'parent_id', key: 'districts' }],
});

import { declareResource } from './declaration';

/** Public holidays, listed by year (the holidays rules' `year` filter: the current year when none is asked for). */
export const holidays = declareResource({
  name: 'holiday',
  path: '/holidays',
  table: 'holidays',
  module: 'settings',
  fields: {
    date: { type: 'date', required: true, unique: true, sortable: true },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
  },
  display: { en: ['date', 'name_en'], zh_HK: ['date', 'name_zh'] },
  defaultSort: 'date',
  importable: true,
});

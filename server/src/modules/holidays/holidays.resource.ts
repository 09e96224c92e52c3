import { z } from 'zod';
import { ZHolidayCreate, ZHolidayUpdate } from '../../../../shared/schemas/holidays';
import { currentYear } from '../../lib/clock';
import type { ResourceDefinition } from '../../resources/resource';

/** Public holidays, listed by year: the current year when none is asked for. */
export const holidaysResource: ResourceDefinition = {
  name: 'holiday',
  path: '/holidays',
  table: 'holidays',
  module: 'settings',
  schemas: {
    create: ZHolidayCreate,
    update: ZHolidayUpdate,
    filters: z.object({
      year: z.coerce
        .number()
        .int()
        .min(1900)
        .max(2999)
        .default(() => currentYear()),
    }),
  },
  searchable: ['name_en', 'name_zh'],
  sortable: ['date', 'name_en', 'name_zh'],
  defaultSort: 'date',
  unique: [['date']],
  exportColumns: [
    { key: 'date', en: 'Date', zh: '日期' },
    { key: 'name_en', en: 'English name', zh: '英文名稱' },
    { key: 'name_zh', en: 'Chinese name', zh: '中文名稱' },
  ],
  applyFilters(qb, filters) {
    qb.whereBetween('date', [`${filters.year}-01-01`, `${filters.year}-12-31`]);
  },
  createForm: async () => ({ defaults: { year: currentYear() } }),
};

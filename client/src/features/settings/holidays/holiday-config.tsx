import { ZHolidayCreate, ZHolidayUpdate } from '../../../../../shared/schemas/holidays';
import type { ResourceConfig } from '../../../components/resource/types';
import { localName } from '../names';
import { HolidayImportButton } from './holiday-import';

const year = new Date().getFullYear();

/** `/settings/holiday`: public holidays by year (the current year by default), importable from CSV/XLSX. */
export const holidayConfig: ResourceConfig = {
  name: 'holiday',
  apiPath: '/api/holidays',
  routePath: '/settings/holiday',
  module: 'settings',
  titleKey: 'settings.holiday.title',
  searchable: true,
  exportable: true,
  auditEntity: 'holiday',
  columns: [
    { key: 'date', titleKey: 'settings.holiday.date', sortable: true },
    { key: 'name_en', titleKey: 'settings.fields.nameEn', sortable: true },
    { key: 'name_zh', titleKey: 'settings.fields.nameZh', sortable: true },
  ],
  filters: [
    {
      name: 'year',
      labelKey: 'settings.holiday.year',
      type: 'select',
      defaultValue: () => String(year),
      options: Array.from({ length: 11 }, (_, i) => ({
        value: String(year - 5 + i),
        label: String(year - 5 + i),
      })),
    },
  ],
  recordTitle: (row, language) => `${String(row.date ?? '')} ${localName(row, language)}`.trim(),
  toolbar: ({ reload }) => <HolidayImportButton onImported={reload} />,
  form: {
    create: ZHolidayCreate,
    update: ZHolidayUpdate,
    fields: [
      { name: 'date', labelKey: 'settings.holiday.date', input: { type: 'date' } },
      { name: 'name_en', labelKey: 'settings.fields.nameEn', input: { type: 'text' } },
      { name: 'name_zh', labelKey: 'settings.fields.nameZh', input: { type: 'text' } },
    ],
  },
};

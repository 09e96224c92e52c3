import { holidays } from '../../../../../shared/resources/holidays';
import { configFromDeclaration } from '../../../components/resource/from-declaration';

const year = new Date().getFullYear();

/**
 * `/settings/holiday`: public holidays by year (the holidays rules' `year` filter, the current year by default),
 * importable from CSV/XLSX.
 */
export const holidayConfig = configFromDeclaration(holidays, {
  routePath: '/settings/holiday',
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
});

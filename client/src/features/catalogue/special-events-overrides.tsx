import { EVENT_DATE_TYPES } from '../../../../shared/resources/special-events';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';
import type { ResourceFilter } from '../../components/resource/types';
import { inBusinessTime } from '../../i18n/date-time';

const label = (name: string) => `resources.special_event.filters.${name}`;

/** Which dates the window ranges over, and its two ends (Hong Kong dates, both days included). */
const WINDOW_FILTERS: ResourceFilter[] = [
  {
    name: 'date_type',
    labelKey: label('date_type'),
    type: 'select',
    options: EVENT_DATE_TYPES.map((value) => ({
      value,
      labelKey: `resources.special_event.values.date_type.${value}`,
    })),
  },
  { name: 'start', labelKey: label('start'), type: 'date' },
  { name: 'end', labelKey: label('end'), type: 'date' },
];

/**
 * What the special events' screens show beyond their declaration: the list's date window first in the filter bar
 * (`date_type`, `start`, `end`: the server's own filters), opening on the spec's default — registration dates from
 * today to 31 December of this year, Hong Kong dates — written into the address so that a reload keeps it; a
 * registration is named by its student.
 */
const overrides: DeclarationOverrides = {
  filters: (derived) => [...WINDOW_FILTERS, ...derived],
  defaultQuery: () => {
    const today = inBusinessTime(new Date()).format('YYYY-MM-DD');
    return { date_type: 'reg_date', start: today, end: `${today.slice(0, 4)}-12-31` };
  },
  recordTabs: {
    registration: {
      child: {
        recordTitle: (row) => String(row.student_name || row.id || ''),
      },
    },
  },
};

export default overrides;

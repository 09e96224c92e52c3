import { CALENDAR_MAX_DAYS, CALENDAR_SOURCES } from '../calendar';
import { defineReport } from './definition';

/**
 * Calendar (issue 29, item 2): the calendar feed's entries in a range of days (at most the feed's 400), of one
 * source or all those the caller may see, in its branch scope; or counted by source.
 */
export const calendarReport = defineReport({
  name: 'calendar',
  group: 'calendar',
  api: '/reports/calendar',
  route: '/reports/calendar',
  criteria: {
    date: { type: 'dateRange', default: 'this_month', bounded: true, maxDays: CALENDAR_MAX_DAYS },
    source: { type: 'values', values: CALENDAR_SOURCES, labels: 'reports.calendar.sources' },
    branch_id: { type: 'lookup', resource: 'branch' },
  },
  columns: {
    date: { type: 'date' },
    time: { type: 'text' },
    end_date: { type: 'date' },
    source: { type: 'text' },
    title: { type: 'text', link: 'url' },
    detail: { type: 'text' },
    branch: { type: 'text' },
    entries: { type: 'integer', total: true },
  },
  detail: ['date', 'time', 'end_date', 'source', 'title', 'detail', 'branch'],
  groupings: { source: ['source', 'entries'] },
  order: 80,
});

import { declareResource } from './declaration';

/**
 * Staff's own calendar entries (domain.md "Calendar"), shown in the calendar feed beside holidays and intake
 * milestones (`GET /api/calendars`, source `calendar_event`). An entry belongs to a branch: a branch-scoped user
 * sees and writes its own branch's only. The rules (server/src/modules/calendar/calendar-events.resource.ts) set
 * `user_id` to the creator, default the branch to the creator's and keep the end on or after the start.
 */
export const calendarEvents = declareResource({
  name: 'calendar_event',
  path: '/calendar-events',
  table: 'calendar_events',
  module: 'calendar',
  fields: {
    title: { type: 'text', max: 200, required: true, searchable: 'name' },
    start_at: { type: 'datetime', required: true, sortable: true, filterable: true },
    end_at: { type: 'datetime' },
    all_day: { type: 'boolean', default: false },
    color: { type: 'color' },
    remark: { type: 'text', max: 2000, multiline: true },
    branch_id: { type: 'lookup', resource: 'branch', filterable: true },
  },
  display: { en: ['title'], zh_HK: ['title'] },
  defaultSort: '-start_at',
  branchColumn: 'branch_id',
  page: { route: '/calendar/events' },
});

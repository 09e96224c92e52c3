import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { apiDateTime } from '../../resources/rows';
import { calendarRepository } from './calendar.repository';
import {
  addDays,
  businessDay,
  registerCalendarSource,
  type CalendarFilter,
  type CalendarRange,
  type SourceEntry,
} from './calendar.sources';

/**
 * The Hong Kong days an all-day entry covers: from its start's day to the day its end falls in (an end at a
 * midnight, as a calendar widget gives it, closes the day before), as FullCalendar reads them (`end` the day
 * after the last, or null for one day).
 */
function allDaySpan(startIso: string, endIso: string | null): { start: string; end: string | null } {
  const start = businessDay(startIso);
  if (!endIso || Date.parse(endIso) <= Date.parse(startIso)) return { start, end: null };
  const last = businessDay(new Date(Date.parse(endIso) - 1).toISOString());
  return { start, end: last > start ? addDays(last, 1) : null };
}

/**
 * Staff's own entries (calendar_events): bound to their branch (the filter), each in its own colour when it has
 * one, linking to the entry's screen; the remark is its detail.
 */
async function calendarEventEntries(
  db: Trx,
  range: CalendarRange,
  ctx: RequestContext,
  filter: CalendarFilter,
): Promise<SourceEntry[]> {
  const rows = await calendarRepository.calendarEvents(db, range, filter, ctx.signal);
  return rows.map((row) => {
    const id = Number(row.id);
    const startIso = apiDateTime(row.start_at) ?? '';
    const endIso = apiDateTime(row.end_at);
    const allDay = Boolean(row.all_day);
    const span = allDay ? allDaySpan(startIso, endIso) : { start: startIso, end: endIso };
    return {
      id: `calendar_event:${id}`,
      title: String(row.title),
      detail: typeof row.remark === 'string' && row.remark ? row.remark : null,
      ...span,
      all_day: allDay,
      color: typeof row.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(row.color) ? row.color : null,
      url: `/calendar/events/${id}`,
      record: { type: 'calendar_event', id },
      branch_id: row.branch_id === null || row.branch_id === undefined ? null : Number(row.branch_id),
    };
  });
}

export function registerCalendarEventSource(): void {
  registerCalendarSource('calendar_event', {
    permission: 'calendar.view',
    color: '#434343',
    entries: calendarEventEntries,
  });
}

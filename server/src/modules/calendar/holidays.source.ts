import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { calendarRepository } from './calendar.repository';
import { nameIn, registerCalendarSource, type CalendarRange, type SourceEntry } from './calendar.sources';

/** Public holidays (settings → holidays): all-day, agency-wide, for anyone who may see the calendar. */
async function holidayEntries(db: Trx, range: CalendarRange, ctx: RequestContext): Promise<SourceEntry[]> {
  const rows = await calendarRepository.holidays(db, range, ctx.signal);
  return rows.map((row) => {
    const date = String(row.date).slice(0, 10);
    const id = Number(row.id);
    return {
      id: `holiday:${id}`,
      title: nameIn(ctx.language, row.name_en, row.name_zh),
      detail: null,
      start: date,
      end: null,
      all_day: true,
      url: `/settings/holiday?year=${date.slice(0, 4)}`,
      record: { type: 'holiday', id },
      branch_id: null,
    };
  });
}

export function registerHolidaySource(): void {
  registerCalendarSource('holiday', {
    permission: 'calendar.view',
    color: '#cf1322',
    entries: holidayEntries,
  });
}

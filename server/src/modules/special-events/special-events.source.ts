import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import { apiDateTime } from '../../resources/rows';
import {
  addDays,
  nameIn,
  registerCalendarSource,
  type CalendarRange,
  type SourceEntry,
} from '../calendar/calendar.sources';
import { specialEventsRepository } from './special-events.repository';

type Language = RequestContext['language'];

/** What a registration period is called in its title ("Registration: Korea University briefing"). */
const REGISTRATION_LABEL: Record<Language, string> = { en: 'Registration', zh_HK: '報名' };

/** Between a title's label and what it is about. */
const SEPARATOR: Record<Language, string> = { en: ': ', zh_HK: '：' };

const day = (value: unknown): string => String(value).slice(0, 10);

/** An entry of an event, linking to its record page; agency-wide (events are every branch's). */
function eventEntry(row: Row, parts: Omit<SourceEntry, 'url' | 'record' | 'branch_id'>): SourceEntry {
  const id = Number(row.id);
  return {
    ...parts,
    url: `/special-events/basic/${id}`,
    record: { type: 'special_event', id },
    branch_id: null,
  };
}

/** Each event's registration period, all day from the day it opens to the day it closes, the venue its detail. */
async function registrationEntries(
  db: Trx,
  range: CalendarRange,
  ctx: RequestContext,
): Promise<SourceEntry[]> {
  const rows = await specialEventsRepository.registrationPeriods(db, range.start, range.end, ctx.signal);
  const language = ctx.language;
  return rows.map((row) => {
    const start = day(row.reg_start_date);
    const last = day(row.reg_end_date);
    return eventEntry(row, {
      id: `event_registration:${Number(row.id)}`,
      title: `${REGISTRATION_LABEL[language]}${SEPARATOR[language]}${nameIn(language, row.title_en, row.title_zh)}`,
      detail: typeof row.venue === 'string' && row.venue ? row.venue : null,
      start,
      end: last > start ? addDays(last, 1) : null,
      all_day: true,
    });
  });
}

/** Each event at its own times (Hong Kong), titled by its title, the venue its detail. */
async function eventEntries(db: Trx, range: CalendarRange, ctx: RequestContext): Promise<SourceEntry[]> {
  const rows = await specialEventsRepository.eventsBetween(db, range.startUtc, range.endUtc, ctx.signal);
  const language = ctx.language;
  return rows.map((row) =>
    eventEntry(row, {
      id: `special_event:${Number(row.id)}`,
      title: nameIn(language, row.title_en, row.title_zh),
      detail: typeof row.venue === 'string' && row.venue ? row.venue : null,
      start: apiDateTime(row.event_start) ?? '',
      end: apiDateTime(row.event_end),
      all_day: false,
    }),
  );
}

/**
 * Special events in the calendar (issue 26): their registration periods and the events themselves, for whoever
 * may see the calendar and view special events. Events are the agency's, shared by every branch, so every branch
 * scope sees them (no branch of their own).
 */
export function registerSpecialEventSources(): void {
  registerCalendarSource('event_registration', {
    permission: 'special_events.view',
    color: '#876800',
    entries: registrationEntries,
  });
  registerCalendarSource('special_event', {
    permission: 'special_events.view',
    color: '#d4380d',
    entries: eventEntries,
  });
}

import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { CALENDAR_SOURCES, type CalendarEntry, type CalendarSource } from '../../../../shared/calendar';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { toDbDateTime } from '../../lib/clock';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The business's time zone: the calendar's days are Hong Kong days. */
export const BUSINESS_TIME_ZONE = 'Asia/Hong_Kong';

/**
 * The days a feed asks for: `start` and `end` (exclusive) as `YYYY-MM-DD` Hong Kong days, for DATE columns; and
 * the same bounds as instants (`startUtc`, `endUtc`: the database's UTC DATETIME text of those days' midnights
 * in Hong Kong), for DATETIME columns.
 */
export interface CalendarRange {
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
}

/**
 * Which branch-bound entries an answer holds: `branchIds` null for every branch's, else only those branches'
 * (none when empty: a branch-scoped caller without a branch). Agency-wide entries (holidays, intakes) ignore it.
 */
export interface CalendarFilter {
  branchIds: readonly number[] | null;
}

/** An entry as a source gives it: the feed adds its source key and, unless the entry has its own, the colour. */
export type SourceEntry = Omit<CalendarEntry, 'source' | 'color'> & { color?: string | null };

/** One source of calendar entries, registered by the module that owns the records. */
export interface CalendarSourceDefinition {
  /** the permission a caller needs to see it (besides `calendar.view`, which the feed itself needs) */
  permission: string;
  /** `#rrggbb`: its entries' colour and the legend's */
  color: string;
  /**
   * its entries in `range`, in the caller's language (`ctx.language`), within `filter`; at most a few queries,
   * down an index of the date columns
   */
  entries(db: Trx, range: CalendarRange, ctx: RequestContext, filter: CalendarFilter): Promise<SourceEntry[]>;
}

const SOURCES = new Map<CalendarSource, CalendarSourceDefinition>();

/**
 * Adds (or replaces: each app built in one process registers its modules again) the source `key`. A module whose
 * records belong in the calendar registers its source when it registers its routes.
 */
export function registerCalendarSource(key: CalendarSource, source: CalendarSourceDefinition): void {
  if (!CALENDAR_SOURCES.includes(key)) throw new Error(`Unknown calendar source ${key}`);
  SOURCES.set(key, source);
}

/** The registered sources, in the order of `CALENDAR_SOURCES` (the legend's). */
export function registeredCalendarSources(): [CalendarSource, CalendarSourceDefinition][] {
  return CALENDAR_SOURCES.flatMap((key) => {
    const source = SOURCES.get(key);
    return source ? [[key, source] as [CalendarSource, CalendarSourceDefinition]] : [];
  });
}

/** `YYYY-MM-DD` plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  return dayjs.utc(date).add(days, 'day').format('YYYY-MM-DD');
}

/** The days between two `YYYY-MM-DD` dates (`end` − `start`). */
export function daysBetween(start: string, end: string): number {
  return dayjs.utc(end).diff(dayjs.utc(start), 'day');
}

/** The instant a Hong Kong day begins, as the database's UTC DATETIME text. */
export function dayStartUtc(date: string): string {
  return toDbDateTime(dayjs.tz(date, BUSINESS_TIME_ZONE).valueOf());
}

/** The Hong Kong day (`YYYY-MM-DD`) of an instant given as ISO 8601. */
export function businessDay(iso: string): string {
  return dayjs(iso).tz(BUSINESS_TIME_ZONE).format('YYYY-MM-DD');
}

/** The range of the days `start` to `end` (exclusive). */
export function calendarRange(start: string, end: string): CalendarRange {
  return { start, end, startUtc: dayStartUtc(start), endUtc: dayStartUtc(end) };
}

/** A row's name in the caller's language, else in the other one (domain.md: the UI falls back). */
export function nameIn(language: 'en' | 'zh_HK', en: unknown, zh: unknown): string {
  const [first, second] = language === 'en' ? [en, zh] : [zh, en];
  return String((first || second) ?? '');
}

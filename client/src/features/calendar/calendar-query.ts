import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import type { EventInput } from '@fullcalendar/react';
import {
  CALENDAR_SOURCES,
  type CalendarEntry,
  type CalendarSource,
  type CalendarType,
} from '../../../../shared/calendar';
import type { Locale } from '../../../../shared/features';
import { inBusinessTime } from '../../components/resource/renderers';
import type { CalendarFeedArgs } from './calendar-api';

dayjs.extend(utc);

/**
 * What the calendar screens keep in the URL's query string, so a month (and its filters) is a link and the
 * month ↔ list switch keeps it: `?date=2026-12-01&sources=holiday,interview&branch_id=3`.
 * - `date`: a day of the month shown (`YYYY-MM-DD`); absent, today in Hong Kong.
 * - `sources`: the sources shown, comma-separated; absent, every source the caller may see; empty, none.
 * - `branch_id`: only this branch's branch-bound entries (callers who see every branch).
 */
export interface CalendarState {
  date: string;
  /** null: every source */
  sources: CalendarSource[] | null;
  branchId: number | null;
}

/** The week starts on Sunday, in both languages. */
export const FIRST_DAY = 0;
/** The month grid is always six weeks (FullCalendar's `fixedWeekCount`). */
const GRID_DAYS = 42;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Today in Hong Kong, `YYYY-MM-DD`. */
export function businessToday(now: Date = new Date()): string {
  return inBusinessTime(now).format('YYYY-MM-DD');
}

/** A real `YYYY-MM-DD` (not `2026-02-31`), or null. */
function validDay(text: string | null): string | null {
  if (!text || !DAY.test(text)) return null;
  const day = dayjs.utc(text);
  return day.isValid() && day.format('YYYY-MM-DD') === text ? text : null;
}

function isSource(key: string): key is CalendarSource {
  return (CALENDAR_SOURCES as readonly string[]).includes(key);
}

/** The screen's state from the query string (an unreadable value is as if absent). */
export function readCalendarState(search: URLSearchParams, today: string): CalendarState {
  const sourcesText = search.get('sources');
  const branch = Number(search.get('branch_id'));
  return {
    date: validDay(search.get('date')) ?? today,
    sources:
      sourcesText === null ? null : [...new Set(sourcesText.split(',').filter(isSource))].sort(sourceOrder),
    branchId: Number.isInteger(branch) && branch > 0 ? branch : null,
  };
}

function sourceOrder(a: CalendarSource, b: CalendarSource): number {
  return CALENDAR_SOURCES.indexOf(a) - CALENDAR_SOURCES.indexOf(b);
}

/** The query string of a state: the date always (the switch to the other view keeps it), filters when set. */
export function calendarSearch(state: CalendarState): string {
  const search = new URLSearchParams({ date: state.date });
  if (state.sources !== null) search.set('sources', state.sources.join(','));
  if (state.branchId !== null) search.set('branch_id', String(state.branchId));
  return `?${search.toString().replace(/%2C/g, ',')}`;
}

/** The first day of the date's month, `months` months on (`-1`: the month before). */
export function monthStart(date: string, months = 0): string {
  return dayjs.utc(date).startOf('month').add(months, 'month').format('YYYY-MM-DD');
}

/**
 * The days a view shows, `end` exclusive: the month view's six-week grid (from the Sunday on or before the
 * 1st), the list view's month.
 */
export function visibleRange(type: CalendarType, date: string): { start: string; end: string } {
  const first = dayjs.utc(monthStart(date));
  if (type === 'list') {
    return { start: first.format('YYYY-MM-DD'), end: first.add(1, 'month').format('YYYY-MM-DD') };
  }
  const start = first.subtract((first.day() - FIRST_DAY + 7) % 7, 'day');
  return { start: start.format('YYYY-MM-DD'), end: start.add(GRID_DAYS, 'day').format('YYYY-MM-DD') };
}

/** `GET /api/calendars`'s arguments for a view of a state (`lang` keys the cache: titles are in it). */
export function feedArgs(type: CalendarType, state: CalendarState, lang: Locale): CalendarFeedArgs {
  return {
    type,
    ...visibleRange(type, state.date),
    ...(state.sources !== null ? { sources: state.sources.join(',') } : {}),
    ...(state.branchId !== null ? { branch_id: state.branchId } : {}),
    lang,
  };
}

/** Whether a source is shown. */
export function sourceShown(sources: CalendarSource[] | null, key: CalendarSource): boolean {
  return sources === null || sources.includes(key);
}

/**
 * The sources after a tag is switched: `null` again (no filter) once every source the caller may see is on,
 * else the ones on, in their usual order.
 */
export function toggleSource(
  sources: CalendarSource[] | null,
  key: CalendarSource,
  visible: readonly CalendarSource[],
): CalendarSource[] | null {
  const on = new Set(sources ?? visible);
  if (on.has(key)) on.delete(key);
  else on.add(key);
  if (visible.every((source) => on.has(source))) return null;
  return [...on].sort(sourceOrder);
}

/** The title of a month in a language: `December 2026`, `2026年12月`. */
export function monthTitle(date: string, lang: Locale): string {
  const [year, month] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'en' ? 'en' : 'zh-HK', {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, 1)));
}

/**
 * A feed entry as FullCalendar reads it. An all-day entry keeps its dates; a timed one its UTC instant (the
 * calendar shows it in Hong Kong time). One with a screen carries its `url`: FullCalendar renders it as a real
 * link (`<a href>`), which `openEntry` follows inside the app. In the month view a holiday is a background
 * event: the day's cell is tinted and carries the holiday's name. In the list view an entry of several days (an
 * application period) is listed once, on its first day in the month (`rangeStart`), with its dates as `span`,
 * rather than on every one of its days.
 */
export function toEventInput(entry: CalendarEntry, type: CalendarType, rangeStart?: string): EventInput {
  const holidayMark = type === 'basic' && entry.source === 'holiday';
  const lastDay =
    entry.all_day && entry.end ? dayjs.utc(entry.end).subtract(1, 'day').format('YYYY-MM-DD') : null;
  const span =
    type === 'list' && lastDay !== null && lastDay > entry.start ? `${entry.start} – ${lastDay}` : null;
  const start = span !== null && rangeStart && rangeStart > entry.start ? rangeStart : entry.start;
  return {
    id: entry.id,
    title: entry.title,
    start,
    ...(entry.end && span === null ? { end: entry.end } : {}),
    allDay: entry.all_day,
    color: entry.color,
    // without a screen it is not a link, nor a focus stop
    ...(entry.url ? { url: entry.url } : { interactive: false }),
    ...(holidayMark ? { display: 'background' } : {}),
    className: `calendar-entry-${entry.source}`,
    extendedProps: { source: entry.source, detail: entry.detail, span },
  };
}

/** What a click (or Enter) on an entry's link carries. */
export interface EntryClick {
  event: { url: string };
  jsEvent: Pick<MouseEvent, 'preventDefault' | 'button' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;
}

/**
 * Follow an entry's link inside the app (no page load). A click with a modifier (new tab, new window) is left to
 * the browser, which opens the same address.
 */
export function openEntry(info: EntryClick, navigate: (to: string) => void): void {
  const { url } = info.event;
  if (!url) return;
  const { jsEvent } = info;
  if (jsEvent.button > 0 || jsEvent.ctrlKey || jsEvent.metaKey || jsEvent.shiftKey || jsEvent.altKey) return;
  jsEvent.preventDefault();
  navigate(url);
}

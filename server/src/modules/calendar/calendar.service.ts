import type { Knex } from 'knex';
import {
  CALENDAR_MAX_DAYS,
  type CalendarEntry,
  type CalendarFeed,
  type CalendarSource,
  type CalendarType,
} from '../../../../shared/calendar';
import { msg } from '../../../../shared/messages';
import { can } from '../../../../shared/permissions';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import {
  businessDay,
  calendarRange,
  daysBetween,
  registeredCalendarSources,
  type CalendarFilter,
} from './calendar.sources';

export interface FeedQuery {
  type: CalendarType;
  /** `YYYY-MM-DD` */
  start: string;
  /** `YYYY-MM-DD`, exclusive */
  end: string;
  /** the sources asked for (default: every one the caller may see) */
  sources?: CalendarSource[];
  /** only this branch's branch-bound entries */
  branch_id?: number;
}

/**
 * The branch-bound entries a caller gets: a branch-scoped caller its own branch's only, and asking for another
 * branch is a 404 (that branch does not exist for it, as a record of it would not); a caller who sees every
 * branch gets every branch's, or the one it asks for.
 */
function branchFilter(ctx: RequestContext, branchId: number | undefined): CalendarFilter {
  const scope = ctx.branchScope;
  if (!scope) return { branchIds: branchId === undefined ? null : [branchId] };
  if (branchId !== undefined && branchId !== scope.branchId) throw new AppError('not_found');
  return { branchIds: scope.branchId === null ? [] : [scope.branchId] };
}

/** Where an entry goes in a list: its Hong Kong day, all-day entries before timed ones, then time and title. */
function sortKey(entry: CalendarEntry): string {
  if (entry.all_day) return `${entry.start} 0`;
  return `${businessDay(entry.start)} 1 ${entry.start}`;
}

function byStartThenTitle(a: CalendarEntry, b: CalendarEntry): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.title.localeCompare(b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The calendar feed (`GET /api/calendars`, domain.md "Calendar"): the entries of every registered source the
 * caller may see (or of those asked for) in `start` – `end` (exclusive, at most `CALENDAR_MAX_DAYS` days), in
 * the caller's language, sorted by start then title.
 */
export function createCalendarService(db: Knex) {
  return {
    /**
     * `asReport`: read for the calendar report (reports.calendar), which needs no `calendar.view`; each source's
     * own permission still applies
     */
    async feed(query: FeedQuery, ctx: RequestContext, { asReport = false } = {}): Promise<CalendarFeed> {
      const days = daysBetween(query.start, query.end);
      if (days <= 0) throw AppError.field('validation', 'end', 'calendarEndAfterStart');
      if (days > CALENDAR_MAX_DAYS)
        throw AppError.field('validation', 'end', msg('calendarRangeTooLong', { max: CALENDAR_MAX_DAYS }));
      const filter = branchFilter(ctx, query.branch_id);
      const holder = ctx.access
        ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions }
        : null;
      const visible = registeredCalendarSources().filter(
        ([, source]) => (asReport || can(holder, 'calendar.view')) && can(holder, source.permission),
      );
      const asked = query.sources ? visible.filter(([key]) => query.sources!.includes(key)) : visible;
      const range = calendarRange(query.start, query.end);
      const items: CalendarEntry[] = [];
      // one source after another: each is a query or two, and the database serves other requests in between
      for (const [key, source] of asked) {
        for (const entry of await source.entries(db, range, ctx, filter)) {
          items.push({ ...entry, source: key, color: entry.color ?? source.color });
        }
      }
      items.sort(byStartThenTitle);
      return {
        type: query.type,
        start: query.start,
        end: query.end,
        sources: visible.map(([key, source]) => ({ key, color: source.color })),
        items,
      };
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;

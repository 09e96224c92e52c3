import type { CalendarFeed, CalendarType } from '../../../../shared/calendar';
import type { Locale } from '../../../../shared/features';
import { api } from '../../app/api';

/** `GET /api/calendars`'s query, and the language the titles are in (part of the cache key, not sent). */
export interface CalendarFeedArgs {
  type: CalendarType;
  /** `YYYY-MM-DD` */
  start: string;
  /** `YYYY-MM-DD`, exclusive */
  end: string;
  /** comma-separated source keys; absent: every source the caller may see; empty: none */
  sources?: string;
  branch_id?: number;
  lang: Locale;
}

/**
 * The calendar feed (calendar.view): every source's entries in a range, in the caller's language. The request
 * signals the page-progress bar like every other; the screens keep the last answer on show until the next
 * one arrives (RTK Query's `data` is the latest result whatever the arguments).
 */
export const calendarApi = api.injectEndpoints({
  endpoints: (build) => ({
    calendarFeed: build.query<CalendarFeed, CalendarFeedArgs>({
      // the language is sent as Accept-Language by the HTTP client; it only keys the cache here
      query: ({ lang: _lang, ...params }) => ({ url: '/api/calendars', params: { ...params } }),
      keepUnusedDataFor: 60,
    }),
  }),
});

export const { useCalendarFeedQuery } = calendarApi;

/**
 * The calendar feed (`GET /api/calendars?type=basic|list&start=&end=`; domain.md "Calendar"): entries merged
 * from sources that modules register on the server, each tagged with its source and linking to its record.
 */

/**
 * The sources there are today (a later issue adds invoice due dates): holidays, intakes' milestones, staff's own
 * entries, students' application deadlines and the documents still to send before one, special events'
 * registration periods and the events themselves.
 */
export const CALENDAR_SOURCES = [
  'holiday',
  'application_window',
  'application_deadline',
  'interview',
  'result',
  'semester_start',
  'timetable',
  'calendar_event',
  'student_application_deadline',
  'student_pending_documents',
  'event_registration',
  'special_event',
] as const;
export type CalendarSource = (typeof CALENDAR_SOURCES)[number];

export const CALENDAR_TYPES = ['basic', 'list'] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];

/** The longest range one request may ask for, in days (a year and a month of list view). */
export const CALENDAR_MAX_DAYS = 400;

export interface CalendarEntry {
  /** unique within the answer: `<source>:<record id>[:<part>]` */
  id: string;
  source: CalendarSource;
  /** in the caller's language */
  title: string;
  /** more about it in the caller's language (the school of an intake's deadline), or null */
  detail: string | null;
  /** `YYYY-MM-DD` for an all-day entry, else ISO 8601 UTC */
  start: string;
  /** exclusive end (`YYYY-MM-DD` the day after the last day, as FullCalendar reads it), or null for one day */
  end: string | null;
  all_day: boolean;
  /** `#rrggbb`, by source */
  color: string;
  /** the back-office screen of its record (`/schools/admission/5/12`), or null */
  url: string | null;
  record: { type: string; id: number };
  /** the branch it belongs to, or null for agency-wide entries (holidays, intakes) */
  branch_id: number | null;
}

/** `GET /api/calendars`. */
export interface CalendarFeed {
  type: CalendarType;
  start: string;
  end: string;
  /** the sources this caller may see, each with its colour (the legend and the source filter) */
  sources: { key: CalendarSource; color: string }[];
  items: CalendarEntry[];
}

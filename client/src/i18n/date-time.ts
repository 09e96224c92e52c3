import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The one place a time becomes text: times are stored in UTC and every time a person reads is shown in the
 * business's time zone (Hong Kong), whatever the browser's.
 */
export const BUSINESS_TIME_ZONE = 'Asia/Hong_Kong';

/** A stored time (ISO, or SQL `YYYY-MM-DD HH:mm:ss` in UTC) in Hong Kong time. */
export function inBusinessTime(value: string | Date): Dayjs {
  const text = typeof value === 'string' ? value.trim() : value;
  // a time without an offset comes from the database in UTC
  const parsed =
    typeof text === 'string' && !/(Z|[+-]\d\d:?\d\d)$/i.test(text) && /\d\d:\d\d/.test(text)
      ? dayjs.utc(text.replace(' ', 'T'))
      : dayjs(text);
  return parsed.tz(BUSINESS_TIME_ZONE);
}

/** A time as a person reads it: `2026-03-01 18:30` in Hong Kong time (seconds on request). */
export function formatDateTime(
  value: string | Date | null | undefined,
  options: { seconds?: boolean } = {},
): string {
  if (value === null || value === undefined || value === '') return '';
  const time = inBusinessTime(value);
  if (!time.isValid()) return String(value);
  return time.format(options.seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm');
}

/** A time of day in Hong Kong: `18:30:05`. */
export function formatTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const time = inBusinessTime(value);
  return time.isValid() ? time.format('HH:mm:ss') : String(value);
}

/**
 * A calendar date: a `YYYY-MM-DD` is shown as is (a date has no time zone); a full time is shown as its date in
 * Hong Kong.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const time = inBusinessTime(value);
  return time.isValid() ? time.format('YYYY-MM-DD') : String(value);
}

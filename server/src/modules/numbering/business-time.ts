import { clock } from '../../lib/clock';

/**
 * The agency works in Hong Kong time (UTC+8, no daylight saving). Dates that people read off a document —
 * the year and month in a document number, the date in an export's file name — are Hong Kong dates, so that
 * the first invoice issued at 07:00 on 1 January carries the new year. Returned as a Date whose UTC fields
 * are the Hong Kong wall-clock fields.
 */
export const BUSINESS_UTC_OFFSET_MS = 8 * 3_600_000;

export function businessDate(ms: number = clock.now()): Date {
  return new Date(ms + BUSINESS_UTC_OFFSET_MS);
}

/** `YYYY-MM-DD` of today in Hong Kong. */
export function businessToday(): string {
  return businessDate().toISOString().slice(0, 10);
}

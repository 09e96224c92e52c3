/**
 * The one source of "now" for rules that depend on time (session timeouts, token expiry, throttles kept in
 * the database). Tests move it forward instead of waiting.
 */
let offsetMs = 0;

export const clock = {
  now(): number {
    return Date.now() + offsetMs;
  },
  date(): Date {
    return new Date(clock.now());
  },
  /** Test hook: move the clock forward by `ms`. */
  advance(ms: number): void {
    offsetMs += ms;
  },
  reset(): void {
    offsetMs = 0;
  },
};

/** `YYYY-MM-DD HH:MM:SS` in UTC: the one DATETIME format both SQLite and MySQL store and compare as text. */
export function toDbDateTime(ms: number = clock.now()): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const DB_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Database DATETIME text (UTC) to ISO 8601 for the API. */
export function fromDbDateTime(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // the stored form, `YYYY-MM-DD HH:MM:SS`, is rewritten without a Date (every row of every list has two)
  if (DB_DATETIME.test(value)) return `${value.slice(0, 10)}T${value.slice(11)}.000Z`;
  return new Date(`${value.replace(' ', 'T')}Z`).toISOString();
}

export function currentYear(): number {
  return clock.date().getUTCFullYear();
}

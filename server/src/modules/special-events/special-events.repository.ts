import type { Knex } from 'knex';
import { PLACE_HOLDING_STATUSES } from '../../../../shared/resources/special-events';
import { guardedQuery, type Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { lockForUpdate } from '../../resources/unit-of-work';
import { CALENDAR_ROWS_PER_QUERY } from '../calendar/calendar.repository';

/** The columns the calendar and the registration rules read of an event. */
const EVENT_COLUMNS = [
  'id',
  'title_en',
  'title_zh',
  'venue',
  'reg_start_date',
  'reg_end_date',
  'event_start',
  'event_end',
  'capacity',
  'is_active',
] as const;

/** The reads of special events and their registrations beyond the generic repository's. */
export const specialEventsRepository = {
  /**
   * The event, its row locked for the rest of the transaction (`SELECT … FOR UPDATE` on MariaDB; SQLite has one
   * writer at a time): registrations to it wait for one another while its places are counted and taken.
   */
  async lockEvent(db: Trx, id: number): Promise<Row | undefined> {
    return lockForUpdate(db, db('special_events').where('id', id).select(EVENT_COLUMNS)).first();
  },

  /**
   * The places the event's registrations hold (registered or attended), read as a locking read: on MariaDB it
   * sees every committed registration, whatever the transaction's snapshot (quality §23: recomputed under the
   * lock, never from a stale read).
   */
  async placesTaken(db: Trx, eventId: number): Promise<number> {
    const row = await lockForUpdate(
      db,
      db('special_event_registrations')
        .where('special_event_id', eventId)
        .whereIn('status', PLACE_HOLDING_STATUSES as unknown as string[])
        .select('id'),
    );
    return (row as unknown as Row[]).length;
  },

  /**
   * Whether the student already holds a registration to the event (other than `exceptId`), read as a locking read
   * under the event's lock: two requests for one student and event see each other's commit on MariaDB too (a
   * plain read would see the transaction's snapshot, taken before the lock was granted).
   */
  async isRegistered(db: Trx, eventId: number, studentId: number, exceptId: number | null): Promise<boolean> {
    const qb = db('special_event_registrations')
      .where({ special_event_id: eventId, student_id: studentId })
      .select('id');
    if (exceptId !== null) qb.whereNot('id', exceptId);
    return ((await lockForUpdate(db, qb)) as unknown as Row[]).length > 0;
  },

  /** The places each event holds, for a page of events (one query). */
  async placesByEvent(db: Trx, eventIds: readonly number[]): Promise<Map<number, number>> {
    if (!eventIds.length) return new Map();
    const rows: Row[] = await db('special_event_registrations')
      .whereIn('special_event_id', eventIds as number[])
      .whereIn('status', PLACE_HOLDING_STATUSES as unknown as string[])
      .groupBy('special_event_id')
      .select('special_event_id', db.raw('count(*) as n'));
    return new Map(rows.map((r) => [Number(r.special_event_id), Number(r.n)]));
  },

  /** Events whose registration period (both days included) overlaps the days `start` to `end` (exclusive). */
  registrationPeriods(db: Trx, start: string, end: string, signal?: AbortSignal): Promise<Row[]> {
    return guardedQuery<Row[]>(
      db,
      db('special_events')
        .where('reg_start_date', '<', end)
        .where('reg_end_date', '>=', start)
        .orderBy('reg_start_date')
        .select(EVENT_COLUMNS)
        .limit(CALENDAR_ROWS_PER_QUERY),
      signal,
    );
  },

  /** Events taking place (start to end) in the instants `startUtc` to `endUtc` (exclusive, the database's UTC text). */
  eventsBetween(db: Trx, startUtc: string, endUtc: string, signal?: AbortSignal): Promise<Row[]> {
    return guardedQuery<Row[]>(
      db,
      db('special_events')
        .where('event_start', '<', endUtc)
        .where('event_end', '>=', startUtc)
        .orderBy('event_start')
        .select(EVENT_COLUMNS)
        .limit(CALENDAR_ROWS_PER_QUERY),
      signal,
    );
  },
};

/**
 * The list's date window on a query of special events: the registration period (DATE columns, both days included)
 * or the event's times (DATETIME, `startUtc` / `endUtc` the instants the Hong Kong days begin and the day after
 * the last ends) overlapping it.
 */
export function applyEventWindow(
  qb: Knex.QueryBuilder,
  window: { type: 'reg_date' | 'event_date'; start: string; end: string; startUtc: string; endUtc: string },
): void {
  if (window.type === 'reg_date') {
    qb.where('special_events.reg_start_date', '<=', window.end).where(
      'special_events.reg_end_date',
      '>=',
      window.start,
    );
  } else {
    qb.where('special_events.event_start', '<', window.endUtc).where(
      'special_events.event_end',
      '>=',
      window.startUtc,
    );
  }
}

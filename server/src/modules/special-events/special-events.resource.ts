import { z } from 'zod';
import { can } from '../../../../shared/permissions';
import { msg } from '../../../../shared/messages';
import { zDate } from '../../../../shared/schemas/common';
import {
  EVENT_DATE_TYPES,
  specialEventRegistrations,
  specialEvents,
  type EventDateType,
} from '../../../../shared/resources/special-events';
import { deriveSchemas } from '../../../../shared/resources/derive';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { toDbDateTime } from '../../lib/clock';
import type { Row } from '../../resources/resource';
import { declaredRules, instantMs, numberOrNull } from '../../resources/rows';
import { addDays, businessDay, dayStartUtc } from '../calendar/calendar.sources';
import { businessToday } from '../numbering/business-time';
import { applyEventWindow, specialEventsRepository } from './special-events.repository';

/** The value a write leaves in a column: the body's when it gives one, else the stored one. */
function merged(data: Row, existing: Row | null, column: string): unknown {
  return column in data ? data[column] : existing?.[column];
}

/** A DATE column's value as `YYYY-MM-DD` (both databases give DATE as text), or null. */
function dateOnly(value: unknown): string | null {
  return typeof value === 'string' && value ? value.slice(0, 10) : null;
}

/** The list's date window (`?date_type=&start=&end=`), Hong Kong days, both included. */
export interface EventWindow {
  type: EventDateType;
  start: string;
  end: string;
  /** the instants the first day begins and the day after the last begins (the database's UTC text) */
  startUtc: string;
  endUtc: string;
}

/**
 * The window a list query asks for, or null when it names none of `date_type`, `start` and `end` (every event:
 * pickers and exports of the whole list). A part left out takes the spec's default: registration dates, from
 * today (Hong Kong) to 31 December of the start's year. A range that ends before it starts is refused on `end`.
 */
export function eventWindow(filters: Row, today: string = businessToday()): EventWindow | null {
  if (filters.date_type === undefined && filters.start === undefined && filters.end === undefined)
    return null;
  const type = (filters.date_type as EventDateType | undefined) ?? 'reg_date';
  const start = typeof filters.start === 'string' ? filters.start : today;
  const end = typeof filters.end === 'string' ? filters.end : `${start.slice(0, 4)}-12-31`;
  if (start > end) throw AppError.field('validation', 'end', 'dateRangeOrder');
  return { type, start, end, startUtc: dayStartUtc(start), endUtc: dayStartUtc(addDays(end, 1)) };
}

const derived = deriveSchemas(specialEvents);

/**
 * The rules of special events beyond their declaration (shared/resources/special-events.ts):
 * - the dates in order: registration opens ≤ closes ≤ the (Hong Kong) day the event ends, the event starts ≤ ends;
 * - the list's window `?date_type=reg_date|event_date&start=&end=` (see `eventWindow`): events whose registration
 *   period or own dates overlap it;
 * - each row shows the places its registrations hold (`registered_count`, one query a page), and the capacity
 *   cannot be lowered below them (the event's row is locked by the update, so no registration slips in between).
 */
export const specialEventRules = declaredRules(specialEvents, {
  schemas: {
    ...derived,
    filters: derived.filters.extend({
      date_type: z.enum(EVENT_DATE_TYPES).optional(),
      start: zDate.optional(),
      end: zDate.optional(),
    }),
  },
  applyFilters(qb, filters) {
    const window = eventWindow(filters);
    if (window) applyEventWindow(qb, window);
  },
  async beforeWrite(db, data, existing) {
    const regStart = dateOnly(merged(data, existing, 'reg_start_date'));
    const regEnd = dateOnly(merged(data, existing, 'reg_end_date'));
    const start = instantMs(merged(data, existing, 'event_start'));
    const end = instantMs(merged(data, existing, 'event_end'));
    if (regStart && regEnd && regStart > regEnd)
      throw AppError.field(
        'validation',
        'reg_end_date' in data || !('reg_start_date' in data) ? 'reg_end_date' : 'reg_start_date',
        'regEndBeforeRegStart',
      );
    if (start !== null && end !== null && end < start)
      throw AppError.field(
        'validation',
        'event_end' in data || !('event_start' in data) ? 'event_end' : 'event_start',
        'endBeforeStart',
      );
    if (regEnd && end !== null && regEnd > businessDay(new Date(end).toISOString()))
      throw AppError.field(
        'validation',
        'reg_end_date' in data || !('event_end' in data) ? 'reg_end_date' : 'event_end',
        'regEndAfterEventEnd',
      );
    const capacity = numberOrNull(data.capacity);
    if (existing && capacity !== null) {
      const taken = await specialEventsRepository.placesTaken(db, Number(existing.id));
      if (capacity < taken)
        throw AppError.field('business_rule', 'capacity', msg('capacityBelowTaken', { count: taken }));
    }
  },
  async expand(db, rows) {
    const taken = await specialEventsRepository.placesByEvent(
      db,
      rows.map((row) => Number(row.id)),
    );
    return rows.map((row) => ({ ...row, registered_count: taken.get(Number(row.id)) ?? 0 }));
  },
});

/** Whether the caller may change events: registration outside the period is theirs. */
function mayChangeEvents(ctx: RequestContext): boolean {
  const access = ctx.access;
  return can(
    access ? { is_admin: access.isAdmin, permissions: access.permissions } : null,
    'special_events.update',
  );
}

/**
 * The rules of a registration beyond its declaration: the event's row is locked (registrations to one event take
 * turns, on MariaDB and on SQLite's single writer alike), then
 * - registering (or moving a registration to another student) is refused outside the registration period (Hong
 *   Kong dates, both days included) unless the caller may change events (`eventRegistrationClosed`);
 * - a new registration is refused once the places held (registered or attended, counted under the lock) reach the
 *   capacity (`eventFull`); a cancelled registration frees its place;
 * - one registration per student and event: the declaration's unique set, checked here too with a locking read
 *   under the lock, so that parallel requests for one student answer the duplicate on its field on MariaDB as well;
 * - it is stamped `registered_at`. Nobody picks a registration from a list: it has no lookup.
 */
export const specialEventRegistrationRules = declaredRules(specialEventRegistrations, {
  label: undefined,
  async beforeWrite(db, data, existing, ctx) {
    const studentChanged =
      existing !== null && 'student_id' in data && Number(data.student_id) !== Number(existing.student_id);
    if (existing && !studentChanged) return;
    const eventId = Number(merged(data, existing, 'special_event_id'));
    const event = await specialEventsRepository.lockEvent(db, eventId);
    if (!event) throw AppError.field('validation', 'special_event_id', 'recordMissing');
    const today = businessToday();
    const opens = dateOnly(event.reg_start_date) ?? '';
    const closes = dateOnly(event.reg_end_date) ?? '';
    if ((today < opens || today > closes) && !mayChangeEvents(ctx))
      throw new AppError('business_rule', msg('eventRegistrationClosed', { start: opens, end: closes }));
    const studentId = Number(merged(data, existing, 'student_id'));
    const exceptId = existing ? Number(existing.id) : null;
    if (await specialEventsRepository.isRegistered(db, eventId, studentId, exceptId))
      throw AppError.field('duplicate', 'student_id');
    if (existing) return;
    data.registered_at = toDbDateTime();
    const capacity = numberOrNull(event.capacity);
    if (capacity !== null && (await specialEventsRepository.placesTaken(db, eventId)) >= capacity)
      throw new AppError('business_rule', msg('eventFull', { capacity }));
  },
});

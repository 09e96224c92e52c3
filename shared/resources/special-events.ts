import { declareResource } from './declaration';

/** A registration's status (domain.md): registered, then attended or cancelled. */
export const REGISTRATION_STATUSES = ['registered', 'attended', 'cancelled'] as const;

/** The statuses that hold a place of the event's capacity. */
export const PLACE_HOLDING_STATUSES = ['registered', 'attended'] as const;

/**
 * Which dates the special events list ranges over (`?date_type=&start=&end=`): the registration period or the
 * event's own; the list's default is registration dates from today to 31 December (spec `/special-events`).
 */
export const EVENT_DATE_TYPES = ['reg_date', 'event_date'] as const;
export type EventDateType = (typeof EVENT_DATE_TYPES)[number];

/**
 * Seminars, fairs and briefings the agency runs (domain.md "Products, events, quotation items"; spec
 * `/special-events`), shared by every branch: a registration period and the event's own times, in that order, a
 * venue, an optional school, a capacity (none: no limit), a fee. Its record page lists its registrations.
 */
export const specialEvents = declareResource({
  name: 'special_event',
  path: '/special-events',
  table: 'special_events',
  module: 'special_events',
  fields: {
    event_type: { type: 'option', key: 'event_type', required: true, filterable: true },
    title_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    title_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    reg_start_date: { type: 'date', required: true, sortable: true },
    reg_end_date: { type: 'date', required: true, sortable: true, help: true },
    event_start: { type: 'datetime', required: true, sortable: true },
    event_end: { type: 'datetime', required: true },
    venue: { type: 'text', max: 300, searchable: 'name' },
    school_id: { type: 'lookup', resource: 'school', filterable: true, list: false, export: true },
    capacity: { type: 'integer', min: 1, max: 100_000, help: true },
    /** places held: registered or attended (computed) */
    registered_count: { type: 'integer', readOnly: true },
    fee: { type: 'money', currency: 'currency', min: 0, list: false, export: true },
    currency: { type: 'currency', list: false, export: true },
    description: { type: 'text', max: 5000, multiline: true },
    is_active: { type: 'boolean', default: true, filterable: true },
  },
  display: { en: ['title_en'], zh_HK: ['title_zh'] },
  defaultSort: 'event_start',
  references: [
    { table: 'special_event_registrations', column: 'special_event_id', key: 'registrations' },
    { table: 'quotation_lines', column: 'special_event_id', key: 'quotation_lines', whenTableExists: true },
    { table: 'order_items', column: 'special_event_id', key: 'order_items', whenTableExists: true },
  ],
  tabs: ['basic', 'registration'],
  page: { route: '/special-events', menu: { order: 95 } },
});

/**
 * A student registered for an event: one registration per student and event, none beyond the capacity (the event
 * row locked while its places are counted), none outside the registration period unless the caller may change
 * events. Marked attended or cancelled (`POST /api/special-event-registrations/{id}/{attend|cancel}`). It shows a
 * student, so it is the students module's (`students.view` to read, `students.create` to register) and in the
 * student's branch; it is listed under its event and, read only, on the student's record.
 */
export const specialEventRegistrations = declareResource({
  name: 'special_event_registration',
  path: '/special-event-registrations',
  table: 'special_event_registrations',
  module: 'students',
  fields: {
    special_event_id: { type: 'lookup', resource: 'special_event', required: true },
    student_id: { type: 'lookup', resource: 'student', required: true },
    registered_at: { type: 'datetime', readOnly: true, sortable: true },
    status: { type: 'text', max: 20, values: REGISTRATION_STATUSES, readOnly: true },
  },
  display: { en: ['registered_at'], zh_HK: ['registered_at'] },
  defaultSort: 'registered_at',
  unique: [['student_id']],
  branchVia: 'student_id',
  parent: { resource: 'special_event', column: 'special_event_id', segment: 'registrations' },
  listedUnder: { resource: 'student', column: 'student_id', segment: 'event-registrations', tab: 'event' },
  states: {
    column: 'status',
    values: REGISTRATION_STATUSES,
    initial: 'registered',
    actions: {
      attend: { from: ['registered'], to: 'attended', refused: 'registrationCannotAttend' },
      cancel: { from: ['registered'], to: 'cancelled', refused: 'registrationCannotCancel' },
    },
  },
});

import type { ModuleDeps } from '../module';
import { registerCalendarEventSource } from './calendar-events.source';
import { registerCalendarRoutes } from './calendar.routes';
import { createCalendarService } from './calendar.service';
import { registerHolidaySource } from './holidays.source';
import { registerIntakeSources } from './intakes.source';
import { registerApplicationSources } from '../students/applications.source';
import { registerSpecialEventSources } from '../special-events/special-events.source';

/**
 * The calendar (domain.md "Calendar"): the feed at `GET /api/calendars` and the sources it merges — holidays,
 * the intakes' milestones and timetables, staff's own entries (a declared resource, `/api/calendar-events`),
 * students' application deadlines and the documents still to send near one, special events' registration periods
 * and the events themselves.
 * Later modules register their own sources (`registerCalendarSource`) with their routes.
 */
export function registerCalendarModule(deps: ModuleDeps): void {
  registerHolidaySource();
  registerIntakeSources();
  registerCalendarEventSource();
  registerApplicationSources();
  registerSpecialEventSources();
  registerCalendarRoutes(deps.api, createCalendarService(deps.db));
}

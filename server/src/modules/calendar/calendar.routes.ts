import { z } from 'zod';
import { CALENDAR_SOURCES, CALENDAR_TYPES } from '../../../../shared/calendar';
import { FIELD_MESSAGES } from '../../../../shared/messages';
import type { ApiRouter } from '../../http/api-router';
import { abortSignalOf, contextOf } from '../../http/context';
import type { CalendarService } from './calendar.service';

const zDay = z.iso.date({ error: FIELD_MESSAGES.invalidDate });

/** `GET /api/calendars`'s query: `sources` is a comma-separated list of source keys (empty: none). */
export const ZCalendarQuery = z.strictObject({
  type: z.enum(CALENDAR_TYPES).default('basic'),
  start: zDay,
  end: zDay,
  sources: z
    .string()
    .max(500)
    .transform((text) => text.split(',').filter(Boolean))
    .pipe(z.array(z.enum(CALENDAR_SOURCES)).max(CALENDAR_SOURCES.length * 2))
    .optional(),
  branch_id: z.coerce.number().int().positive().optional(),
});

/** The calendar feed: every source's entries in a date range, for whoever may see the calendar. */
export function registerCalendarRoutes(api: ApiRouter, calendar: CalendarService): void {
  api.add({
    method: 'get',
    path: '/calendars',
    access: 'staff',
    permission: 'calendar.view',
    schemas: { query: ZCalendarQuery },
    handler: async (req, res) => {
      res.json(await calendar.feed(req.parsed.query, { ...contextOf(req), signal: abortSignalOf(req) }));
    },
  });
}

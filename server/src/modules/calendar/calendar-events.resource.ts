import { calendarEvents } from '../../../../shared/resources/calendar-events';
import { AppError } from '../../lib/app-error';
import { fromDbDateTime, toDbDateTime } from '../../lib/clock';
import { apiDateTime, declaredRules } from '../../resources/rows';

const DATETIMES = ['start_at', 'end_at'] as const;

/** An instant as the API takes it (ISO 8601 with an offset) or the table stores it (UTC text), in ms; or null. */
function instant(value: unknown): number | null {
  if (typeof value !== 'string' || !value) return null;
  const iso = value.includes('T') ? value : fromDbDateTime(value);
  return iso ? Date.parse(iso) : null;
}

/**
 * The rules of staff's own calendar entries beyond their declaration (shared/resources/calendar-events.ts): the
 * creator is recorded, a new entry belongs to the creator's branch unless another is chosen (a branch-scoped
 * caller's can only be its own: the generic service refuses another with 404), and the end is not before the
 * start. Start and end are stored as the database's UTC text and shown as ISO 8601.
 */
export const calendarEventRules = declaredRules(calendarEvents, {
  async beforeWrite(_db, data, existing, ctx) {
    if (!existing) {
      data.user_id = ctx.actor.type === 'user' ? ctx.actor.id : null;
      if (data.branch_id === undefined) data.branch_id = ctx.access?.branchId ?? null;
    }
    const start = instant('start_at' in data ? data.start_at : existing?.start_at);
    const end = instant('end_at' in data ? data.end_at : existing?.end_at);
    if (start !== null && end !== null && end < start) {
      const field = 'end_at' in data || !('start_at' in data) ? 'end_at' : 'start_at';
      throw AppError.field('validation', field, 'endBeforeStart');
    }
  },
  async prepare(_db, input) {
    const data = { ...input };
    for (const column of DATETIMES) {
      const ms = instant(data[column]);
      if (ms !== null) data[column] = toDbDateTime(ms);
    }
    return data;
  },
  toResponse(row) {
    return { ...row, start_at: apiDateTime(row.start_at), end_at: apiDateTime(row.end_at) };
  },
});

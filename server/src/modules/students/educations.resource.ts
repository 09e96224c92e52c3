import { studentEducations } from '../../../../shared/resources/students';
import { AppError } from '../../lib/app-error';
import { declaredRules } from '../../resources/rows';

/** A stored DATE as `YYYY-MM-DD` (MariaDB may answer a Date when a driver is set up without `dateStrings`). */
function dateText(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' && value ? value.slice(0, 10) : null;
}

/**
 * The rules of a student's education entries beyond their declaration: the dates in order — the end on or after
 * the start (`educationEndBeforeStart` on `end_date`), checked against the stored value of the date the write
 * leaves out, so that an update of one date cannot put them out of order either.
 */
export const educationRules = declaredRules(studentEducations, {
  async beforeWrite(_db, data, existing) {
    if (!('start_date' in data) && !('end_date' in data)) return;
    const start = dateText('start_date' in data ? data.start_date : existing?.start_date);
    const end = dateText('end_date' in data ? data.end_date : existing?.end_date);
    if (start && end && end < start)
      throw AppError.field('validation', 'end_date', 'educationEndBeforeStart');
  },
});

import type { Knex } from 'knex';
import { guardedQuery, type Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import type { CalendarFilter, CalendarRange } from './calendar.sources';

/**
 * The most rows one source reads for one answer (a 400-day range of a busy agency holds far fewer): the work of a
 * request stays bounded whatever the data.
 */
export const CALENDAR_ROWS_PER_QUERY = 5_000;

/** The DATE columns of an intake that are milestones of their own. */
export type IntakeDateColumn = 'application_deadline' | 'interview_date' | 'result_date' | 'semester_start';

/** An intake with its school's names, for every intake query. */
function intakes(db: Trx): Knex.QueryBuilder {
  return db('school_admissions as a')
    .join('schools as s', 's.id', 'a.school_id')
    .select(
      'a.id',
      'a.school_id',
      'a.name_en',
      'a.name_zh',
      's.name_en as school_name_en',
      's.name_zh as school_name_zh',
    );
}

function read(db: Trx, query: Knex.QueryBuilder, signal?: AbortSignal): Promise<Row[]> {
  return guardedQuery<Row[]>(db, query.limit(CALENDAR_ROWS_PER_QUERY), signal);
}

/** The calendar's reads: each one query down an index of the date column it ranges over. */
export const calendarRepository = {
  holidays(db: Trx, range: CalendarRange, signal?: AbortSignal): Promise<Row[]> {
    return read(
      db,
      db('holidays')
        .where('date', '>=', range.start)
        .where('date', '<', range.end)
        .orderBy('date')
        .select('id', 'date', 'name_en', 'name_zh'),
      signal,
    );
  },

  /** Intakes whose `column` falls in the range, as `date`. */
  intakesOn(db: Trx, column: IntakeDateColumn, range: CalendarRange, signal?: AbortSignal): Promise<Row[]> {
    return read(
      db,
      intakes(db)
        .select(`a.${column} as date`)
        .where(`a.${column}`, '>=', range.start)
        .where(`a.${column}`, '<', range.end)
        .orderBy(`a.${column}`),
      signal,
    );
  },

  /**
   * Intakes whose application window (start to deadline, both days included; the start day alone without a
   * deadline) overlaps the range.
   */
  applicationWindows(db: Trx, range: CalendarRange, signal?: AbortSignal): Promise<Row[]> {
    return read(
      db,
      intakes(db)
        .select('a.application_start', 'a.application_deadline')
        .where('a.application_start', '<', range.end)
        .where((qb) =>
          qb
            .where('a.application_deadline', '>=', range.start)
            .orWhere((q) =>
              q.whereNull('a.application_deadline').where('a.application_start', '>=', range.start),
            ),
        )
        .orderBy('a.application_start'),
      signal,
    );
  },

  /** Intakes' timetable milestones in the range, each with its intake and school. */
  timetable(db: Trx, range: CalendarRange, signal?: AbortSignal): Promise<Row[]> {
    return read(
      db,
      intakes(db)
        .join('admission_timetable as t', 't.admission_id', 'a.id')
        .clearSelect()
        .select(
          't.id',
          't.date',
          't.title_en',
          't.title_zh',
          'a.id as admission_id',
          'a.school_id',
          'a.name_en',
          'a.name_zh',
          's.name_en as school_name_en',
          's.name_zh as school_name_zh',
        )
        .where('t.date', '>=', range.start)
        .where('t.date', '<', range.end)
        .orderBy('t.date'),
      signal,
    );
  },

  /** Staff's own entries overlapping the range (an entry without an end: its start in the range), by branch. */
  calendarEvents(
    db: Trx,
    range: CalendarRange,
    filter: CalendarFilter,
    signal?: AbortSignal,
  ): Promise<Row[]> {
    const query = db('calendar_events')
      .where('start_at', '<', range.endUtc)
      .where((qb) =>
        qb
          .where('end_at', '>=', range.startUtc)
          .orWhere((q) => q.whereNull('end_at').where('start_at', '>=', range.startUtc)),
      )
      .orderBy('start_at')
      .select('id', 'title', 'start_at', 'end_at', 'all_day', 'color', 'branch_id', 'remark');
    if (filter.branchIds) query.whereIn('branch_id', [...filter.branchIds]);
    return read(db, query, signal);
  },
};

import type { CalendarSource } from '../../../../shared/calendar';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import { calendarRepository, type IntakeDateColumn } from './calendar.repository';
import {
  addDays,
  nameIn,
  registerCalendarSource,
  type CalendarRange,
  type SourceEntry,
} from './calendar.sources';

type Language = RequestContext['language'];
type IntakeSource = Extract<
  CalendarSource,
  'application_window' | 'application_deadline' | 'interview' | 'result' | 'semester_start'
>;

/**
 * What each milestone of an intake is called in a title ("Application deadline: Korea University 2027 Spring").
 * Labels of the calendar's own, kept with the source (not messages of the error catalogue).
 */
const LABELS: Record<IntakeSource, Record<Language, string>> = {
  application_window: { en: 'Application period', zh_HK: '申請期' },
  application_deadline: { en: 'Application deadline', zh_HK: '申請截止' },
  interview: { en: 'Interview', zh_HK: '面試' },
  result: { en: 'Results', zh_HK: '放榜' },
  semester_start: { en: 'Semester starts', zh_HK: '開學' },
};

/** Between a title's label and what it is about. */
const SEPARATOR: Record<Language, string> = { en: ': ', zh_HK: '：' };

/** The date column of each one-day milestone. */
const COLUMNS: Record<Exclude<IntakeSource, 'application_window'>, IntakeDateColumn> = {
  application_deadline: 'application_deadline',
  interview: 'interview_date',
  result: 'result_date',
  semester_start: 'semester_start',
};

/** The colour of each source (distinct, readable on white). */
const COLORS: Record<IntakeSource | 'timetable', string> = {
  application_window: '#1d39c4',
  application_deadline: '#ad4e00',
  interview: '#531dab',
  result: '#006d75',
  semester_start: '#237804',
  timetable: '#c41d7f',
};

const day = (value: unknown): string => String(value).slice(0, 10);

/** An intake's milestone as an all-day entry of its record, titled `label: school intake`. */
function intakeEntry(
  row: Row,
  language: Language,
  parts: { id: string; label: string; start: string; end: string | null; admissionId: number },
): SourceEntry {
  const school = nameIn(language, row.school_name_en, row.school_name_zh);
  const intake = nameIn(language, row.name_en, row.name_zh);
  return {
    id: parts.id,
    title: `${parts.label}${SEPARATOR[language]}${school} ${intake}`,
    detail: school,
    start: parts.start,
    end: parts.end,
    all_day: true,
    url: `/schools/admission/${Number(row.school_id)}/${parts.admissionId}`,
    record: { type: 'school_admission', id: parts.admissionId },
    branch_id: null,
  };
}

function milestoneSource(source: Exclude<IntakeSource, 'application_window'>) {
  return async (db: Trx, range: CalendarRange, ctx: RequestContext): Promise<SourceEntry[]> => {
    const rows = await calendarRepository.intakesOn(db, COLUMNS[source], range, ctx.signal);
    return rows.map((row) =>
      intakeEntry(row, ctx.language, {
        id: `${source}:${Number(row.id)}`,
        label: LABELS[source][ctx.language],
        start: day(row.date),
        end: null,
        admissionId: Number(row.id),
      }),
    );
  };
}

/** The application window: from the start to the deadline, both days included (FullCalendar's end: the day after). */
async function windowEntries(db: Trx, range: CalendarRange, ctx: RequestContext): Promise<SourceEntry[]> {
  const rows = await calendarRepository.applicationWindows(db, range, ctx.signal);
  return rows.map((row) => {
    const start = day(row.application_start);
    const last = row.application_deadline ? day(row.application_deadline) : start;
    return intakeEntry(row, ctx.language, {
      id: `application_window:${Number(row.id)}`,
      label: LABELS.application_window[ctx.language],
      start,
      end: last > start ? addDays(last, 1) : null,
      admissionId: Number(row.id),
    });
  });
}

/** An intake's timetable: each milestone titled by its own title, then the school and intake. */
async function timetableEntries(db: Trx, range: CalendarRange, ctx: RequestContext): Promise<SourceEntry[]> {
  const rows = await calendarRepository.timetable(db, range, ctx.signal);
  return rows.map((row) =>
    intakeEntry(row, ctx.language, {
      id: `timetable:${Number(row.id)}`,
      label: nameIn(ctx.language, row.title_en, row.title_zh),
      start: day(row.date),
      end: null,
      admissionId: Number(row.admission_id),
    }),
  );
}

/**
 * The intakes' milestones (school_admissions, admission_timetable): agency-wide, for whoever may see the calendar
 * and view schools. Each links to the intake's screen; its detail is the school's name.
 */
export function registerIntakeSources(): void {
  const permission = 'schools.view';
  registerCalendarSource('application_window', {
    permission,
    color: COLORS.application_window,
    entries: windowEntries,
  });
  for (const source of ['application_deadline', 'interview', 'result', 'semester_start'] as const) {
    registerCalendarSource(source, { permission, color: COLORS[source], entries: milestoneSource(source) });
  }
  registerCalendarSource('timetable', { permission, color: COLORS.timetable, entries: timetableEntries });
}

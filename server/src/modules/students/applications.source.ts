import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import {
  addDays,
  nameIn,
  registerCalendarSource,
  type CalendarFilter,
  type CalendarRange,
  type SourceEntry,
} from '../calendar/calendar.sources';
import { businessToday } from '../numbering/business-time';
import { applicationsRepository } from './applications.repository';
import { applicationName } from './student-names';

type Language = RequestContext['language'];

/** How near a deadline (days ahead) the documents still to send show up in the calendar. */
export const PENDING_DOCUMENTS_DAYS_BEFORE = 14;
/** How long after a passed deadline (days) the documents still unsent stay in the calendar. */
export const PENDING_DOCUMENTS_DAYS_AFTER = 7;

/** The checklist statuses of a document not (or no longer) sent to the school and still needed. */
export const OPEN_STATUSES = ['pending', 'uploaded', 'unsubmitted'] as const;

/** Between a title's label and what it is about. */
const SEPARATOR: Record<Language, string> = { en: ': ', zh_HK: '：' };

const DEADLINE_LABEL: Record<Language, string> = { en: 'Application deadline', zh_HK: '申請截止' };

function pendingLabel(count: number, language: Language): string {
  if (language === 'zh_HK') return `${count} 份文件未遞交`;
  return count === 1 ? '1 document pending' : `${count} documents pending`;
}

const day = (value: unknown): string => String(value).slice(0, 10);

/** An application's entry on its deadline: all day, linking to its student's application tab, in its branch. */
function applicationEntry(
  row: Row,
  parts: { id: string; title: string; detail: string | null },
): SourceEntry {
  return {
    ...parts,
    start: day(row.application_deadline),
    end: null,
    all_day: true,
    url: `/students/application/${Number(row.student_id)}`,
    record: { type: 'student_application', id: Number(row.id) },
    branch_id: row.branch_id === null || row.branch_id === undefined ? null : Number(row.branch_id),
  };
}

/**
 * Each application's deadline (its intake's), titled with the student and the school in the caller's language
 * (`Application deadline: CHAN Tai Man — Yonsei University`), the intake its detail. One query.
 */
async function deadlineEntries(
  db: Trx,
  range: CalendarRange,
  ctx: RequestContext,
  filter: CalendarFilter,
): Promise<SourceEntry[]> {
  const rows = await applicationsRepository.deadlinesBetween(
    db,
    range.start,
    range.end,
    filter.branchIds,
    ctx.signal,
  );
  const language = ctx.language;
  return rows.map((row) =>
    applicationEntry(row, {
      id: `student_application_deadline:${Number(row.id)}`,
      title: `${DEADLINE_LABEL[language]}${SEPARATOR[language]}${applicationName(row, language)}`,
      detail: nameIn(language, row.intake_name_en, row.intake_name_zh) || null,
    }),
  );
}

/**
 * On the deadline of each application whose deadline is at most `PENDING_DOCUMENTS_DAYS_BEFORE` days ahead (or
 * passed at most `PENDING_DOCUMENTS_DAYS_AFTER` days ago), Hong Kong's today: how many of its documents are not
 * sent to the school yet — pending, uploaded but not sent, or taken back; a cancelled one is no longer needed —
 * (`3 documents pending: CHAN Tai Man — Yonsei University`), their names the detail. Two queries.
 */
async function pendingEntries(
  db: Trx,
  range: CalendarRange,
  ctx: RequestContext,
  filter: CalendarFilter,
): Promise<SourceEntry[]> {
  const today = businessToday();
  const earliest = addDays(today, -PENDING_DOCUMENTS_DAYS_AFTER);
  const latest = addDays(today, PENDING_DOCUMENTS_DAYS_BEFORE + 1);
  const from = range.start > earliest ? range.start : earliest;
  const to = range.end < latest ? range.end : latest;
  if (from >= to) return [];
  const rows = await applicationsRepository.deadlinesBetween(db, from, to, filter.branchIds, ctx.signal);
  const documents = await applicationsRepository.documentsIn(
    db,
    rows.map((row) => Number(row.id)),
    OPEN_STATUSES,
    ctx.signal,
  );
  const language = ctx.language;
  const open = new Map<number, string[]>();
  for (const doc of documents) {
    const id = Number(doc.application_id);
    open.set(id, [...(open.get(id) ?? []), nameIn(language, doc.name_en, doc.name_zh)]);
  }
  return rows.flatMap((row) => {
    const names = open.get(Number(row.id));
    if (!names?.length) return [];
    return [
      applicationEntry(row, {
        id: `student_pending_documents:${Number(row.id)}`,
        title: `${pendingLabel(names.length, language)}${SEPARATOR[language]}${applicationName(row, language)}`,
        detail: names.join(language === 'zh_HK' ? '、' : ', '),
      }),
    ];
  });
}

/**
 * Students' applications in the calendar (issue 13): their deadlines, and the documents still to send near one,
 * each for whoever may see the calendar and view students, in the caller's branch scope (the student's branch:
 * a branch-scoped caller sees its own branch's students only).
 */
export function registerApplicationSources(): void {
  registerCalendarSource('student_application_deadline', {
    permission: 'students.view',
    color: '#874d00',
    entries: deadlineEntries,
  });
  registerCalendarSource('student_pending_documents', {
    permission: 'students.view',
    color: '#a8071a',
    entries: pendingEntries,
  });
}

import { studentsReport } from '../../../../shared/reports/students';
import type { Row } from '../../resources/resource';
import { nameIn } from '../calendar/calendar.sources';
import { businessDay } from '../calendar/calendar.sources';
import { apiDateTime } from '../../resources/rows';
import { inLanguage, reportLabel } from './report-labels';
import type { ReportSource } from './report-source';
import { studentsReportRepository as repository } from './students-report.repository';

type Language = 'en' | 'zh_HK';

const none = (language: Language) => inLanguage(reportLabel('reports.common.none'), language);

/** A name in the language, else the other one's, else "(none)". */
function named(language: Language, en: unknown, zh: unknown): string {
  return nameIn(language, en, zh) || none(language);
}

/** An option's label in the language, else its code, else "(none)". */
function optionLabel(language: Language, value: unknown, en: unknown, zh: unknown): string {
  if (value === null || value === undefined || value === '') return none(language);
  return nameIn(language, en, zh) || String(value);
}

/** The students report's query (shared/reports/students.ts) and how its rows read. */
export const studentsReportSource: ReportSource = {
  definition: studentsReport,
  detail: {
    page: (db, c, sort, page, perPage, read) => repository.page(db, c, sort, page, perPage, read.signal),
    count: (db, c, read) => repository.count(db, c, read.signal),
    async totals(db, c, read) {
      return [{ currency: null, ...(await repository.totals(db, c, read.signal)) }];
    },
    batches: (db, c, sort, read) => repository.batches(db, c, sort, read.signal),
  },
  groups: (db, c, grouping, read) => repository.groups(db, c, grouping, read.signal),
  present(row: Row, view: string, language: Language): Row {
    if (view === 'detail') {
      const created = apiDateTime(row.created_at);
      return {
        id: Number(row.id),
        student_no: row.student_no,
        name_en: [row.surname_en, row.given_name_en].filter(Boolean).join(' '),
        name_zh: row.name_zh ?? '',
        category: named(language, row.category_en, row.category_zh),
        status: optionLabel(language, row.status, row.status_en, row.status_zh),
        nationality: optionLabel(language, row.nationality, row.nationality_en, row.nationality_zh),
        branch: named(language, row.branch_en, row.branch_zh),
        consultant: (row.consultant as string | null) || none(language),
        created: created ? businessDay(created) : null,
        applications: Number(row.applications ?? 0),
        url: `/students/basic/${Number(row.id)}`,
      };
    }
    const key = row.group_key;
    const label =
      view === 'status' || view === 'nationality'
        ? optionLabel(language, key, row.label_en, row.label_zh)
        : view === 'consultant'
          ? (row.name as string | undefined) || none(language)
          : view === 'month'
            ? String(key ?? none(language))
            : named(language, row.name_en, row.name_zh);
    return {
      group_key: key ?? null,
      [view]: label,
      students: Number(row.students),
      applications: Number(row.applications),
    };
  },
};

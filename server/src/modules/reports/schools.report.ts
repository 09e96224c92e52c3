import { schoolsReport } from '../../../../shared/reports/schools';
import type { Row } from '../../resources/resource';
import { nameIn } from '../calendar/calendar.sources';
import type { ReportSource } from './report-source';
import { schoolsReportRepository as repository } from './schools-report.repository';

/** The schools report's query (shared/reports/schools.ts) and how its rows read. */
export const schoolsReportSource: ReportSource = {
  definition: schoolsReport,
  groups: (db, c, grouping, read) => repository.groups(db, c, grouping, read.signal),
  present(row: Row, view: string, language: 'en' | 'zh_HK'): Row {
    const school = {
      school_id: row.school_id,
      school: nameIn(language, row.school_en, row.school_zh),
      url: `/schools/basic/${Number(row.school_id)}`,
    };
    const counts = { applications: row.applications, offers: row.offers, enrolments: row.enrolments };
    if (view === 'school') return { ...school, ...counts };
    return {
      ...school,
      admission_id: row.admission_id,
      intake: nameIn(language, row.intake_en, row.intake_zh),
      year: row.year,
      ...counts,
    };
  },
};

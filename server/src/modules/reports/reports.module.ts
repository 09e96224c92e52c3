import { REPORTS } from '../../../../shared/reports';
import type { ModuleDeps } from '../module';
import { createCalendarService } from '../calendar/calendar.service';
import { calendarReportSource } from './calendar.report';
import {
  orderAnalysisReportSource,
  orderItemsReportSource,
  ordersReportSource,
  receiptsReportSource,
  refundsReportSource,
} from './money.report';
import { checkReportStrings } from './report-labels';
import type { ReportSource } from './report-source';
import { registerReportRoutes } from './reports.routes';
import { createReportsService } from './reports.service';
import { schoolsReportSource } from './schools.report';
import { studentsReportSource } from './students.report';

/**
 * The reports (issue 29, decision 0019): each shared definition (shared/reports) served with its query here. A
 * definition without a query, or a query without a definition, stops the start.
 */
export function registerReportsModule(deps: ModuleDeps): ReportSource[] {
  const sources = [
    ordersReportSource,
    orderItemsReportSource,
    orderAnalysisReportSource,
    receiptsReportSource,
    refundsReportSource,
    studentsReportSource,
    schoolsReportSource,
    calendarReportSource(createCalendarService(deps.db)),
  ];
  for (const def of REPORTS) {
    if (!sources.some((s) => s.definition === def)) throw new Error(`The report ${def.name} has no query`);
    checkReportStrings(def);
  }
  for (const source of sources)
    if (!REPORTS.includes(source.definition)) throw new Error(`${source.definition.name} is not in REPORTS`);
  registerReportRoutes(deps.api, createReportsService(deps.db), sources);
  return sources;
}

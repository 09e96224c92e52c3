import { calendarReport } from './calendar';
import type { ReportDefinition } from './definition';
import { orderAnalysisReport, orderItemsReport, ordersReport, receiptsReport, refundsReport } from './orders';
import { schoolsReport } from './schools';
import { studentsReport } from './students';

/**
 * Every report: the server serves each at `/api{api}`, the client builds its criteria and result screens and its
 * menu entry. A new report is one more line here, its definition and its strings (and its query on the server).
 */
export const REPORTS: readonly ReportDefinition[] = [
  ordersReport,
  orderItemsReport,
  orderAnalysisReport,
  receiptsReport,
  refundsReport,
  studentsReport,
  schoolsReport,
  calendarReport,
];

export function reportByName(name: string): ReportDefinition | undefined {
  return REPORTS.find((r) => r.name === name);
}

import type { ResourceDeclaration } from './declaration';
import { areas } from './areas';
import { auditLogs } from './audit-logs';
import { branches } from './branches';
import { calendarEvents } from './calendar-events';
import { companies } from './companies';
import { holidays } from './holidays';
import { options } from './options';
import { roles } from './roles';
import { schoolAdmissions, schools, schoolSubjects } from './schools';
import { studentCategories } from './student-categories';
import {
  applicationDocuments,
  studentApplications,
  studentEducations,
  studentFamily,
  studentGradeReports,
  students,
} from './students';
import { orderTerms, refundTerms } from './terms';
import { users } from './users';

/**
 * Every declared resource. The server serves each at `/api{path}` with the generic routes, and the client
 * builds its screens and menu entries from each one's `page`; a new resource is one more line here.
 */
export const DECLARATIONS: readonly ResourceDeclaration[] = [
  companies,
  branches,
  roles,
  users,
  areas,
  holidays,
  orderTerms,
  refundTerms,
  options,
  auditLogs,
  studentCategories,
  schools,
  schoolSubjects,
  schoolAdmissions,
  calendarEvents,
  students,
  studentFamily,
  studentEducations,
  studentApplications,
  applicationDocuments,
  studentGradeReports,
];

export function declarationByName(name: string): ResourceDeclaration | undefined {
  return DECLARATIONS.find((d) => d.name === name);
}

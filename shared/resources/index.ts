import type { ResourceDeclaration } from './declaration';
import { areas } from './areas';
import { auditLogs } from './audit-logs';
import { branches } from './branches';
import { calendarEvents } from './calendar-events';
import { companies } from './companies';
import { holidays } from './holidays';
import { options } from './options';
import { productCategories, products } from './products';
import { quotationItems } from './quotation-items';
import { roles } from './roles';
import { receipts, refunds, studentPrepaids } from './money';
import { orders, quotations } from './sales';
import { schoolAdmissions, schools, schoolSubjects } from './schools';
import { specialEventRegistrations, specialEvents } from './special-events';
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
  productCategories,
  products,
  specialEvents,
  specialEventRegistrations,
  quotationItems,
  quotations,
  orders,
  receipts,
  refunds,
  studentPrepaids,
];

export function declarationByName(name: string): ResourceDeclaration | undefined {
  return DECLARATIONS.find((d) => d.name === name);
}

/**
 * The child resource a record page's tab lists: the declaration named `<resource>_<tab>` whose parent is the
 * resource (the `subject` tab of `school`: `school_subject`; `grade-report` of `student`: `student_grade_report`),
 * or none.
 */
export function childOfTab(
  decl: ResourceDeclaration,
  tab: string,
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
): ResourceDeclaration | undefined {
  const name = `${decl.name}_${tab.replace(/-/g, '_')}`;
  return declarations.find((d) => d.parent?.resource === decl.name && d.name === name);
}

/**
 * The child declarations a tab lists by the path segment their records open under, in order (the declaration's
 * `tabChildren`).
 */
export function childrenOfTab(
  decl: ResourceDeclaration,
  tab: string,
  parts: Readonly<Record<string, string>> | undefined = decl.tabChildren?.[tab],
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
): { part: string; child: ResourceDeclaration }[] {
  return Object.entries(parts ?? {}).map(([part, name]) => {
    const child = declarations.find((d) => d.name === name && d.parent?.resource === decl.name);
    if (!child) throw new Error(`The ${tab} tab of ${decl.name} lists ${name}, which is no child of it`);
    return { part, child };
  });
}

/**
 * Every child resource a record page's tab lists, in order: the declaration's `tabChildren` for the tab, else the
 * child it names (`childOfTab`); none for the record's own tab or a tab of other content (attachments).
 */
export function tabChildResources(
  decl: ResourceDeclaration,
  tab: string,
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
): ResourceDeclaration[] {
  if (decl.tabChildren?.[tab])
    return childrenOfTab(decl, tab, decl.tabChildren[tab], declarations).map(({ child }) => child);
  const child = childOfTab(decl, tab, declarations);
  return child ? [child] : [];
}

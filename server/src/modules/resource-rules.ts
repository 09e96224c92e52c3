import type { ResourceDefinition } from '../resources/resource';
import type { ResourceService } from '../resources/resource.service';
import { orderTerms, refundTerms } from '../../../shared/resources/terms';
import type { OptionKey } from '../../../shared/schemas/options';
import { areaRules } from './areas/areas.resource';
import { auditLogRules } from './audit-log/audit-log.resource';
import { branchRules } from './branches/branches.resource';
import { calendarEventRules } from './calendar/calendar-events.resource';
import { filesServiceOf } from './files.module';
import { holidayRules } from './holidays/holidays.resource';
import type { ModuleDeps } from './module';
import { optionRules } from './options/options.resource';
import { roleRules } from './roles/roles.resource';
import { schoolAdmissionRules, schoolRules, schoolSubjectRules } from './schools/schools.resource';
import { educationRules } from './students/educations.resource';
import { studentRules, studentTabData } from './students/students.resource';
import { applicationDocumentRules } from './students/application-documents.resource';
import { studentApplicationRules } from './students/applications.resource';
import { quotationItemRules } from './quotation-items/quotation-items.resource';
import { specialEventRegistrationRules, specialEventRules } from './special-events/special-events.resource';
import { printMoneyDocument } from './money/money-pdf';
import { studentPrepaidRules } from './money/prepaids.resource';
import { receiptRules } from './money/receipts.resource';
import { refundRules } from './money/refunds.resource';
import { orderRules } from './sales/orders.resource';
import { quotationRules } from './sales/quotations.resource';
import { printSalesDocument } from './sales/sales-pdf';
import { termsRules } from './terms/terms.resource';
import { userRules } from './users/users.resource';

export type Rules = Partial<ResourceDefinition>;

/**
 * What a rules factory gets: the app's services, for a family (the option lists) the member, and the declared
 * resources' services by name (filled in as they are registered: read them in a request, not at registration).
 */
export interface RulesContext {
  deps: ModuleDeps;
  member?: string;
  resources?: ReadonlyMap<string, ResourceService>;
}

/**
 * The rules of declared resources that are truly their own (checks needing the database, hooks), by
 * declaration name: the rules themselves, or a function making them when they need the app's services or
 * differ per member of a family. Each lives in its module's folder. A declared resource without rules needs no
 * entry (companies, student categories, service categories, services): its declaration is all there is.
 */
export const RESOURCE_RULES: Record<string, Rules | ((context: RulesContext) => Rules)> = {
  branch: branchRules,
  role: roleRules,
  user: ({ deps }) => {
    // deleting a user (settings → users, or one's own account) deletes the user's own files (the profile photo)
    const files = filesServiceOf(deps);
    return {
      ...userRules,
      afterDelete: (trx, row, ctx) => files.removeOwned(trx, ctx, 'user', Number(row.id)),
    };
  },
  area: areaRules,
  holiday: holidayRules,
  [orderTerms.name]: termsRules(orderTerms),
  [refundTerms.name]: termsRules(refundTerms),
  option: ({ member }) => optionRules(member as OptionKey),
  audit_log: auditLogRules,
  school: ({ deps }) => {
    // deleting a school deletes its logo (its attachments refuse the delete: a declared reference)
    const files = filesServiceOf(deps);
    return {
      ...schoolRules,
      afterDelete: (trx, row, ctx) => files.removeOwned(trx, ctx, 'school_logo', Number(row.id)),
    };
  },
  school_subject: schoolSubjectRules,
  school_admission: schoolAdmissionRules,
  calendar_event: calendarEventRules,
  student: ({ deps, resources }) => ({ ...studentRules, tabData: studentTabData(deps.db, resources) }),
  // an application's checklist and a restored row delete the files they own (the files service)
  student_application: ({ deps }) => studentApplicationRules(filesServiceOf(deps).removeOwned),
  application_document: ({ deps }) => applicationDocumentRules(filesServiceOf(deps).removeOwned),
  student_education: educationRules,
  special_event: specialEventRules,
  special_event_registration: specialEventRegistrationRules,
  quotation_item: quotationItemRules,
  // printed with the company's logo from the files' storage
  quotation: ({ deps }) => {
    const storage = filesServiceOf(deps).storage;
    return {
      ...quotationRules,
      print: (db, row, _ctx, tab) =>
        printSalesDocument(db, storage, tab === 'contract' ? 'contract' : 'quotation', row),
    };
  },
  order: ({ deps }) => {
    const storage = filesServiceOf(deps).storage;
    return { ...orderRules, print: (db, row) => printSalesDocument(db, storage, 'order', row) };
  },
  receipt: { ...receiptRules, print: (db, row) => printMoneyDocument(db, 'receipt', row) },
  refund: { ...refundRules, print: (db, row) => printMoneyDocument(db, 'refund', row) },
  student_prepaid: studentPrepaidRules,
};

/** The rules of one declared resource (of one member of a family). */
export function rulesOf(name: string, context: RulesContext): Rules {
  const rules = RESOURCE_RULES[name];
  return typeof rules === 'function' ? rules(context) : (rules ?? {});
}

import type { ResourceDefinition } from '../resources/resource';
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
import { studentRules } from './students/students.resource';
import { applicationDocumentRules } from './students/application-documents.resource';
import { studentApplicationRules } from './students/applications.resource';
import { termsRules } from './terms/terms.resource';
import { userRules } from './users/users.resource';

export type Rules = Partial<ResourceDefinition>;

/** What a rules factory gets: the app's services, and for a family (the option lists) the member. */
export interface RulesContext {
  deps: ModuleDeps;
  member?: string;
}

/**
 * The rules of declared resources that are truly their own (checks needing the database, hooks), by
 * declaration name: the rules themselves, or a function making them when they need the app's services or
 * differ per member of a family. Each lives in its module's folder. A declared resource without rules needs no
 * entry (companies, student categories): its declaration is all there is.
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
  student: studentRules,
  // an application's checklist and a restored row delete the files they own (the files service)
  student_application: ({ deps }) => studentApplicationRules(filesServiceOf(deps).removeOwned),
  application_document: ({ deps }) => applicationDocumentRules(filesServiceOf(deps).removeOwned),
  student_education: educationRules,
};

/** The rules of one declared resource (of one member of a family). */
export function rulesOf(name: string, context: RulesContext): Rules {
  const rules = RESOURCE_RULES[name];
  return typeof rules === 'function' ? rules(context) : (rules ?? {});
}

import type { ResourceService } from '../../resources/resource.service';
import { resourceOf } from '../declared.module';
import type { ModuleDeps } from '../module';
import { registerPortalAccessRoutes } from './portal-access.routes';
import { createPortalAccessService } from './portal-access.service';

/**
 * Students (domain.md "Students"): the student, its family members, educations, applications, checklists and grade
 * reports are declared resources (shared/resources/students.ts, their rules in this folder); what is not CRUD
 * registers its routes here — portal access on the staff side (invitation, first password, reopen) and the
 * portal's set-password with an invitation link. Registered after the declared resources, whose services it uses.
 */
export function registerStudentsModule(deps: ModuleDeps, resources: Map<string, ResourceService>): void {
  const portalAccess = createPortalAccessService({
    db: deps.db,
    config: deps.config,
    mail: deps.mail,
    students: resourceOf(resources, 'student'),
  });
  registerPortalAccessRoutes(deps, portalAccess);
}

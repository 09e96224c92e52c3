import type { ResourceService } from '../../resources/resource.service';
import { filesServiceOf } from '../files.module';
import type { ModuleDeps } from '../module';
import { createPortalAccountService } from './portal-account.service';
import { registerPortalRoutes } from './portal.routes';
import { createPortalService } from './portal.service';

/**
 * The student portal's server side (issue 14): the signed-in student's own details, photo, family, education,
 * application choices, checklist files, submission and account, on the portal host. Registered after the declared
 * resources and the students module, whose services it reuses (decision 0011).
 */
export function registerPortalModule(
  deps: ModuleDeps,
  resources: ReadonlyMap<string, ResourceService>,
): void {
  const files = filesServiceOf(deps);
  registerPortalRoutes(
    deps,
    createPortalService({ db: deps.db, resources, files }),
    createPortalAccountService(deps),
    files,
  );
}

import type { ResourceService } from '../resources/resource.service';
import { registerAuditLogRoutes } from './audit-log/audit-log.routes';
import { resourceOf } from './declared.module';
import type { ModuleDeps } from './module';
import { registerOptionRoutes } from './options/options.routes';
import { registerSettingsRoutes } from './settings/settings.routes';

/**
 * Reference data and settings: the option lists' summary and order (before the declared option lists' routes,
 * whose `/:id` would take "order"), settings and numbering. Holidays (imported by resource.import.ts), areas,
 * options, terms and the audit log themselves are declared resources (shared/resources,
 * server/src/modules/declared.module.ts).
 */
export function registerReferenceModule(deps: ModuleDeps): void {
  registerOptionRoutes(deps.api, deps.db);
  registerSettingsRoutes(deps.api, deps.db, deps.settingsGuard);
}

/** The routes of reference data that use the declared resources' services: one record's audit history. */
export function registerReferenceRecordRoutes(
  deps: ModuleDeps,
  resources: Map<string, ResourceService>,
): void {
  registerAuditLogRoutes(deps.api, resourceOf(resources, 'audit_log'));
}

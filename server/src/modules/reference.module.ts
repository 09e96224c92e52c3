import { registerResource } from '../resources/resource.routes';
import { registerAuditLogRoutes } from './audit-log/audit-log.routes';
import { registerHolidayImportRoute } from './holidays/holidays.routes';
import type { ModuleDeps } from './module';
import { registerOptionRoutes } from './options/options.routes';
import { registerSettingsRoutes } from './settings/settings.routes';
import { termsResource } from './terms/terms.resource';

/** Reference data and settings (options, numbering, terms, audit log): routes registered here. */
export function registerReferenceModule(deps: ModuleDeps): void {
  registerOptionRoutes(deps.api, deps.db);
  registerSettingsRoutes(deps.api, deps.db, deps.settingsGuard);
  for (const kind of ['order', 'refund'] as const) registerResource(deps.api, deps.db, termsResource(kind));
  registerAuditLogRoutes(deps.api, deps.db);
  registerHolidayImportRoute(deps.api, deps.db);
}

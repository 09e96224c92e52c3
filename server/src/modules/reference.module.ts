import type { ModuleDeps } from './module';
import { registerOptionRoutes } from './options/options.routes';
import { registerSettingsRoutes } from './settings/settings.routes';

/** Reference data and settings (options, numbering, terms, audit log): routes registered here. */
export function registerReferenceModule(deps: ModuleDeps): void {
  registerOptionRoutes(deps.api, deps.db);
  registerSettingsRoutes(deps.api, deps.db);
}

import { z } from 'zod';
import { FEATURE_FLAGS } from '../../../../shared/features';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import type { ModuleDeps } from '../module';
import { registerSettingsSection } from '../settings/settings.routes';
import { createAccountSettingsService } from './account-settings';

const ZAccountSettings = z.strictObject({
  require_two_factor: z.boolean().optional(),
  registration_enabled: z.boolean().optional(),
  features: z.partialRecord(z.enum(FEATURE_FLAGS), z.boolean()).optional(),
});

/** The admin's account settings: require 2FA for all staff, self-registration, the spec's feature flags. */
export function registerAccountSettingsRoutes({ api, db, settingsGuard }: ModuleDeps): void {
  const accountSettings = createAccountSettingsService(db, settingsGuard);
  registerSettingsSection(api, {
    path: '/settings/accounts',
    permission: ADMINS_ONLY,
    body: ZAccountSettings,
    read: accountSettings.read,
    update: accountSettings.update,
  });
}

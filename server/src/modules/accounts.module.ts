import type { ResourceService } from '../resources/resource.service';
import { createApiTokensService } from './api-tokens/api-tokens.service';
import { resourceOf } from './declared.module';
import { registerApiTokenRoutes } from './api-tokens/api-tokens.routes';
import { registerMailRoutes } from './mail/mail.routes';
import type { ModuleDeps } from './module';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes';
import { createPasswordResetService } from './password-reset/password-reset.service';
import { createPortalAccountService } from './portal/portal-account.service';
import { registerProfileRoutes } from './profile/profile.routes';
import { createProfileService } from './profile/profile.service';
import { registerRegistrationRoutes } from './registration/registration.routes';
import { createRegistrationService } from './registration/registration.service';
import { registerTwoFactorRoutes } from './two-factor/two-factor.routes';
import { createTwoFactorService } from './two-factor/two-factor.service';
import { registerAccountSettingsRoutes } from './users/account-settings.routes';

/** The services of the accounts module, made once and handed to each feature's routes. */
export type AccountsServices = ReturnType<typeof createAccountsServices>;

function createAccountsServices(deps: ModuleDeps, resources: Map<string, ResourceService>) {
  const { db, config, mail, background } = deps;
  // the declared users resource: deleting one's own account goes through it too (its rules delete own files)
  const users = resourceOf(resources, 'user');
  return {
    users,
    profile: createProfileService({ db, config, mail, users }),
    twoFactor: createTwoFactorService(db, config),
    tokens: createApiTokensService(db),
    resets: createPasswordResetService(db, config, mail, background),
    // a student's forgotten portal password (the portal host's `POST /api/forgot-password`)
    portalAccount: createPortalAccountService({ db, config, mail, background }),
    registration: createRegistrationService(db),
  };
}

/**
 * Accounts and access: users, roles, companies and branches are declared resources (shared/resources,
 * declared.module.ts); each feature (profile, 2FA, API tokens, password reset, registration, mail, account
 * settings) registers its own routes.
 */
export function registerAccountsModule(deps: ModuleDeps, resources: Map<string, ResourceService>): void {
  const services = createAccountsServices(deps, resources);

  registerTwoFactorRoutes(deps, services);
  registerPasswordResetRoutes(deps, services);
  registerRegistrationRoutes(deps, services);
  registerProfileRoutes(deps, services);
  registerApiTokenRoutes(deps, services);
  registerMailRoutes(deps);
  registerAccountSettingsRoutes(deps);
}

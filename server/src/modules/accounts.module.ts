import { registerResource } from '../resources/resource.routes';
import { createApiTokensService } from './api-tokens/api-tokens.service';
import { filesServiceOf } from './files.module';
import { registerApiTokenRoutes } from './api-tokens/api-tokens.routes';
import { branchesResource } from './branches/branches.resource';
import { companiesResource } from './companies/companies.resource';
import { registerMailRoutes } from './mail/mail.routes';
import type { ModuleDeps } from './module';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes';
import { createPasswordResetService } from './password-reset/password-reset.service';
import { registerProfileRoutes } from './profile/profile.routes';
import { createProfileService } from './profile/profile.service';
import { registerRegistrationRoutes } from './registration/registration.routes';
import { createRegistrationService } from './registration/registration.service';
import { rolesResource } from './roles/roles.resource';
import { registerTwoFactorRoutes } from './two-factor/two-factor.routes';
import { createTwoFactorService } from './two-factor/two-factor.service';
import { registerAccountSettingsRoutes } from './users/account-settings.routes';
import { usersResource } from './users/users.resource';

/** The services of the accounts module, made once and handed to each feature's routes. */
export type AccountsServices = ReturnType<typeof createAccountsServices>;

function createAccountsServices(deps: ModuleDeps) {
  const { api, db, config, mail, background } = deps;
  // deleting a user (settings → users, or one's own account) deletes the user's own files (the profile photo)
  const files = filesServiceOf(deps);
  const users = registerResource(api, db, {
    ...usersResource,
    afterDelete: (trx, row, ctx) => files.removeOwned(trx, ctx, 'user', row.id),
  });
  return {
    users,
    profile: createProfileService({ db, config, mail, users }),
    twoFactor: createTwoFactorService(db, config),
    tokens: createApiTokensService(db),
    resets: createPasswordResetService(db, config, mail, background),
    registration: createRegistrationService(db),
  };
}

/**
 * Accounts and access: users, roles, companies and branches on the resource machinery; each feature
 * (profile, 2FA, API tokens, password reset, registration, mail, account settings) registers its own routes.
 */
export function registerAccountsModule(deps: ModuleDeps): void {
  const services = createAccountsServices(deps);
  for (const resource of [rolesResource, companiesResource, branchesResource])
    registerResource(deps.api, deps.db, resource);

  registerTwoFactorRoutes(deps, services);
  registerPasswordResetRoutes(deps, services);
  registerRegistrationRoutes(deps, services);
  registerProfileRoutes(deps, services);
  registerApiTokenRoutes(deps, services);
  registerMailRoutes(deps);
  registerAccountSettingsRoutes(deps);
}

import type { ModuleDeps } from './module';

/** Accounts and access (users, roles, companies, branches, profile, 2FA, API tokens, mail): routes registered here. */
export function registerAccountsModule(_deps: ModuleDeps): void {}

/** Accounts and access: API tokens, password reset tokens and what 2FA and registration need. */
import type { Knex } from 'knex';

export async function up(_knex: Knex): Promise<void> {}

export async function down(_knex: Knex): Promise<void> {}

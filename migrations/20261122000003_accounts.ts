/** Accounts and access: API tokens, password reset tokens and what 2FA and registration need. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    // the last TOTP time-step accepted: a code works once (quality §4)
    t.bigInteger('two_factor_last_step').nullable();
    // registration: when the user accepted the terms
    t.dateTime('terms_accepted_at').nullable();
  });

  await knex.schema.createTable('api_tokens', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.text('abilities').notNullable(); // JSON array of permission keys
    t.dateTime('last_used_at').nullable();
    t.dateTime('expires_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.increments('id');
    t.string('email', 191).notNullable().unique();
    t.string('token_hash', 64).notNullable();
    t.dateTime('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('password_reset_tokens');
  await knex.schema.dropTableIfExists('api_tokens');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('terms_accepted_at');
    t.dropColumn('two_factor_last_step');
  });
}

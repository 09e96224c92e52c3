import type { Knex } from 'knex';

/** created_at / updated_at, set by the repositories from the app clock (UTC text, same on both databases). */
function timestamps(t: Knex.CreateTableBuilder, withActors = false): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  if (withActors) {
    t.integer('created_by').unsigned().nullable();
    t.integer('updated_by').unsigned().nullable();
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('companies', (t) => {
    t.increments('id');
    t.string('code', 20).notNullable().unique();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.string('address_en', 500).nullable();
    t.string('address_zh', 500).nullable();
    t.string('phone', 50).nullable();
    t.string('email', 191).nullable();
    t.string('website', 191).nullable();
    t.string('business_registration_no', 50).nullable();
    t.integer('logo_file_id').unsigned().nullable();
    t.text('bank_details').nullable();
    t.text('invoice_footer').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t, true);
  });

  await knex.schema.createTable('branches', (t) => {
    t.increments('id');
    t.integer('company_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('companies')
      .onDelete('RESTRICT');
    t.string('code', 10).notNullable().unique();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.string('address', 500).nullable();
    t.string('phone', 50).nullable();
    t.string('email', 191).nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t, true);
  });

  await knex.schema.createTable('roles', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    t.string('description', 500).nullable();
    t.string('data_scope', 10).notNullable().defaultTo('branch');
    t.text('permissions').notNullable(); // JSON array of permission keys
    timestamps(t, true);
  });

  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('email', 191).notNullable().unique();
    t.string('password_hash', 100).notNullable();
    t.integer('role_id').unsigned().nullable().references('id').inTable('roles').onDelete('RESTRICT');
    t.integer('branch_id').unsigned().nullable().references('id').inTable('branches').onDelete('RESTRICT');
    t.boolean('is_admin').notNullable().defaultTo(false);
    t.string('language', 10).notNullable().defaultTo('zh_HK');
    t.integer('profile_photo_file_id').unsigned().nullable();
    t.dateTime('email_verified_at').nullable();
    t.text('two_factor_secret').nullable();
    t.text('two_factor_recovery_codes').nullable();
    t.dateTime('two_factor_confirmed_at').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.dateTime('last_login_at').nullable();
    timestamps(t, true);
  });

  // express-session's store when no REDIS_URL is set.
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 128).primary();
    t.text('sess').notNullable();
    t.bigInteger('expires_at').notNullable().index();
  });

  await knex.schema.createTable('user_sessions', (t) => {
    t.increments('id');
    t.string('session_id_hash', 64).notNullable().unique();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('student_id').unsigned().nullable();
    t.string('ip', 64).nullable();
    t.string('user_agent', 500).nullable();
    t.dateTime('last_active_at').notNullable();
    timestamps(t);
    t.index(['user_id']);
    t.index(['student_id']);
  });

  await knex.schema.createTable('audit_logs', (t) => {
    t.increments('id');
    t.string('actor_type', 10).notNullable();
    t.integer('actor_id').unsigned().nullable();
    t.string('action', 40).notNullable();
    t.string('entity', 60).nullable();
    t.integer('entity_id').unsigned().nullable();
    t.text('changes').nullable();
    t.string('ip', 64).nullable();
    t.string('request_id', 64).nullable();
    t.dateTime('created_at').notNullable();
    t.index(['entity', 'entity_id']);
    t.index(['actor_type', 'actor_id']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('settings', (t) => {
    t.increments('id');
    t.string('key', 100).notNullable().unique();
    t.text('value').nullable();
    timestamps(t, true);
  });

  await knex.schema.createTable('holidays', (t) => {
    t.increments('id');
    t.date('date').notNullable().unique();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    timestamps(t, true);
  });

  await knex.schema.createTable('areas', (t) => {
    t.increments('id');
    t.integer('parent_id').unsigned().nullable().references('id').inTable('areas').onDelete('RESTRICT');
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.string('name_ko', 200).nullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    timestamps(t, true);
    t.index(['parent_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'areas',
    'holidays',
    'settings',
    'audit_logs',
    'user_sessions',
    'sessions',
    'users',
    'roles',
    'branches',
    'companies',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}

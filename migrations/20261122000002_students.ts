import type { Knex } from 'knex';

/** Students and their categories: the portal signs students in against `students.portal_email`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('student_categories', (t) => {
    t.increments('id');
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.string('color', 20).nullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.integer('created_by').unsigned().nullable();
    t.integer('updated_by').unsigned().nullable();
  });

  await knex.schema.createTable('students', (t) => {
    t.increments('id');
    t.string('student_no', 40).notNullable().unique();
    t.integer('category_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('student_categories')
      .onDelete('RESTRICT');
    t.integer('branch_id').unsigned().notNullable().references('id').inTable('branches').onDelete('RESTRICT');
    t.integer('consultant_user_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('users')
      .onDelete('RESTRICT');
    t.string('status', 40).nullable();
    t.string('surname_en', 100).nullable();
    t.string('given_name_en', 100).nullable();
    t.string('name_zh', 100).nullable();
    t.string('name_ko', 100).nullable();
    t.string('gender', 20).nullable();
    t.date('birth_date').nullable();
    t.string('nationality', 40).nullable();
    t.string('passport_no', 40).nullable();
    t.date('passport_expiry').nullable();
    t.string('phone', 50).nullable();
    t.string('email', 191).nullable();
    t.string('application_email', 191).nullable();
    t.string('address', 500).nullable();
    t.string('korean_level', 40).nullable();
    t.string('topik_level', 40).nullable();
    t.string('visa_type', 40).nullable();
    t.date('visa_expiry').nullable();
    t.text('remark').nullable();
    t.string('portal_email', 191).nullable().unique();
    t.string('portal_password_hash', 100).nullable();
    t.boolean('portal_enabled').notNullable().defaultTo(false);
    t.string('language', 10).notNullable().defaultTo('zh_HK');
    t.dateTime('info_submitted_at').nullable();
    t.dateTime('info_confirmed_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.integer('created_by').unsigned().nullable();
    t.integer('updated_by').unsigned().nullable();
    t.index(['branch_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('students');
  await knex.schema.dropTableIfExists('student_categories');
}

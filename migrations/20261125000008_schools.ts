import type { Knex } from 'knex';

/**
 * Schools, their subjects and intakes ("admission times") with what an intake opens, its timetable and its
 * document checklist (domain.md "Schools"); staff's own calendar entries (domain.md "Calendar"). Each list's
 * sortable columns get an index `(column, id)` as the list-indexes migration explains.
 */
function timestamps(t: Knex.CreateTableBuilder): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  t.integer('created_by').unsigned().nullable();
  t.integer('updated_by').unsigned().nullable();
}

function money(t: Knex.CreateTableBuilder, column: string): void {
  t.bigInteger(column).nullable();
  t.string('currency', 3).nullable();
}

export async function up(knex: Knex): Promise<void> {
  // the media manager sorts files by name and size as well as by date
  await knex.schema.alterTable('files', (t) => {
    t.index(['original_name', 'id'], 'files_original_name_id_list_index');
    t.index(['size_bytes', 'id'], 'files_size_bytes_id_list_index');
  });

  await knex.schema.createTable('schools', (t) => {
    t.increments('id');
    t.string('code', 40).notNullable().unique();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.string('name_ko', 200).nullable();
    t.string('school_type', 40).nullable();
    t.integer('area_id').unsigned().nullable().references('id').inTable('areas').onDelete('RESTRICT');
    t.integer('district_id').unsigned().nullable().references('id').inTable('areas').onDelete('RESTRICT');
    t.string('address', 500).nullable();
    t.string('website', 300).nullable();
    t.string('email', 191).nullable();
    t.string('phone', 50).nullable();
    t.string('contact_person', 200).nullable();
    t.text('description').nullable();
    t.integer('logo_file_id').unsigned().nullable().references('id').inTable('files').onDelete('SET NULL');
    t.boolean('is_partner').notNullable().defaultTo(false);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('remark').nullable();
    timestamps(t);
    t.index(['name_en', 'id']);
    t.index(['name_zh', 'id']);
    t.index(['created_at', 'id']);
    t.index(['area_id']);
    t.index(['district_id']);
  });

  await knex.schema.createTable('school_subjects', (t) => {
    t.increments('id');
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('RESTRICT');
    t.string('code', 40).notNullable();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.string('name_ko', 200).nullable();
    t.string('faculty', 200).nullable();
    t.string('degree_level', 40).nullable();
    t.integer('duration_months').nullable();
    money(t, 'tuition_fee');
    t.string('language_of_instruction', 100).nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('remark').nullable();
    timestamps(t);
    t.unique(['school_id', 'code']);
    t.index(['school_id', 'name_en', 'id']);
    t.index(['school_id', 'name_zh', 'id']);
  });

  await knex.schema.createTable('school_admissions', (t) => {
    t.increments('id');
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('RESTRICT');
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.integer('year').notNullable();
    t.string('term', 40).nullable();
    t.date('application_start').nullable();
    t.date('application_deadline').nullable();
    t.date('interview_date').nullable();
    t.date('result_date').nullable();
    t.date('semester_start').nullable();
    money(t, 'application_fee');
    t.text('remark').nullable();
    timestamps(t);
    t.index(['school_id', 'year', 'id']);
    t.index(['school_id', 'application_deadline', 'id']);
    // the calendar reads every intake whose milestones fall in a month
    t.index(['application_start']);
    t.index(['application_deadline']);
    t.index(['interview_date']);
    t.index(['result_date']);
    t.index(['semester_start']);
  });

  await knex.schema.createTable('admission_subjects', (t) => {
    t.increments('id');
    t.integer('admission_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('school_admissions')
      .onDelete('RESTRICT');
    t.integer('subject_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('school_subjects')
      .onDelete('RESTRICT');
    t.unique(['admission_id', 'subject_id']);
    t.index(['subject_id']);
  });

  await knex.schema.createTable('admission_timetable', (t) => {
    t.increments('id');
    t.integer('admission_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('school_admissions')
      .onDelete('RESTRICT');
    t.date('date').notNullable();
    t.string('title_en', 200).notNullable();
    t.string('title_zh', 200).notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.index(['admission_id', 'sort_order']);
    t.index(['date']);
  });

  await knex.schema.createTable('admission_documents', (t) => {
    t.increments('id');
    t.integer('admission_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('school_admissions')
      .onDelete('RESTRICT');
    t.string('document_type', 40).nullable();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.boolean('is_required').notNullable().defaultTo(true);
    t.string('remark', 500).nullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.index(['admission_id', 'sort_order']);
  });

  await knex.schema.createTable('calendar_events', (t) => {
    t.increments('id');
    t.string('title', 200).notNullable();
    t.dateTime('start_at').notNullable();
    t.dateTime('end_at').nullable();
    t.boolean('all_day').notNullable().defaultTo(false);
    t.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.integer('branch_id').unsigned().nullable().references('id').inTable('branches').onDelete('RESTRICT');
    t.string('color', 20).nullable();
    t.text('remark').nullable();
    timestamps(t);
    t.index(['start_at']);
    t.index(['branch_id', 'start_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('calendar_events');
  await knex.schema.dropTableIfExists('admission_documents');
  await knex.schema.dropTableIfExists('admission_timetable');
  await knex.schema.dropTableIfExists('admission_subjects');
  await knex.schema.dropTableIfExists('school_admissions');
  await knex.schema.dropTableIfExists('school_subjects');
  await knex.schema.dropTableIfExists('schools');
  await knex.schema.alterTable('files', (t) => {
    t.dropIndex(['original_name', 'id'], 'files_original_name_id_list_index');
    t.dropIndex(['size_bytes', 'id'], 'files_size_bytes_id_list_index');
  });
}

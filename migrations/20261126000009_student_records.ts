import type { Knex } from 'knex';

/**
 * A student's records (domain.md "Students"): family members, education history, applications to intakes with
 * their document checklists, grade reports; the portal-access columns staff set (a first password the student
 * must change, when the invitation went out) and the portal's own single-use links (an invitation to set a
 * password; later a forgotten-password link), kept apart from staff's `password_reset_tokens`; the list indexes of every sortable column (`(column, id)`, a
 * child's leading with its parent column, as the list-indexes migration explains).
 */
function timestamps(t: Knex.CreateTableBuilder): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  t.integer('created_by').unsigned().nullable();
  t.integer('updated_by').unsigned().nullable();
}

function studentColumn(t: Knex.CreateTableBuilder): void {
  t.integer('student_id').unsigned().notNullable().references('id').inTable('students').onDelete('RESTRICT');
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    t.boolean('portal_must_change_password').notNullable().defaultTo(false);
    t.dateTime('portal_invited_at').nullable();
    t.integer('photo_file_id').unsigned().nullable().references('id').inTable('files').onDelete('SET NULL');
    t.unique(['passport_no']);
    t.unique(['email']);
    t.index(['surname_en', 'id'], 'students_surname_en_id_list_index');
    t.index(['given_name_en', 'id'], 'students_given_name_en_id_list_index');
    t.index(['name_zh', 'id'], 'students_name_zh_id_list_index');
    t.index(['created_at', 'id'], 'students_created_at_id_list_index');
    t.index(['info_submitted_at', 'id'], 'students_info_submitted_at_id_list_index');
  });

  await knex.schema.createTable('student_family_members', (t) => {
    t.increments('id');
    studentColumn(t);
    t.string('relationship', 40).notNullable();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).nullable();
    t.date('birth_date').nullable();
    t.string('nationality', 40).nullable();
    t.string('occupation', 200).nullable();
    t.string('employer', 200).nullable();
    t.string('phone', 50).nullable();
    t.string('email', 191).nullable();
    t.string('address', 500).nullable();
    t.boolean('is_emergency_contact').notNullable().defaultTo(false);
    timestamps(t);
    t.index(['student_id', 'name_en', 'id']);
    t.index(['student_id', 'name_zh', 'id']);
  });

  await knex.schema.createTable('student_educations', (t) => {
    t.increments('id');
    studentColumn(t);
    t.string('level', 40).notNullable();
    t.string('school_name', 200).notNullable();
    t.date('start_date').nullable();
    t.date('end_date').nullable();
    t.boolean('graduated').notNullable().defaultTo(false);
    t.string('remark', 1000).nullable();
    timestamps(t);
    t.index(['student_id', 'school_name', 'id']);
    t.index(['student_id', 'start_date', 'id']);
  });

  await knex.schema.createTable('student_applications', (t) => {
    t.increments('id');
    studentColumn(t);
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('RESTRICT');
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
    t.integer('priority').notNullable().defaultTo(1);
    t.string('status', 20).notNullable().defaultTo('draft');
    t.date('submitted_at').nullable();
    t.date('result_date').nullable();
    t.date('offer_date').nullable();
    t.date('enrolment_date').nullable();
    t.string('student_id_at_school', 60).nullable();
    t.string('dormitory', 200).nullable();
    t.date('coa_issued_at').nullable();
    t.date('visa_issued_at').nullable();
    t.text('remark').nullable();
    timestamps(t);
    // one application per student, intake and subject
    t.unique(['student_id', 'admission_id', 'subject_id']);
    t.index(['student_id', 'priority', 'id']);
    t.index(['admission_id']);
    t.index(['school_id']);
    t.index(['subject_id']);
  });

  await knex.schema.createTable('application_documents', (t) => {
    t.increments('id');
    t.integer('application_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('student_applications')
      .onDelete('RESTRICT');
    // the intake's checklist entry, copied when the application was made (a later edit of the intake's
    // checklist does not rename what a student already provided); null once that entry is removed
    t.integer('admission_document_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('admission_documents')
      .onDelete('SET NULL');
    t.string('document_type', 40).nullable();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.boolean('is_required').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.string('status', 20).notNullable().defaultTo('pending');
    t.integer('file_id').unsigned().nullable().references('id').inTable('files').onDelete('SET NULL');
    t.dateTime('uploaded_at').nullable();
    t.dateTime('submitted_at').nullable();
    t.string('remark', 500).nullable();
    timestamps(t);
    t.index(['application_id', 'sort_order', 'id']);
    t.index(['status']);
  });

  // a portal link's token, stored as its SHA-256 only: one live link per student and purpose (a new invitation
  // replaces the last), spent by deleting its row, void after `expires_at`; gone with its student
  await knex.schema.createTable('student_portal_tokens', (t) => {
    t.increments('id');
    t.integer('student_id').unsigned().notNullable().references('id').inTable('students').onDelete('CASCADE');
    t.string('purpose', 20).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.dateTime('expires_at').notNullable();
    t.dateTime('created_at').notNullable();
    t.integer('created_by').unsigned().nullable();
    t.unique(['student_id', 'purpose']);
  });

  await knex.schema.createTable('student_grade_reports', (t) => {
    t.increments('id');
    studentColumn(t);
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('RESTRICT');
    t.integer('year').notNullable();
    t.string('term', 40).notNullable();
    t.string('gpa', 10).nullable();
    t.integer('credits').nullable();
    t.integer('attendance_rate').nullable();
    t.integer('file_id').unsigned().nullable().references('id').inTable('files').onDelete('SET NULL');
    t.text('remark').nullable();
    timestamps(t);
    t.unique(['student_id', 'school_id', 'year', 'term']);
    t.index(['student_id', 'year', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('student_grade_reports');
  await knex.schema.dropTableIfExists('student_portal_tokens');
  await knex.schema.dropTableIfExists('application_documents');
  await knex.schema.dropTableIfExists('student_applications');
  await knex.schema.dropTableIfExists('student_educations');
  await knex.schema.dropTableIfExists('student_family_members');
  await knex.schema.alterTable('students', (t) => {
    t.dropIndex(['info_submitted_at', 'id'], 'students_info_submitted_at_id_list_index');
    t.dropIndex(['created_at', 'id'], 'students_created_at_id_list_index');
    t.dropIndex(['name_zh', 'id'], 'students_name_zh_id_list_index');
    t.dropIndex(['given_name_en', 'id'], 'students_given_name_en_id_list_index');
    t.dropIndex(['surname_en', 'id'], 'students_surname_en_id_list_index');
    t.dropUnique(['email']);
    t.dropUnique(['passport_no']);
    t.dropForeign(['photo_file_id']);
    t.dropColumn('photo_file_id');
    t.dropColumn('portal_invited_at');
    t.dropColumn('portal_must_change_password');
  });
}

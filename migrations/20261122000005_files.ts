/** Files and storage (domain.md "Files and storage"): every upload, wherever it belongs. */
import type { Knex } from 'knex';

/** The settings row every upload locks while it checks the quota and records itself (files.repository.ts). */
const STORAGE_LOCK_KEY = 'files_storage_lock';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('files', (t) => {
    t.increments('id');
    t.string('disk', 10).notNullable().defaultTo('local');
    // server-generated, relative to the disk's root; never the client's name
    t.string('path', 255).notNullable().unique();
    t.string('original_name', 255).notNullable();
    // detected from the content, not taken from the client
    t.string('mime_type', 100).notNullable();
    t.bigInteger('size_bytes').unsigned().notNullable();
    t.string('sha256', 64).notNullable();
    t.string('owner_type', 40).notNullable();
    t.integer('owner_id').unsigned().notNullable();
    t.integer('branch_id').unsigned().nullable().references('id').inTable('branches').onDelete('RESTRICT');
    t.integer('uploaded_by_user_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('users')
      .onDelete('SET NULL');
    t.integer('uploaded_by_student_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('students')
      .onDelete('SET NULL');
    t.dateTime('created_at').notNullable();
    t.index(['owner_type', 'owner_id']);
    t.index(['branch_id', 'created_at']);
    t.index(['created_at']);
    t.index(['sha256']);
    t.index(['uploaded_by_user_id']);
    t.index(['uploaded_by_student_id']);
  });

  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const exists = await knex('settings').where({ key: STORAGE_LOCK_KEY }).first('id');
  if (!exists)
    await knex('settings').insert({ key: STORAGE_LOCK_KEY, value: null, created_at: now, updated_at: now });
}

export async function down(knex: Knex): Promise<void> {
  await knex('settings').where({ key: STORAGE_LOCK_KEY }).delete();
  await knex('users').update({ profile_photo_file_id: null });
  await knex.schema.dropTableIfExists('files');
}

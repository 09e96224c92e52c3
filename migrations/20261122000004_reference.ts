/** Reference data and settings: option lists, number sequences, order and refund terms. */
import type { Knex } from 'knex';

function timestamps(t: Knex.CreateTableBuilder): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  t.integer('created_by').unsigned().nullable();
  t.integer('updated_by').unsigned().nullable();
}

/** The number formats must exist as rows: numbering locks its format's row (see numbering.service.ts). */
const FORMATS: Record<string, string> = {
  quotation_no_format: 'QUO-{branch}-{yyyy}-{seq:5}',
  order_no_format: 'INV-{branch}-{yyyy}-{seq:5}',
  receipt_no_format: 'REC-{branch}-{yyyy}-{seq:5}',
  refund_no_format: 'REF-{branch}-{yyyy}-{seq:5}',
  student_no_format: 'STU-{branch}-{yyyy}-{seq:5}',
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('options', (t) => {
    t.increments('id');
    t.string('key', 40).notNullable();
    t.string('value', 40).notNullable();
    t.string('label_en', 200).notNullable();
    t.string('label_zh', 200).notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t);
    t.unique(['key', 'value']);
    t.index(['key', 'sort_order']);
  });

  // (document, branch, year) → the next value. branch_id and year are 0 when the format shows no branch or
  // no year: one sequence for all branches, or one that never restarts.
  await knex.schema.createTable('number_sequences', (t) => {
    t.increments('id');
    t.string('document', 20).notNullable();
    t.integer('branch_id').unsigned().notNullable().defaultTo(0);
    t.integer('year').notNullable().defaultTo(0);
    t.integer('next_value').unsigned().notNullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.unique(['document', 'branch_id', 'year']);
  });

  for (const table of ['order_terms', 'refund_terms']) {
    await knex.schema.createTable(table, (t) => {
      t.increments('id');
      t.string('title_en', 200).notNullable();
      t.string('title_zh', 200).notNullable();
      t.text('content_en', 'mediumtext').notNullable();
      t.text('content_zh', 'mediumtext').notNullable();
      t.boolean('is_default').notNullable().defaultTo(false);
      t.boolean('is_active').notNullable().defaultTo(true);
      t.integer('sort_order').notNullable().defaultTo(0);
      timestamps(t);
    });
  }

  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  for (const [key, value] of Object.entries(FORMATS)) {
    const exists = await knex('settings').where({ key }).first('id');
    if (!exists) await knex('settings').insert({ key, value, created_at: now, updated_at: now });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('settings').whereIn('key', Object.keys(FORMATS)).delete();
  for (const table of ['refund_terms', 'order_terms', 'number_sequences', 'options']) {
    await knex.schema.dropTableIfExists(table);
  }
}

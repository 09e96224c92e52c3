import type { Knex } from 'knex';

/**
 * The catalogue and events (domain.md "Products, events, quotation items"): service categories and services,
 * special events and their registrations (one per student and event), quotation items (a school → intake →
 * subject package or a bundle of services). Money is integer minor units (BIGINT) with its currency. Each list's
 * sortable columns get an index `(column, id)` (a child's leading with its parent column), as the list-indexes
 * migration explains; the events' date columns are indexed for the list's date window and the calendar.
 *
 * The new permission module `quotation_items` (decision 0017): a role that held a `quotations.*` key keeps what
 * it could do with quotation items (they were part of quotations until now) by holding the same key of the new
 * module; rolling back removes those keys again.
 */
function timestamps(t: Knex.CreateTableBuilder): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  t.integer('created_by').unsigned().nullable();
  t.integer('updated_by').unsigned().nullable();
}

const ACTIONS = ['view', 'create', 'update', 'delete'] as const;

/** Each role's permission keys, changed by `change` (a role whose keys do not change is not written). */
async function updateRoles(knex: Knex, change: (keys: string[]) => string[]): Promise<void> {
  const roles: { id: number; permissions: string }[] = await knex('roles').select('id', 'permissions');
  for (const role of roles) {
    let keys: string[];
    try {
      const parsed: unknown = JSON.parse(role.permissions);
      keys = Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
    } catch {
      continue;
    }
    const next = change(keys);
    if (next.length !== keys.length || next.some((k, i) => k !== keys[i]))
      await knex('roles')
        .where({ id: role.id })
        .update({ permissions: JSON.stringify(next) });
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('product_categories', (t) => {
    t.increments('id');
    t.string('name_en', 200).notNullable().unique();
    t.string('name_zh', 200).notNullable().unique();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t);
    t.index(['sort_order', 'id']);
  });

  await knex.schema.createTable('products', (t) => {
    t.increments('id');
    t.integer('category_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('product_categories')
      .onDelete('RESTRICT');
    t.string('code', 40).notNullable().unique();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.text('description').nullable();
    t.string('unit', 40).nullable();
    t.bigInteger('price').notNullable();
    t.string('currency', 3).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t);
    t.index(['name_en', 'id']);
    t.index(['name_zh', 'id']);
    t.index(['category_id']);
  });

  await knex.schema.createTable('special_events', (t) => {
    t.increments('id');
    t.string('event_type', 40).notNullable();
    t.string('title_en', 200).notNullable();
    t.string('title_zh', 200).notNullable();
    t.date('reg_start_date').notNullable();
    t.date('reg_end_date').notNullable();
    t.dateTime('event_start').notNullable();
    t.dateTime('event_end').notNullable();
    t.string('venue', 300).nullable();
    t.integer('school_id').unsigned().nullable().references('id').inTable('schools').onDelete('RESTRICT');
    t.integer('capacity').nullable();
    t.bigInteger('fee').nullable();
    t.string('currency', 3).nullable();
    t.text('description').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t);
    t.index(['title_en', 'id']);
    t.index(['title_zh', 'id']);
    // the list's window (a registration period or the event's dates overlapping a range) and the calendar
    t.index(['reg_start_date', 'id']);
    t.index(['reg_end_date', 'id']);
    t.index(['event_start', 'id']);
    t.index(['event_end']);
    t.index(['school_id']);
  });

  await knex.schema.createTable('special_event_registrations', (t) => {
    t.increments('id');
    t.integer('special_event_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('special_events')
      .onDelete('RESTRICT');
    t.integer('student_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('students')
      .onDelete('RESTRICT');
    t.dateTime('registered_at').notNullable();
    t.string('status', 20).notNullable().defaultTo('registered');
    timestamps(t);
    // one registration per student and event (names within MySQL's 64 characters)
    t.unique(['special_event_id', 'student_id'], { indexName: 'event_registrations_event_student_unique' });
    t.index(['special_event_id', 'registered_at', 'id'], 'event_registrations_event_registered_at_index');
    // the places an event's registrations hold, counted under the event's row lock
    t.index(['special_event_id', 'status'], 'event_registrations_event_status_index');
    // a student's registrations (the student's record)
    t.index(['student_id', 'registered_at', 'id'], 'event_registrations_student_registered_at_index');
  });

  await knex.schema.createTable('quotation_items', (t) => {
    t.increments('id');
    t.string('code', 40).notNullable().unique();
    t.string('name_en', 200).notNullable();
    t.string('name_zh', 200).notNullable();
    t.integer('product_id').unsigned().nullable().references('id').inTable('products').onDelete('RESTRICT');
    t.integer('school_id').unsigned().nullable().references('id').inTable('schools').onDelete('RESTRICT');
    t.integer('admission_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('school_admissions')
      .onDelete('RESTRICT');
    t.integer('subject_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('school_subjects')
      .onDelete('RESTRICT');
    t.string('unit', 40).nullable();
    t.bigInteger('unit_price').notNullable();
    t.string('currency', 3).notNullable();
    t.text('description').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    timestamps(t);
    t.index(['name_en', 'id']);
    t.index(['name_zh', 'id']);
    t.index(['product_id']);
    t.index(['school_id']);
    t.index(['admission_id']);
    t.index(['subject_id']);
  });

  await updateRoles(knex, (keys) => {
    const added = ACTIONS.filter((a) => keys.includes(`quotations.${a}`))
      .map((a) => `quotation_items.${a}`)
      .filter((k) => !keys.includes(k));
    return added.length ? [...keys, ...added] : keys;
  });
}

export async function down(knex: Knex): Promise<void> {
  await updateRoles(knex, (keys) => keys.filter((k) => !k.startsWith('quotation_items.')));
  await knex.schema.dropTableIfExists('quotation_items');
  await knex.schema.dropTableIfExists('special_event_registrations');
  await knex.schema.dropTableIfExists('special_events');
  await knex.schema.dropTableIfExists('products');
  await knex.schema.dropTableIfExists('product_categories');
}

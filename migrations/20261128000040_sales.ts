import type { Knex } from 'knex';

/**
 * The sales documents (issue 27, domain.md "Sales documents", decision 0018): quotations and their lines, orders
 * (invoices) and their items. Money is integer minor units (BIGINT, ×100 for every currency) beside the document's
 * one currency; a rate is an integer of basis points. The totals (`subtotal`, `discount_total`, `total`) and each
 * line's `net_amount` are computed by the server (shared/money.ts) in the save's transaction; an order's
 * `paid_amount`, `refunded_amount` and `outstanding` are kept by the receipts and refunds (a later issue) in
 * theirs, and start at 0, 0 and the total.
 *
 * A line names at most one of a service, a quotation item or a special event (the rules check it; the columns are
 * each a foreign key). An order names the quotation it was converted from: unique, so that a second conversion of
 * one quotation can never commit (the rules lock the quotation row first; this is the safety net). The quotation
 * names its order back (`order_id`, no foreign key: the two tables would refer to each other).
 *
 * Each list's sortable columns get an index `(column, id)`; the lists' filters (branch, student, status, currency,
 * dates) one each, a student's documents `(student_id, date, id)` (the student's invoice tab and quotations).
 */
function timestamps(t: Knex.CreateTableBuilder): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  t.integer('created_by').unsigned().nullable();
  t.integer('updated_by').unsigned().nullable();
}

/** The columns of a quotation's line and an order's item (one shape for both). */
function lineColumns(t: Knex.CreateTableBuilder): void {
  t.integer('sort_order').notNullable().defaultTo(0);
  t.integer('product_id').unsigned().nullable().references('id').inTable('products').onDelete('RESTRICT');
  t.integer('quotation_item_id')
    .unsigned()
    .nullable()
    .references('id')
    .inTable('quotation_items')
    .onDelete('RESTRICT');
  t.integer('special_event_id')
    .unsigned()
    .nullable()
    .references('id')
    .inTable('special_events')
    .onDelete('RESTRICT');
  t.string('description', 1000).notNullable();
  t.integer('quantity').notNullable();
  t.string('unit', 40).nullable();
  t.bigInteger('unit_price').notNullable();
  t.integer('discount_rate').notNullable().defaultTo(0);
  t.bigInteger('net_amount').notNullable();
}

/** The columns both documents share (numbering, parties, currency, terms, totals). */
function documentColumns(t: Knex.CreateTableBuilder): void {
  t.integer('branch_id').unsigned().notNullable().references('id').inTable('branches').onDelete('RESTRICT');
  t.integer('company_id').unsigned().nullable().references('id').inTable('companies').onDelete('RESTRICT');
  t.integer('student_id').unsigned().notNullable().references('id').inTable('students').onDelete('RESTRICT');
  t.date('date').notNullable();
  t.string('currency', 3).notNullable();
  t.string('language', 10).notNullable().defaultTo('zh_HK');
  t.integer('order_term_id')
    .unsigned()
    .nullable()
    .references('id')
    .inTable('order_terms')
    .onDelete('RESTRICT');
  t.bigInteger('subtotal').notNullable().defaultTo(0);
  t.bigInteger('discount_total').notNullable().defaultTo(0);
  t.bigInteger('total').notNullable().defaultTo(0);
  t.text('remark').nullable();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('quotations', (t) => {
    t.increments('id');
    t.string('quotation_no', 40).notNullable().unique();
    documentColumns(t);
    t.date('valid_until').nullable();
    t.string('status', 20).notNullable().defaultTo('draft');
    t.integer('order_id').unsigned().nullable();
    // the contract tab
    t.string('contract_no', 40).nullable();
    t.date('contract_date').nullable();
    t.text('contract_terms', 'mediumtext').nullable();
    t.string('signatory_name', 200).nullable();
    t.date('signed_at').nullable();
    t.integer('signed_file_id').unsigned().nullable().references('id').inTable('files').onDelete('SET NULL');
    timestamps(t);
    t.index(['date', 'id']);
    t.index(['valid_until', 'id']);
    t.index(['total', 'id']);
    t.index(['branch_id', 'date', 'id']);
    t.index(['student_id', 'date', 'id']);
    t.index(['status', 'date', 'id']);
    t.index(['currency', 'date', 'id']);
    t.index(['order_term_id']);
    t.index(['company_id']);
    t.index(['order_id']);
  });

  await knex.schema.createTable('quotation_lines', (t) => {
    t.increments('id');
    t.integer('quotation_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('quotations')
      .onDelete('RESTRICT');
    lineColumns(t);
    t.index(['quotation_id', 'sort_order']);
    t.index(['product_id']);
    t.index(['quotation_item_id']);
    t.index(['special_event_id']);
  });

  await knex.schema.createTable('orders', (t) => {
    t.increments('id');
    t.string('order_no', 40).notNullable().unique();
    documentColumns(t);
    t.integer('quotation_id')
      .unsigned()
      .nullable()
      .unique()
      .references('id')
      .inTable('quotations')
      .onDelete('RESTRICT');
    t.date('due_date').nullable();
    t.bigInteger('paid_amount').notNullable().defaultTo(0);
    t.bigInteger('refunded_amount').notNullable().defaultTo(0);
    t.bigInteger('outstanding').notNullable().defaultTo(0);
    t.string('status', 20).notNullable().defaultTo('issued');
    // what unvoid restores
    t.string('status_before_void', 20).nullable();
    t.dateTime('voided_at').nullable();
    t.integer('voided_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('void_reason', 500).nullable();
    timestamps(t);
    t.index(['date', 'id']);
    t.index(['due_date', 'id']);
    t.index(['total', 'id']);
    t.index(['outstanding', 'id']);
    t.index(['branch_id', 'date', 'id']);
    t.index(['student_id', 'date', 'id']);
    t.index(['status', 'date', 'id']);
    t.index(['currency', 'date', 'id']);
    t.index(['order_term_id']);
    t.index(['company_id']);
  });

  await knex.schema.createTable('order_items', (t) => {
    t.increments('id');
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders').onDelete('RESTRICT');
    lineColumns(t);
    t.index(['order_id', 'sort_order']);
    t.index(['product_id']);
    t.index(['quotation_item_id']);
    t.index(['special_event_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('order_items');
  await knex.schema.dropTableIfExists('orders');
  await knex.schema.dropTableIfExists('quotation_lines');
  await knex.schema.dropTableIfExists('quotations');
}

import type { Knex } from 'knex';

/**
 * Receipts, refunds and prepaid balances (issue 28, domain.md "Sales documents" and `student_prepaids`, decision
 * 0020). Money is integer minor units (BIGINT) beside its currency. Receipts and refunds are never deleted: a
 * receipt not approved is cancelled, an approved one unapproved first; a refund pending is cancelled.
 *
 * The order keeps what its money rules read, so that each rule reads one row it has locked (`FOR UPDATE` returns
 * the latest committed values even under MariaDB's REPEATABLE READ, where a plain SUM could read an older
 * snapshot): `receipted_amount` (Σ receipts not cancelled, ≤ total), `refund_amount` (Σ refunds not cancelled,
 * ≤ paid), beside `paid_amount` (Σ approved receipts) and `refunded_amount` (Σ approved refunds).
 *
 * A student's prepaid balance per currency is a row of `student_prepaid_balances` (deposits − receipts drawn on it
 * that are not cancelled − prepaid money refunded), written only under the student's row lock, never below zero (a CHECK as the safety
 * net on both databases).
 */
function timestamps(t: Knex.CreateTableBuilder): void {
  t.dateTime('created_at').notNullable();
  t.dateTime('updated_at').notNullable();
  t.integer('created_by').unsigned().nullable();
  t.integer('updated_by').unsigned().nullable();
}

/** What a receipt and a refund both have: its number, order, student, branch, date, money and approval. */
function moneyColumns(t: Knex.CreateTableBuilder, number: string): void {
  t.increments('id');
  t.string(number, 40).notNullable().unique();
  t.integer('order_id').unsigned().notNullable().references('id').inTable('orders').onDelete('RESTRICT');
  t.integer('student_id').unsigned().notNullable().references('id').inTable('students').onDelete('RESTRICT');
  t.integer('branch_id').unsigned().notNullable().references('id').inTable('branches').onDelete('RESTRICT');
  t.date('date').notNullable();
  t.string('method', 40).nullable();
  t.bigInteger('amount').notNullable();
  t.string('currency', 3).notNullable();
  t.string('reference_no', 100).nullable();
  t.string('status', 20).notNullable();
  t.integer('approved_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
  t.dateTime('approved_at').nullable();
  t.text('remark').nullable();
  timestamps(t);
  t.index(['order_id', 'status']);
  t.index(['date', 'id']);
  t.index(['amount', 'id']);
  t.index(['branch_id', 'date', 'id']);
  t.index(['student_id', 'date', 'id']);
  t.index(['status', 'date', 'id']);
  t.index(['currency', 'date', 'id']);
  t.index(['method', 'date', 'id']);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.bigInteger('receipted_amount').notNullable().defaultTo(0);
    t.bigInteger('refund_amount').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('receipts', (t) => {
    moneyColumns(t, 'receipt_no');
  });

  await knex.schema.createTable('refunds', (t) => {
    moneyColumns(t, 'refund_no');
    t.integer('receipt_id').unsigned().nullable().references('id').inTable('receipts').onDelete('RESTRICT');
    t.integer('refund_term_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('refund_terms')
      .onDelete('RESTRICT');
    t.string('reason', 500).nullable();
    t.index(['receipt_id']);
    t.index(['refund_term_id']);
  });

  await knex.schema.createTable('student_prepaids', (t) => {
    t.increments('id');
    t.integer('student_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('students')
      .onDelete('RESTRICT');
    // `deposit` adds to the balance, `refund` (prepaid money paid back to the student) takes from it
    t.string('kind', 20).notNullable().defaultTo('deposit');
    t.date('date').notNullable();
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('method', 40).nullable();
    t.string('reference_no', 100).nullable();
    t.text('remark').nullable();
    timestamps(t);
    t.index(['student_id', 'date', 'id']);
    t.index(['date', 'id']);
    t.index(['amount', 'id']);
  });

  await knex.schema.createTable('student_prepaid_balances', (t) => {
    t.increments('id');
    t.integer('student_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('students')
      .onDelete('RESTRICT');
    t.string('currency', 3).notNullable();
    t.bigInteger('balance').notNullable().defaultTo(0);
    t.unique(['student_id', 'currency']);
    t.check('?? >= 0', ['balance'], 'student_prepaid_balance_not_negative');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('student_prepaid_balances');
  await knex.schema.dropTableIfExists('student_prepaids');
  await knex.schema.dropTableIfExists('refunds');
  await knex.schema.dropTableIfExists('receipts');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('receipted_amount');
    t.dropColumn('refund_amount');
  });
}

import type { Knex } from 'knex';

/**
 * Mail reminders (issue 30, item 2). `sent_reminders`: one row per reminder sent — its kind, the record it is about
 * (an intake, an application, an order), the recipient (`user:12`, `student:5`) and the due date it reminds of —
 * unique, so that a reminder is sent once even when two runs overlap or a process restarts (the row is written
 * before the mail goes, and removed again when the mail fails). `reminder_runs`: one row per scheduled run (its
 * Hong Kong due time, unique), so that of two instances reaching the same run only one does the work, and the
 * settings screen can say when the last one ran and what it sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sent_reminders', (t) => {
    t.increments('id');
    t.string('kind', 40).notNullable();
    t.integer('record_id').unsigned().notNullable();
    t.string('recipient', 60).notNullable();
    t.date('due_date').notNullable();
    t.string('email', 191).notNullable();
    t.dateTime('sent_at').notNullable();
    t.unique(['kind', 'record_id', 'recipient', 'due_date']);
    t.index(['sent_at']);
  });
  await knex.schema.createTable('reminder_runs', (t) => {
    t.increments('id');
    t.dateTime('due_at').notNullable().unique();
    t.dateTime('started_at').notNullable();
    t.dateTime('finished_at').nullable();
    t.integer('sent').notNullable().defaultTo(0);
    t.integer('skipped').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    /** why a run sent nothing at all (no mail settings) */
    t.string('note', 200).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('reminder_runs');
  await knex.schema.dropTableIfExists('sent_reminders');
}

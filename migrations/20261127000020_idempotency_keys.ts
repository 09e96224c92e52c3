import type { Knex } from 'knex';

/**
 * Idempotency keys (quality.md 25; issue 28 item 4): the first answer to a POST sent with an `Idempotency-Key`,
 * kept 24 hours in the database, so a double click, a retry after a lost answer, or the same request reaching
 * another instance replays it instead of doing the work again. One key per caller (`scope`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.increments('id');
    /** `user:<id>` or `student:<id>`: a key is the caller's own */
    t.string('scope', 40).notNullable();
    t.string('idempotency_key', 255).notNullable();
    /** sha256 of method, path and body: the same key with another request is refused */
    t.string('request_hash', 64).notNullable();
    /** `pending` while the first request runs, then `done` with its answer */
    t.string('status', 10).notNullable();
    t.integer('response_status').nullable();
    t.text('response_body', 'mediumtext').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('expires_at').notNullable();
    t.unique(['scope', 'idempotency_key']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}

/** Security fixes: columns sized for what they hold. */
import type { Knex } from 'knex';

/**
 * An audit row keeps the before and after of a change, each value cut at 2,000 characters: with 4-byte
 * characters and several fields (terms in two languages) that passes MySQL's 64 KB TEXT, so the column is
 * MEDIUMTEXT there (SQLite's TEXT has no such limit).
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') {
    await knex.raw('ALTER TABLE audit_logs MODIFY changes MEDIUMTEXT NULL');
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') {
    await knex.raw('ALTER TABLE audit_logs MODIFY changes TEXT NULL');
  }
}

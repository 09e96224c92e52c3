/** Reference data and settings: option lists, number sequences, order and refund terms. */
import type { Knex } from 'knex';

export async function up(_knex: Knex): Promise<void> {}

export async function down(_knex: Knex): Promise<void> {}

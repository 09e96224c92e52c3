import type { Knex } from 'knex';

/**
 * The sums of the money reports and the dashboard read on an index alone (issue 29, "Done when": the bench's
 * `money` part, scripts/bench-money.ts). Every one of those reads takes a range of the documents' own dates, maybe
 * a branch, a status and a currency, and sums money per currency: the invoices report's totals and groups (by
 * branch, status, month, currency), the dashboard's invoiced and outstanding this month; the receipts report's and
 * the dashboard's received. With the date first and every column they read after it, each is a range of one index
 * (`Using index`), never a read of the rows themselves.
 *
 * Measured on MariaDB with 100,000 invoices over three years and 115,000 receipts: the invoices report's totals
 * over the three years read the table (`orders_date_id_index` was not used, 100,000 rows, 128 ms in the app); the
 * dashboard's invoiced read 2,554 rows of this month through `orders_date_id_index` and then each row by its key.
 * With these, both are ranges of the index alone.
 */
const INDEXES: { table: string; name: string; columns: string[] }[] = [
  {
    table: 'orders',
    name: 'orders_money_sums_index',
    columns: ['date', 'branch_id', 'currency', 'status', 'total', 'paid_amount', 'outstanding'],
  },
  {
    table: 'receipts',
    name: 'receipts_money_sums_index',
    columns: ['date', 'branch_id', 'currency', 'status', 'method', 'amount'],
  },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, name, columns } of INDEXES)
    await knex.schema.alterTable(table, (t) => {
      t.index(columns, name);
    });
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, name, columns } of INDEXES)
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
    });
}

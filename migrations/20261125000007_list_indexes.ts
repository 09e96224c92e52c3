import type { Knex } from 'knex';

/**
 * An index under every sortable column of every list, so that a page is read down an index instead of a full
 * scan and a filesort (issue 11, deliverable 7). A list orders by `(column, id)`; a resource with fixed columns
 * (an option list: `key`) filters by them first, so its index leads with them; the areas list always filters by
 * `parent_id` (the regions, or the districts of one region). A column unique on its own needs none: the list
 * sorts by it without the `id` tie-break and its unique index serves (`companies.code`, `branches.code`,
 * `roles.name`, `users.email`, `holidays.date`, `options (key, value)`), as does the primary key (`id`).
 * `options (key, sort_order)` and `audit_logs (created_at)` exist already: a secondary index holds the primary
 * key after its columns (InnoDB; SQLite's rowid), so they serve `…, id` as they are.
 */
const INDEXES: Record<string, string[][]> = {
  companies: [['name_en'], ['name_zh'], ['created_at']],
  branches: [['name_en'], ['name_zh'], ['created_at']],
  roles: [['created_at']],
  users: [['name'], ['created_at'], ['last_login_at']],
  holidays: [['name_en'], ['name_zh']],
  areas: [
    ['parent_id', 'sort_order'],
    ['parent_id', 'name_en'],
    ['parent_id', 'name_zh'],
  ],
  options: [
    ['key', 'label_en'],
    ['key', 'label_zh'],
  ],
  order_terms: [['sort_order'], ['title_en'], ['title_zh'], ['updated_at']],
  refund_terms: [['sort_order'], ['title_en'], ['title_zh'], ['updated_at']],
  audit_logs: [['action'], ['entity']],
  student_categories: [['sort_order'], ['name_en'], ['name_zh']],
};

function indexName(table: string, columns: string[]): string {
  return `${table}_${columns.join('_')}_id_list_index`;
}

export async function up(knex: Knex): Promise<void> {
  for (const [table, sets] of Object.entries(INDEXES)) {
    if (!(await knex.schema.hasTable(table))) continue;
    await knex.schema.alterTable(table, (t) => {
      for (const columns of sets) t.index([...columns, 'id'], indexName(table, columns));
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, sets] of Object.entries(INDEXES)) {
    if (!(await knex.schema.hasTable(table))) continue;
    await knex.schema.alterTable(table, (t) => {
      for (const columns of sets) t.dropIndex([...columns, 'id'], indexName(table, columns));
    });
  }
}

import type { Knex } from 'knex';

/**
 * The students list's filter + sort combinations on indexes (issue 25, item 2; decision 0014 "Paging").
 *
 * A list orders by `(column, id)` and reads a page's ids on an index alone (the deferred join): that needs an index
 * beginning with the columns the list filters by equality and going on with the sort column. Branch-scoped staff see
 * one branch (`branch_id` is always there for them), and the status is the list's usual filter, so for each sortable
 * column of the students list:
 * - `(branch_id, status, column, id)`: a branch's students in one status, in that order (and the capped count of
 *   branch + status, a range of that index);
 * - `(branch_id, column, id)`: a branch's students in that order (`student_no` and `created_at` have theirs already:
 *   `students_branch_id_student_no_index`, `students_branch_id_created_at_index`);
 * - `(status, created_at, id)`: every branch's students in one status, newest first (the default sort).
 * Measured on MariaDB at 200,000 students: without them, `branch_id = ? and status = ? order by surname_en desc`
 * intersected two indexes and sorted 6,700 rows read from the table; with them every combination is a `ref` on
 * its index, no filesort, the page's ids `Using index`.
 * (InnoDB and SQLite keep the primary key after a secondary index's columns: `id` at the end costs nothing and
 * makes the tie-break explicit.)
 */
const SORTS = ['surname_en', 'given_name_en', 'name_zh', 'created_at', 'student_no', 'info_submitted_at'];
const HAVE_BRANCH_INDEX = new Set(['student_no', 'created_at']);

function indexes(): { name: string; columns: string[] }[] {
  const out: { name: string; columns: string[] }[] = [];
  for (const column of SORTS) {
    out.push({
      name: `students_branch_status_${column}_list_index`,
      columns: ['branch_id', 'status', column, 'id'],
    });
    if (!HAVE_BRANCH_INDEX.has(column))
      out.push({ name: `students_branch_${column}_list_index`, columns: ['branch_id', column, 'id'] });
  }
  out.push({ name: 'students_status_created_at_list_index', columns: ['status', 'created_at', 'id'] });
  return out;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    for (const { name, columns } of indexes()) t.index(columns, name);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    for (const { name, columns } of indexes()) t.dropIndex(columns, name);
  });
}

import type { Knex } from 'knex';
import { declaredTermColumns, searchTerms } from '../server/src/db/search';

/**
 * Search on indexes (issue 25, item 2): the search-terms table and its index, filled for the records that exist
 * (students), and an index under each column the students list filters by, so that a filter's capped count reads
 * an index rather than the table.
 *
 * `search_terms (entity, record_id, term)`: `entity` is the record's table, `term` one term of its searchable
 * columns (server/src/db/search.ts `termsOf`), compared as binary (code points: the terms are case-folded when
 * written) so that a prefix is one index range on SQLite, MariaDB and MySQL alike. The primary key serves a
 * record's own terms (rewritten with it); `(entity, term, record_id)` serves a search word.
 */
const FILTER_INDEXES = ['status', 'nationality'];
/** on MariaDB / MySQL the index of each column's foreign key serves already (and a second could replace it) */
const FOREIGN_KEY_COLUMNS = ['category_id', 'consultant_user_id'];

function filterColumns(knex: Knex): string[] {
  return knex.client.config.client === 'mysql2'
    ? FILTER_INDEXES
    : [...FILTER_INDEXES, ...FOREIGN_KEY_COLUMNS];
}

function filterIndex(column: string): string {
  return `students_${column}_id_filter_index`;
}

/**
 * A student number begins with its branch's code (`STU-KL1-2026-00012`): a branch's students sorted by number would
 * walk past every other branch's numbers on `student_no`'s own index
 */
const BRANCH_NUMBER_INDEX = 'students_branch_id_student_no_index';

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('search_terms', (t) => {
    const entity = t.string('entity', 40).notNullable();
    t.integer('record_id').unsigned().notNullable();
    const term = t.string('term', 64).notNullable();
    if (mysql) {
      entity.collate('utf8mb4_bin');
      term.collate('utf8mb4_bin');
    }
    t.primary(['entity', 'record_id', 'term']);
    t.index(['entity', 'term', 'record_id'], 'search_terms_entity_term_record_index');
  });
  await knex.schema.alterTable('students', (t) => {
    for (const column of filterColumns(knex)) t.index([column, 'id'], filterIndex(column));
    t.index(['branch_id', 'student_no'], BRANCH_NUMBER_INDEX);
  });
  // the students there are (in batches of 1,000)
  const columns = declaredTermColumns('students');
  if (columns) await searchTerms.rebuild(knex, 'students', columns);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    for (const column of filterColumns(knex)) t.dropIndex([column, 'id'], filterIndex(column));
    t.dropIndex(['branch_id', 'student_no'], BRANCH_NUMBER_INDEX);
  });
  await knex.schema.dropTableIfExists('search_terms');
}

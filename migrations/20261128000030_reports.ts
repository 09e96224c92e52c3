import type { Knex } from 'knex';

/**
 * The reports (issue 29, decision 0019).
 *
 * Permissions: the `reports` module has a key per report group (`reports.students`, `reports.schools`,
 * `reports.orders`, `reports.calendar`) and `reports.export`, and no view / create / update / delete. A role or an
 * API token that held `reports.view` could open every report: it gets the four group keys in its place, so nobody
 * loses a report; `reports.create`, `reports.update` and `reports.delete` meant nothing and go. Rolling back gives
 * `reports.view` (in the place of the first group key) to whoever holds a group key, and removes the group keys.
 *
 * An index `(branch_id, created_at)` on the students: a branch's new students in a range (the students report's
 * dates, the dashboard's new students per month) are read on it, not past every other branch's.
 */

const GROUPS = ['reports.students', 'reports.schools', 'reports.orders', 'reports.calendar'];
const MEANINGLESS = ['reports.create', 'reports.update', 'reports.delete'];
const BRANCH_CREATED_INDEX = 'students_branch_id_created_at_index';

/** Each row's JSON list of keys in `column`, changed by `change` (a row whose keys do not change is not written). */
async function updateKeys(
  knex: Knex,
  table: 'roles' | 'api_tokens',
  column: 'permissions' | 'abilities',
  change: (keys: string[]) => string[],
): Promise<void> {
  const rows: { id: number; keys: string }[] = await knex(table).select('id', `${column} as keys`);
  for (const row of rows) {
    let keys: string[];
    try {
      const parsed: unknown = JSON.parse(row.keys);
      if (!Array.isArray(parsed)) continue;
      keys = parsed.filter((k): k is string => typeof k === 'string');
    } catch {
      continue;
    }
    const next = change(keys);
    if (next.length !== keys.length || next.some((k, i) => k !== keys[i]))
      await knex(table)
        .where({ id: row.id })
        .update({ [column]: JSON.stringify(next) });
  }
}

/** `reports.view` replaced in its place by the group keys not held yet; the keys that meant nothing dropped. */
export function toGroupKeys(keys: readonly string[]): string[] {
  const out: string[] = [];
  for (const key of keys) {
    if (key === 'reports.view') out.push(...GROUPS.filter((g) => !keys.includes(g) && !out.includes(g)));
    else if (!MEANINGLESS.includes(key) && !out.includes(key)) out.push(key);
  }
  return out;
}

/** The group keys replaced by `reports.view`, in the place of the first one. */
export function toViewKey(keys: readonly string[]): string[] {
  const out: string[] = [];
  for (const key of keys) {
    if (GROUPS.includes(key)) {
      if (!out.includes('reports.view') && !keys.includes('reports.view')) out.push('reports.view');
    } else if (!out.includes(key)) out.push(key);
  }
  return out;
}

export async function up(knex: Knex): Promise<void> {
  await updateKeys(knex, 'roles', 'permissions', toGroupKeys);
  await updateKeys(knex, 'api_tokens', 'abilities', toGroupKeys);
  await knex.schema.alterTable('students', (t) => {
    t.index(['branch_id', 'created_at'], BRANCH_CREATED_INDEX);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    t.dropIndex(['branch_id', 'created_at'], BRANCH_CREATED_INDEX);
  });
  await updateKeys(knex, 'roles', 'permissions', toViewKey);
  await updateKeys(knex, 'api_tokens', 'abilities', toViewKey);
}

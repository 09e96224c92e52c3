import type { Knex } from 'knex';

/**
 * The one text search of the app: "contains", case-insensitive as the columns' collation is (utf8mb4 on MySQL,
 * ASCII NOCASE on SQLite), with `%`, `_` and `\` in the typed text matched as themselves.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Adds "any of these columns contains the pattern" (from `containsPattern`) to a `where` group as OR terms. */
export function orWhereContains(where: Knex.QueryBuilder, columns: readonly string[], pattern: string): void {
  for (const column of columns) where.orWhereRaw('?? like ? escape ?', [column, pattern, '\\']);
}

import { displayName } from '../../../shared/resources/derive';
import type { Trx } from '../db/knex';
import type { LookupRelation, Row } from './resource';
import { keptRowsByKey } from './names-cache';

/** A record's name in `language` from its label columns (the other language's when empty: shared displayName). */
export function nameIn(
  row: Row,
  label: { en: readonly string[]; zh_HK: readonly string[] },
  language: 'en' | 'zh_HK',
): string {
  return displayName({ display: label }, row, language);
}

/**
 * Every row gets the names of the records it refers to, in `language`: from the names kept per table
 * (names-cache.ts), the ones not kept yet with one `IN` query per relation for the whole page (never one per row).
 * A reference to a missing record is named null.
 */
export async function resolveLookups(
  db: Trx,
  relations: readonly LookupRelation[],
  rows: Row[],
  language: 'en' | 'zh_HK',
): Promise<Row[]> {
  const names = await Promise.all(
    relations.map(async (relation) => {
      const key = relation.key ?? 'id';
      const values = [
        ...new Set(rows.map((row) => row[relation.field]).filter((v) => v !== null && v !== undefined)),
      ];
      const found = new Map<unknown, string>();
      if (!values.length) return found;
      const columns = [...new Set([...relation.label.en, ...relation.label.zh_HK])];
      const related = await keptRowsByKey(
        db,
        { table: relation.table, key, columns, where: relation.where },
        values,
      );
      for (const row of related) {
        found.set(row[key], nameIn(row, relation.label, language));
      }
      return found;
    }),
  );
  // the rows are the caller's own copies (the service's response rows): named in place
  for (const row of rows) {
    relations.forEach((relation, i) => {
      const value = row[relation.field];
      row[relation.as] = value === null || value === undefined ? null : (names[i].get(value) ?? null);
    });
  }
  return rows;
}

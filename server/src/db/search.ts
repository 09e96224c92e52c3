import type { Knex } from 'knex';
import type { ResourceDeclaration, SearchKind } from '../../../shared/resources/declaration';
import { DECLARATIONS } from '../../../shared/resources';
import { isMysql, type Trx } from './knex';

/**
 * The one text search of the app (README "What a search finds"). A search `q` is cut into words
 * (`searchWords`); a record is found when it has every word. How a word is matched depends on the size its table
 * reaches, as its declaration says:
 * - a resource with `searchTerms` (students) matches each word on the search-terms table: the terms of its
 *   searchable columns (`termsOf`), kept in the transaction of every write, each word a prefix of one of them,
 *   read on the index `(entity, term, record_id)` — never a scan of the records;
 * - a small table (reference data, settings) looks for each word anywhere in its searchable columns (`LIKE
 *   '%word%'`, case-insensitive as the columns' collation is), which a scan of a few hundred rows affords.
 * `%`, `_` and `\` in the typed text are matched as themselves either way.
 */

/** The most words of a search used (more narrow no further in practice, and each costs a subquery). */
const MAX_WORDS = 8;
/** The longest term kept (`search_terms.term` is VARCHAR(64)); a longer word is matched by its first 64. */
export const TERM_MAX = 64;
/** The most characters of a Chinese, Japanese or Korean run whose suffixes are kept. */
const CJK_RUN_MAX = 32;
/** The most terms one record keeps (a long description must not fill the table). */
const TERMS_PER_RECORD = 400;

const CJK = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** What separates the words of a name or of a search (white space, commas, the middle dots of names). */
const WORD_SEPARATORS = /[\s,，、;；·・/]+/u;
/** What separates the groups of an identifier as written (`+852 9123-4567`, `AB (123)`). */
const GROUP_SEPARATORS = /[\s\-/()]+/;
/** Punctuation inside a word that also separates its parts (`O'Brien`, `Jean-Luc`, `St.John`). */
const INNER_PUNCTUATION = /[-'’.]+/;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/** Case-folded, compatibility-normalised text (full-width letters and digits as ASCII). */
function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** At most `TERM_MAX` characters (code points, as the column counts them). */
function clip(text: string): string {
  const chars = Array.from(text);
  return chars.length > TERM_MAX ? chars.slice(0, TERM_MAX).join('') : text;
}

/** Every suffix of `text` (by character): a prefix match on the suffixes is a match anywhere in `text`. */
function suffixes(text: string): string[] {
  const chars = Array.from(text).slice(0, CJK_RUN_MAX);
  return chars.map((_, i) => chars.slice(i).join(''));
}

function identifierTerms(value: string): string[] {
  const folded = fold(value).trim();
  if (!folded) return [];
  const out = [folded.replace(/\s+/g, '')];
  const groups = folded.split(GROUP_SEPARATORS).filter(Boolean);
  if (groups.length > 1) out.push(...groups);
  if (!folded.includes('@')) {
    const digits = folded.replace(/\D/g, '');
    if (digits.length >= 3) out.push(digits);
    // a phone's national number without its country code (`+852 9123 4567` → 91234567)
    if (groups.length > 1 && /^(\+|00)\d{1,4}$/.test(groups[0])) {
      const national = groups.slice(1).join('').replace(/\D/g, '');
      if (national.length >= 3) out.push(national);
    }
  }
  return out;
}

function nameTerms(value: string): string[] {
  const tokens = fold(value)
    .split(WORD_SEPARATORS)
    .map((token) => token.replace(EDGE_PUNCTUATION, ''))
    .filter(Boolean);
  const out: string[] = [];
  const cjkTokens: string[] = [];
  for (const token of tokens) {
    if (CJK.test(token)) {
      cjkTokens.push(token);
      out.push(...suffixes(token));
      continue;
    }
    out.push(token);
    const parts = token.split(INNER_PUNCTUATION).filter(Boolean);
    if (parts.length > 1) out.push(...parts);
  }
  // a CJK name written with spaces (`김 민준`) is found written without them too
  if (cjkTokens.length > 1) out.push(...suffixes(cjkTokens.join('')));
  return out;
}

/** The terms of one column's value: what a search word must be a prefix of to find it. */
export function termsOf(kind: SearchKind, value: unknown): string[] {
  if (typeof value !== 'string' || !value.trim()) return [];
  const terms = kind === 'identifier' ? identifierTerms(value) : nameTerms(value);
  return [...new Set(terms.map(clip).filter(Boolean))];
}

/**
 * A record's terms, from its searchable columns (column → kind). A term that begins another of the record's is left
 * out (`chan` beside `chanel`, a phone's first group beside its digits): a word it would find, the longer one finds.
 */
export function termsOfRow(columns: Readonly<Record<string, SearchKind>>, row: Record<string, unknown>) {
  const all = new Set<string>();
  for (const [column, kind] of Object.entries(columns))
    for (const term of termsOf(kind, row[column])) all.add(term);
  // in sorted order the terms beginning with a term come right after it
  const sorted = [...all].sort();
  return sorted.filter((term, i) => !sorted[i + 1]?.startsWith(term)).slice(0, TERMS_PER_RECORD);
}

/** The words of a search as typed: split on white space and commas, at most 8. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return [...new Set(q.split(WORD_SEPARATORS).filter(Boolean))].slice(0, MAX_WORDS);
}

/**
 * A search word as the terms are written: case-folded, at most 64 characters; a word of digits and separators only
 * (`9123-4567`) is its digits (with a leading `+`).
 */
export function termWord(word: string): string {
  const folded = fold(word);
  const digitsOnly = /\d/.test(folded) && /^\+?[\d\-.()]+$/.test(folded) && /[-.()]/.test(folded);
  return clip(digitsOnly ? folded.replace(/(?!^\+)[^\d]/g, '') : folded);
}

/**
 * The terms a word is a prefix of, as a range `[word, end)` in code-point order (the column's binary collation):
 * an index range on both databases, where `LIKE` would need escaping and, on SQLite, a case-insensitive column.
 */
export function prefixRange(word: string): [string, string | null] {
  const chars = Array.from(word);
  while (chars.length) {
    let next = chars[chars.length - 1].codePointAt(0)! + 1;
    if (next === 0xd800) next = 0xe000;
    if (next <= 0x10ffff) {
      chars[chars.length - 1] = String.fromCodePoint(next);
      return [word, chars.join('')];
    }
    chars.pop();
  }
  return [word, null];
}

/** `idColumn in (the records of entity with a term starting with word)`: one word of a search, on its index. */
export function whereHasWord(qb: Knex.QueryBuilder, entity: string, idColumn: string, word: string): void {
  const [from, to] = prefixRange(termWord(word));
  qb.whereIn(idColumn, function (this: Knex.QueryBuilder) {
    this.select('search_terms.record_id')
      .from('search_terms')
      .where('search_terms.entity', entity)
      .where('search_terms.term', '>=', from);
    if (to !== null) this.where('search_terms.term', '<', to);
  });
}

/** How narrow a word is likely to be: its length, a Chinese, Japanese or Korean character weighing three. */
function narrowness(word: string): number {
  return Array.from(word).reduce((n, c) => n + (CJK.test(c) ? 3 : 1), 0);
}

/**
 * The records of `entity` having every word, once each (`select distinct record_id …`): the narrowest word's range
 * read on the index `(entity, term, record_id)`, each other word checked for each of its records on the primary
 * key `(entity, record_id, term)`.
 */
export function matchingRecords(db: Trx, entity: string, words: readonly string[]): Knex.QueryBuilder {
  const [first, ...others] = words.map(termWord).sort((a, b) => narrowness(b) - narrowness(a));
  const [from, to] = prefixRange(first);
  const qb = db('search_terms as t0')
    .distinct('t0.record_id')
    .where('t0.entity', entity)
    .where('t0.term', '>=', from);
  if (to !== null) qb.where('t0.term', '<', to);
  others.forEach((word, i) => {
    const [lo, hi] = prefixRange(word);
    const alias = `t${i + 1}`;
    qb.whereExists(function (this: Knex.QueryBuilder) {
      // the entity as a constant (not `t0.entity`): MariaDB then reads the record's terms in the word's range only
      this.select(db.raw('1'))
        .from(`search_terms as ${alias}`)
        .where(`${alias}.entity`, entity)
        .whereRaw('?? = ??', [`${alias}.record_id`, 't0.record_id'])
        .where(`${alias}.term`, '>=', lo);
      if (hi !== null) this.where(`${alias}.term`, '<', hi);
    });
  });
  return qb;
}

/**
 * The rows of `table` having every word, read from the search terms first: `from (the matching records) as matched`
 * joined to `table` in that order (`STRAIGHT_JOIN` on MariaDB / MySQL, `CROSS JOIN` on SQLite, which both keep the
 * order written). A count's query: left to choose, MariaDB may read the whole table's index and look each row up
 * in the matches (200,000 reads for a count of 1,500). The caller adds its conditions on `table` and selects
 * `table`'s columns.
 */
export function fromMatching(db: Trx, table: string, words: readonly string[]): Knex.QueryBuilder {
  const join = isMysql(db) ? 'straight_join' : 'cross join';
  return db
    .from(matchingRecords(db, table, words).as('matched'))
    .joinRaw(`${join} ?? on ?? = ??`, [table, `${table}.id`, 'matched.record_id']);
}

/**
 * `idColumn` is one of the records having every word — kept out of a semi-join (`… or id is null`, never true), so
 * that MariaDB walks the list's sort index and looks each row up in the matches (read once), stopping at the page's
 * end: for a search with many matches, where reading them all and sorting them would cost more.
 */
export function whereAmongMatches(
  qb: Knex.QueryBuilder,
  db: Trx,
  entity: string,
  idColumn: string,
  words: readonly string[],
): void {
  qb.where((w) => {
    w.whereIn(idColumn, matchingRecords(db, entity, words)).orWhereNull(idColumn);
  });
}

/**
 * "contains", case-insensitive as the columns' collation is (utf8mb4 on MySQL, ASCII NOCASE on SQLite), with
 * `%`, `_` and `\` in the typed text matched as themselves: a word's match on a small table.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Adds "any of these columns contains the pattern" (from `containsPattern`) to a `where` group as OR terms. */
export function orWhereContains(where: Knex.QueryBuilder, columns: readonly string[], pattern: string): void {
  for (const column of columns) where.orWhereRaw('?? like ? escape ?', [column, pattern, '\\']);
}

// ---- the search-terms table ----

/** A declaration's searchable columns and what each holds. */
export function searchColumnsOf(decl: ResourceDeclaration): Record<string, SearchKind> {
  const columns: Record<string, SearchKind> = {};
  for (const [name, field] of Object.entries(decl.fields))
    if (field.searchable) columns[name] = field.searchable;
  return columns;
}

/** The term columns of the declared resource stored in `table` with `searchTerms`, or null. */
export function declaredTermColumns(table: string): Readonly<Record<string, SearchKind>> | null {
  const decl = DECLARATIONS.find((d) => d.table === table && d.searchTerms);
  return decl ? searchColumnsOf(decl) : null;
}

/**
 * Rows per multi-row insert (3 bindings each: well under either database's limit). SQLite's insert of several rows is
 * a compound SELECT (knex), which SQLite refuses beyond 500 terms ("too many terms in compound SELECT").
 */
const INSERT_CHUNK = 400;

async function insertTerms(db: Trx, rows: { entity: string; record_id: number; term: string }[]) {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await db('search_terms').insert(rows.slice(i, i + INSERT_CHUNK));
}

/**
 * The search-terms table (`search_terms`): each record's terms under its entity (its table), kept by the writes of
 * its records in their own transaction (the generic repository's insert, update and delete; any other writer of
 * such a table calls `refreshDeclared`).
 */
export const searchTerms = {
  /** Replaces the terms of the records `ids` of `entity` with those of their columns as stored now. */
  async refresh(
    db: Trx,
    entity: string,
    columns: Readonly<Record<string, SearchKind>>,
    ids: readonly number[],
  ): Promise<void> {
    if (!ids.length) return;
    const rows: Record<string, unknown>[] = await db(entity)
      .whereIn('id', [...ids])
      .select(['id', ...Object.keys(columns)]);
    await db('search_terms')
      .where('entity', entity)
      .whereIn('record_id', [...ids])
      .delete();
    await insertTerms(
      db,
      rows.flatMap((row) =>
        termsOfRow(columns, row).map((term) => ({ entity, record_id: Number(row.id), term })),
      ),
    );
  },

  /** `refresh` for a table whose declared resource has `searchTerms` (a write outside the generic repository). */
  async refreshDeclared(db: Trx, table: string, ids: readonly number[]): Promise<void> {
    const columns = declaredTermColumns(table);
    if (columns) await searchTerms.refresh(db, table, columns, ids);
  },

  /** Whether a write of `data` to `table` changes a column its declared terms come from. */
  touchesDeclared(table: string, data: Readonly<Record<string, unknown>>): boolean {
    const columns = declaredTermColumns(table);
    return columns !== null && Object.keys(data).some((column) => column in columns);
  },

  /** Removes the terms of the records `ids` of `entity` (deleted). */
  async drop(db: Trx, entity: string, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await db('search_terms')
      .where('entity', entity)
      .whereIn('record_id', [...ids])
      .delete();
  },

  /**
   * Every record of `entity` gets its terms anew, `batch` records at a time in id order, each batch in a
   * transaction of its own (a migration's backfill; the bench's fill). Answers the records done.
   */
  async rebuild(
    db: Knex,
    entity: string,
    columns: Readonly<Record<string, SearchKind>>,
    batch = 1_000,
  ): Promise<number> {
    let after = 0;
    let done = 0;
    for (;;) {
      const ids: number[] = (
        await db(entity).where('id', '>', after).orderBy('id').limit(batch).select('id')
      ).map((row: { id: number }) => Number(row.id));
      if (!ids.length) return done;
      await db.transaction((trx) => searchTerms.refresh(trx, entity, columns, ids));
      done += ids.length;
      after = ids[ids.length - 1];
    }
  },
};

import type { Knex } from 'knex';
import { changeEvents } from '../lib/change-events';
import { guardedQuery, type Trx } from './knex';
import { prefixRange, termWord } from './search';

/**
 * The records having every word of a search, from each word's records kept in memory (decision 0014, "Each word's
 * records, kept"): a word is read once on the terms' index — the records with a term starting with it, sorted — and
 * the records having every word are the intersection of those lists. Staff type the same surnames and given names
 * all day ("chan", "wong", "tai"): at 200,000 students each such word is 8,000–15,000 records, which the database
 * joined for every search (20–45 ms); from kept lists the join is a merge of two arrays.
 *
 * Kept as the other caches of derived reads are (decision 0013): any change to the terms of any record, on any
 * instance, makes every list unusable at once; a list read across a change is answered but not kept; nothing is
 * answered from or kept while the caches are suspended, nor inside a transaction (it may have written terms itself).
 * The lists hold record ids only, before any scope or filter: what a caller may see is decided after, on the rows.
 */

/** A word with more records than this is left to the database (a letter or two: "c", "ch"). */
export const POSTING_MAX = 50_000;
/** The most record ids kept in all (4 bytes each): the least recently used lists go first. */
const KEPT_IDS_MAX = 2_000_000;

interface Posting {
  generation: string;
  /** the records with a term starting with the word, ascending, once each; null: more than `POSTING_MAX` */
  ids: Uint32Array | null;
}

/** per database (a test process has several): per entity and word, least recently used first */
const kept = new WeakMap<object, Map<string, Posting>>();
const keptIds = new WeakMap<object, { count: number }>();

const TABLES = ['search_terms'];

async function readPosting(
  db: Trx,
  entity: string,
  word: string,
  signal?: AbortSignal,
): Promise<Uint32Array | null> {
  const [from, to] = prefixRange(word);
  const qb = db('search_terms').where('entity', entity).where('term', '>=', from);
  if (to !== null) qb.where('term', '<', to);
  // a record may have several terms starting with the word: read one more row than the most ids kept
  qb.select('record_id').limit(POSTING_MAX * 2 + 1);
  const rows = await guardedQuery<{ record_id: number | string }[]>(db, qb, signal);
  const ids = Uint32Array.from(rows, (row) => Number(row.record_id)).sort();
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]) ids[n++] = ids[i];
  if (n > POSTING_MAX || rows.length > POSTING_MAX * 2) return null;
  return ids.slice(0, n);
}

/** The records of `entity` with a term starting with `word` (a term word), from what is kept when it may be. */
async function posting(
  db: Trx,
  entity: string,
  word: string,
  signal?: AbortSignal,
): Promise<Uint32Array | null> {
  const usable = !(db as Knex.Transaction).isTransaction && changeEvents.cachesUsable();
  if (!usable) return readPosting(db, entity, word, signal);
  let lists = kept.get(db);
  if (!lists) kept.set(db, (lists = new Map()));
  let total = keptIds.get(db);
  if (!total) keptIds.set(db, (total = { count: 0 }));
  const key = `${entity}\u0000${word}`;
  const generation = changeEvents.generation(TABLES);
  const hit = lists.get(key);
  if (hit) {
    lists.delete(key);
    total.count -= hit.ids?.length ?? 0;
    if (hit.generation === generation) {
      lists.set(key, hit);
      total.count += hit.ids?.length ?? 0;
      return hit.ids;
    }
  }
  const ids = await readPosting(db, entity, word, signal);
  if (changeEvents.generation(TABLES) === generation && changeEvents.cachesUsable()) {
    const old = lists.get(key);
    if (old) total.count -= old.ids?.length ?? 0;
    lists.delete(key);
    lists.set(key, { generation, ids });
    total.count += ids?.length ?? 0;
    for (const [oldest, list] of lists) {
      if (total.count <= KEPT_IDS_MAX) break;
      lists.delete(oldest);
      total.count -= list.ids?.length ?? 0;
    }
  }
  return ids;
}

/** The ids in every one of `lists` (each ascending, once each), ascending. */
export function intersect(lists: readonly Uint32Array[]): number[] {
  const [first, ...others] = [...lists].sort((a, b) => a.length - b.length);
  if (!first) return [];
  const at = others.map(() => 0);
  const out: number[] = [];
  outer: for (const id of first) {
    for (let k = 0; k < others.length; k++) {
      const list = others[k];
      let i = at[k];
      while (i < list.length && list[i] < id) i++;
      at[k] = i;
      if (i === list.length) break outer;
      if (list[i] !== id) continue outer;
    }
    out.push(id);
  }
  return out;
}

/**
 * The records of `entity` having every one of `words` (a search's words), ascending; null when a word has more
 * than `POSTING_MAX` records, which the database then matches (db/search.ts `matchingRecords`).
 */
export async function matchesFromPostings(
  db: Trx,
  entity: string,
  words: readonly string[],
  signal?: AbortSignal,
): Promise<number[] | null> {
  const lists: Uint32Array[] = [];
  for (const word of new Set(words.map(termWord))) {
    const ids = await posting(db, entity, word, signal);
    if (!ids) return null;
    if (!ids.length) return [];
    lists.push(ids);
  }
  return intersect(lists);
}

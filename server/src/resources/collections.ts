import { DECLARATIONS } from '../../../shared/resources';
import type { CollectionDeclaration, ResourceDeclaration } from '../../../shared/resources/declaration';
import { displayName } from '../../../shared/resources/derive';
import type { Trx } from '../db/knex';
import { AppError } from '../lib/app-error';
import type { Row } from './resource';
import { resourceRepository } from './resource.repository';
import { numberOrNull } from './rows';

/**
 * The collections a declared record owns and is saved with, whole (declaration.ts `CollectionDeclaration`):
 * taken out of a body before the record's own columns are written, written after it in the same transaction,
 * and read back onto one record.
 */

type Collections = Readonly<Record<string, CollectionDeclaration>>;

/** The name a set-of-ids collection's labels go under: `subject_ids` → `subject_names`. */
export function collectionNamesField(name: string): string {
  return `${name.replace(/_ids$/, '')}_names`;
}

/** A body split into the record's own columns and its collections (only those it carries). */
export function splitCollections(
  collections: Collections | undefined,
  input: Row,
): { own: Row; nested: Row } {
  if (!collections) return { own: input, nested: {} };
  const own: Row = {};
  const nested: Row = {};
  for (const [key, value] of Object.entries(input)) {
    if (key in collections) nested[key] = value;
    else own[key] = value;
  }
  return { own, nested };
}

function targetOf(resource: string): ResourceDeclaration {
  const target = DECLARATIONS.find((d) => d.name === resource);
  if (!target) throw new Error(`A collection refers to "${resource}", which is not declared`);
  return target;
}

/**
 * Writes the collections `nested` carries for the record `ownerId`: a set of ids becomes exactly those ids; rows
 * keep their `id` when the body gives one of theirs (updated in place), new ones are inserted, and the record's
 * rows the body leaves out are deleted. An `id` that is not one of this record's rows is a 422 on that row.
 */
export async function saveCollections(
  trx: Trx,
  collections: Collections | undefined,
  ownerId: number,
  nested: Row,
): Promise<void> {
  for (const [name, value] of Object.entries(nested)) {
    const collection = collections?.[name];
    if (!collection || !Array.isArray(value)) continue;
    const existing = await resourceRepository.collectionRows(trx, collection, [ownerId]);
    if (collection.ids) {
      const idColumn = collection.ids.column;
      const wanted = new Set(value.map(Number));
      const held = new Set(existing.map((row) => Number(row[idColumn])));
      await resourceRepository.collectionDelete(
        trx,
        collection,
        ownerId,
        existing.filter((row) => !wanted.has(Number(row[idColumn]))).map((row) => Number(row.id)),
      );
      await resourceRepository.collectionInsert(
        trx,
        collection,
        [...wanted]
          .filter((id) => !held.has(id))
          .map((id) => ({ [collection.column]: ownerId, [idColumn]: id })),
      );
      continue;
    }
    const own = new Set(existing.map((row) => Number(row.id)));
    const kept = new Set<number>();
    const inserts: Row[] = [];
    for (const [index, item] of (value as Row[]).entries()) {
      const { id, ...fields } = item;
      const data: Row = { ...fields };
      for (const [field, declared] of Object.entries(collection.fields ?? {})) {
        // a field left out of a row takes its declared default (a new row) rather than NULL
        if (!(field in data) && declared.default !== undefined) data[field] = declared.default;
      }
      if (collection.orderColumn) data[collection.orderColumn] = index;
      const rowId = numberOrNull(id);
      if (rowId !== null) {
        if (!own.has(rowId) || kept.has(rowId)) throw AppError.field('validation', `${name}.${index}.id`);
        kept.add(rowId);
        await resourceRepository.collectionUpdate(trx, collection, rowId, data);
      } else {
        inserts.push({ ...data, [collection.column]: ownerId });
      }
    }
    await resourceRepository.collectionDelete(
      trx,
      collection,
      ownerId,
      [...own].filter((id) => !kept.has(id)),
    );
    await resourceRepository.collectionInsert(trx, collection, inserts);
  }
}

/** Deletes every row the record owns (the record is being deleted). */
export async function deleteCollections(
  trx: Trx,
  collections: Collections | undefined,
  ownerId: number,
): Promise<void> {
  for (const collection of Object.values(collections ?? {}))
    await resourceRepository.collectionDelete(trx, collection, ownerId);
}

/**
 * The record with its collections: a set of ids as the ids (and `<name>_names`, `[{ id, label }]` in
 * `language`), rows as their declared fields with `id`, in order.
 */
export async function withCollections(
  trx: Trx,
  collections: Collections | undefined,
  row: Row,
  language: 'en' | 'zh_HK',
): Promise<Row> {
  if (!collections) return row;
  const out: Row = { ...row };
  const ownerId = Number(row.id);
  for (const [name, collection] of Object.entries(collections)) {
    const rows = await resourceRepository.collectionRows(trx, collection, [ownerId]);
    if (collection.ids) {
      const ids = rows.map((r) => Number(r[collection.ids!.column]));
      const target = targetOf(collection.ids.resource);
      const columns = [...new Set([...target.display.en, ...target.display.zh_HK])];
      const named = await resourceRepository.rowsByKey(trx, target.table, 'id', ids, columns);
      const labels = new Map(named.map((r) => [Number(r.id), displayName(target, r, language)]));
      out[name] = ids;
      out[collectionNamesField(name)] = ids.map((id) => ({ id, label: labels.get(id) ?? null }));
      continue;
    }
    const fields = Object.entries(collection.fields ?? {});
    out[name] = rows.map((r) => {
      const item: Row = { id: Number(r.id) };
      for (const [field, declared] of fields)
        item[field] = declared.type === 'boolean' ? Boolean(r[field]) : r[field];
      return item;
    });
  }
  return out;
}

import type { Knex } from 'knex';
import type { MessageKey } from '../../../shared/messages';
import type { FieldDeclaration, InputOf, RecordOf } from '../../../shared/resources/declaration';
import type { Trx } from '../db/knex';
import type { RequestContext } from '../http/context';
import { fromDbDateTime } from '../lib/clock';
import type { AfterCommit, MoveEffects, ResourceDefinition, Row } from './resource';

/**
 * Reading the machinery's rows (`Row`: column → `unknown`). A generic hook narrows at the point of use
 * (`Number(row.id)`, `binding(value)`, `apiDateTime(value)`); a declared resource's rules get their rows typed by
 * the declaration through `declaredRules`.
 */

/**
 * A value read from a row or a parsed input, as a query binding. Rows and inputs hold scalars (text, numbers,
 * 0/1, null); anything else reaching a query is a bug, refused here rather than sent to the driver.
 */
export function binding(value: unknown): Knex.Value {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  ) {
    return value;
  }
  if (value instanceof Date || Buffer.isBuffer(value)) return value;
  throw new TypeError(`not a query value: ${typeof value}`);
}

/** A DATETIME column's value (the database's UTC text) as the API shows it: ISO 8601, or null. */
export function apiDateTime(value: unknown): string | null {
  return typeof value === 'string' || value instanceof Date ? fromDbDateTime(value) : null;
}

/**
 * An instant as the API takes it (ISO 8601 with an offset) or a DATETIME column stores it (the database's UTC text
 * `YYYY-MM-DD HH:MM:SS`), in ms since the epoch; null when there is none or it is not one.
 */
export function instantMs(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string' || !value) return null;
  const iso = value.includes('T') ? value : fromDbDateTime(value);
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** A numeric column's value, or null when it holds none (`undefined` too: a column the row was read without). */
export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

type Declared = { fields: Record<string, FieldDeclaration> };

/** The declared field names (a stored declaration's `fields` is also a `Record<string, FieldDeclaration>`). */
type FieldName<D extends Declared> = keyof {
  [K in keyof D['fields'] as string extends K ? never : K]: true;
} &
  string;

/** What every row of the machinery's tables has. */
type Keyed = { id: number; created_at: string; updated_at: string };

/**
 * A declared resource's row as the API shows it, before `allowed_actions` and `refusal` are added (what
 * `toResponse` and `expand` get): its declared fields typed as `RecordOf` types them (booleans are booleans);
 * lookup names and columns the declaration does not state are `unknown`.
 */
export type ShownRow<D extends Declared> = { [K in FieldName<D>]: RecordOf<D>[K] } & Keyed & Row;

/** Booleans are stored as 0/1 (SQLite and MariaDB alike). */
type Stored<V> = V extends boolean ? number : V;

/**
 * A declared resource's row as its table stores it (what the write hooks and `refusals` get): booleans are 0/1
 * (read them with `Boolean()`), datetimes the database's UTC text; columns the declaration does not state (a
 * password hash) are `unknown`.
 */
export type StoredRow<D extends Declared> = { [K in FieldName<D>]: Stored<RecordOf<D>[K]> } & Keyed & Row;

/**
 * A write's input as the resource's schemas parsed it: the declared writable fields it holds (an update holds
 * any of them), plus `Extra` — the fields the rules' own schemas add (a role's permissions).
 */
export type InputRow<D extends Declared, Extra extends Row = Row> = Partial<InputOf<D> & Extra> & Row;

type TypedHook =
  | 'toResponse'
  | 'expand'
  | 'refusals'
  | 'beforeWrite'
  | 'prepare'
  | 'afterWrite'
  | 'beforeDelete'
  | 'afterDelete'
  | 'guards'
  | 'moveEffects';

/** `ResourceDefinition`'s hooks, their rows typed by the declaration `D` (see `declaredRules`). */
export interface DeclaredRules<D extends Declared, Extra extends Row = Row> extends Omit<
  Partial<ResourceDefinition>,
  TypedHook
> {
  toResponse?: (row: ShownRow<D>) => Row;
  expand?: (db: Trx, rows: ShownRow<D>[]) => Promise<Row[]>;
  refusals?: (db: Trx, rows: StoredRow<D>[], ctx: RequestContext) => Promise<Map<number, MessageKey>>;
  beforeWrite?: (
    db: Trx,
    data: InputRow<D, Extra>,
    existing: StoredRow<D> | null,
    ctx: RequestContext,
  ) => Promise<void>;
  prepare?: (db: Trx, input: InputRow<D, Extra>, existing: StoredRow<D> | null) => Promise<Row>;
  afterWrite?: (
    db: Trx,
    row: StoredRow<D>,
    before: StoredRow<D> | null,
    ctx: RequestContext,
  ) => Promise<void>;
  beforeDelete?: (db: Trx, row: StoredRow<D>, ctx: RequestContext) => Promise<AfterCommit | void>;
  afterDelete?: (db: Trx, row: StoredRow<D>, ctx: RequestContext) => Promise<AfterCommit | void>;
  guards?: Record<string, (db: Trx, row: StoredRow<D>, ctx: RequestContext) => Promise<void>>;
  moveEffects?: (
    db: Trx,
    action: string,
    row: StoredRow<D>,
    ctx: RequestContext,
    input: Row,
  ) => Promise<MoveEffects | void>;
}

/**
 * The rules of the declared resource `decl` (server/src/modules/resource-rules.ts), written against its rows typed
 * by the declaration: `StoredRow` (what its table holds), `ShownRow` (what the API shows) and `InputRow` (a parsed
 * write, with `Extra` for the fields the rules' own schemas add).
 *
 * The one place the machinery's rows (`Row`, column → `unknown`) are taken as a declaration's, unchecked: the
 * generic service hands these hooks only rows it read from `decl.table` and inputs the resource's schemas parsed,
 * so the claim holds as long as the rules are registered for `decl` (and their `schemas` add no more than
 * `Extra`).
 */
export function declaredRules<D extends Declared, Extra extends Row = Row>(
  _decl: D,
  rules: DeclaredRules<D, Extra>,
): Partial<ResourceDefinition> {
  return rules as Partial<ResourceDefinition>;
}

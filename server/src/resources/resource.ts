import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Module } from '../../../shared/permissions';
import type { NumberedDocument } from '../../../shared/schemas/numbering';
import type {
  ResourceDeclaration,
  SearchKind,
  StatesDeclaration,
} from '../../../shared/resources/declaration';
import type { MessageKey } from '../../../shared/messages';
import type { Trx } from '../db/knex';
import type { RequestContext } from '../http/context';

export type Row = Record<string, unknown>;

/** Work that may only happen once a transaction has committed (removing files from the disk). */
export type AfterCommit = () => Promise<void>;

/** A table whose rows keep this record from being deleted; `key` names it in the 409 body. */
export interface Reference {
  table: string;
  column: string;
  key: string;
  /** the column of this record that `column` holds (default `id`; an option list's `value`) */
  field?: string;
  /** counted only once the table exists (a table a later issue adds) */
  whenTableExists?: boolean;
  /** more conditions on `table` (files: `owner_type`) */
  where?: Readonly<Row>;
}

/** One column of a list export: a header in each language and the cell value (default `row[key]`). */
export interface ExportColumn {
  key: string;
  en: string;
  zh: string;
  /** the cell, when not the row's `key` as it is (`language`: the export's, for a value named per language) */
  value?: (row: Row, language: 'en' | 'zh') => unknown;
  /**
   * what the value is, when a format writes it other than as text (export.writer.ts): a `date` (`YYYY-MM-DD`)
   * or a `datetime` (a stored instant, shown in Hong Kong time) is a date cell in XLSX and text in CSV
   */
  type?: 'date' | 'datetime';
}

/** The way up from a child row to the branch column of an ancestor (see `ResourceDefinition.branchVia`). */
export interface BranchVia {
  column: string;
  table: string;
  branchColumn?: string;
  via?: BranchVia;
}

export type ResourceAction = 'view' | 'create' | 'update' | 'delete';

/** What a declared state move writes besides its state (see `ResourceDefinition.moveEffects`). */
export interface MoveEffects {
  /** more columns written with the new state, in the same update (a timestamp of the move, a file let go) */
  set?: Row;
  /** work once the move's transaction has committed (the bytes of a file it let go) */
  afterCommit?: AfterCommit;
}

/**
 * An action a resource serves on a route of its own rather than as a declared move (a file put into a checklist
 * row): listed in `allowed_actions` like the declared moves, when the row's state is one of `from` and the caller
 * holds `permission` (default `${module}.update`), so that a client shows only the buttons that will work.
 */
export interface OwnAction {
  from: readonly string[];
  permission?: string;
}

/**
 * A related record's name on each row: `as` takes the label (in the caller's language) of the row of `table`
 * whose `key` (default `id`) equals the row's `field`. Resolved with one `IN` query per page.
 */
export interface LookupRelation {
  field: string;
  as: string;
  table: string;
  key?: string;
  /** more conditions on `table` (an option list's key) */
  where?: Row;
  label: { en: readonly string[]; zh_HK: readonly string[] };
}

/**
 * One entity, declared: everything the generic repository, service and routes need to serve its CRUD.
 * An entity writes its own service or routes only for what is really its own.
 */
export interface ResourceDefinition {
  /** entity name in audit rows and messages (singular, snake_case) */
  name: string;
  /** path under /api */
  path: string;
  table: string;
  /** permission module: the routes need `${module}.view|create|update|delete` */
  module: Module;
  schemas: {
    create: z.ZodObject;
    update: z.ZodObject;
    /** per-resource list filters, parsed with the list query */
    filters?: z.ZodObject;
  };
  /**
   * column values every row of this resource has (one list of a shared table, such as one option key): rows
   * are read through them and every write sets them
   */
  fixed?: Row;
  /** the shared declaration this definition derives from (declared.ts), when it has one */
  declaration?: ResourceDeclaration;
  /** related records' names added to every row (lookups, option labels) */
  lookups?: LookupRelation[];
  /** the columns naming a record per language: answers `GET {path}/lookup?q=` */
  label?: { en: readonly string[]; zh_HK: readonly string[] };
  /**
   * more rows each word of the search `q` finds (list and lookup), OR-ed with its columns' matches: an area by its
   * districts' names. `pattern` is `containsPattern(word)`, for `orWhereContains` (db/search). Not with
   * `searchTerms`.
   */
  searchAlso?: (where: Knex.QueryBuilder, pattern: string) => void;
  /** more columns a lookup's `q` is searched in, beyond the label's (a user by email too) */
  lookupSearch?: readonly string[];
  /** its states and the moves between them, served as `POST {path}/:id/:action` */
  states?: StatesDeclaration;
  /** a move's own rules beyond its `from` states (inside its transaction, the row locked) */
  guards?: Record<string, (db: Trx, row: Row, ctx: RequestContext) => Promise<void>>;
  /**
   * what a declared move writes besides the state column (`POST {path}/:id/:action`): called inside its
   * transaction after the guard, with the row as it was (locked); the columns it answers are written with the new
   * state, so the answer and the audit row show them, and its `afterCommit` runs once the move has committed
   */
  moveEffects?: (
    db: Trx,
    action: string,
    row: Row,
    ctx: RequestContext,
    input: Row,
  ) => Promise<MoveEffects | void>;
  /** actions served by the resource's own routes, listed in `allowed_actions` (see `OwnAction`) */
  ownActions?: Record<string, OwnAction>;
  /** what `GET {path}/:id?tab=…` adds to the record for a tab of its page */
  tabData?: Record<string, (db: Trx, row: Row, ctx: RequestContext) => Promise<Row>>;
  /** only the list and read routes (the audit log) */
  readOnly?: boolean;
  /**
   * `POST {path}/import` and `GET {path}/import/template` (resource.import.ts): needs `declaration` (the
   * columns); a declaration's own `importable` turns it on too
   */
  importable?: boolean;
  /** a permission key other than `${module}.${action}` for some actions */
  permissions?: Partial<Record<ResourceAction, string>>;
  /** the list export's columns, headed in the user's language; default: the response's own fields */
  exportColumns?: ExportColumn[];
  /**
   * rows whose parent is a row of the same table (areas and their districts): `column` holds the parent's id. The
   * list and the lookup show the top rows (no parent; each with its children, `expand`) unless a filter on
   * `column` names a parent; an export writes every row, each with its parent's name.
   */
  tree?: { column: string };
  /** the export's file name before the date (default: the path, `/` as `-`) */
  exportName?: string;
  /** appended to the 409 message when a delete is refused for references (what to do instead) */
  referencedHint?: MessageKey;
  /**
   * the column naming the branch a row belongs to: branch-scoped roles see, change and create rows of their
   * own branch only, and get 404 for the others (quality §15)
   */
  branchColumn?: string;
  /**
   * a child without a branch column of its own is in its parent's branch: `column` holds the parent's id in
   * `table`, whose `branchColumn` (or, further up, `via`) names the branch
   */
  branchVia?: BranchVia;
  /** the columns (`table.column`) each word of `q` is looked for in, anywhere (a small table; db/search.ts) */
  searchable: string[];
  /**
   * `q` is matched on the search-terms table instead (db/search.ts): these columns' terms, by what each holds, kept
   * by every insert, update and delete of the generic repository (a declaration's `searchTerms`)
   */
  searchTerms?: Readonly<Record<string, SearchKind>>;
  sortable: string[];
  /** `column` or `-column` */
  defaultSort: string;
  /** column sets that must be unique; the duplicate error is reported on the last column */
  unique?: string[][];
  references?: Reference[];
  /** columns stored as 0/1 that the API shows as booleans */
  booleans?: string[];
  /** columns never sent to a client (hashes, secrets) */
  hidden?: string[];
  /** a row as the API shows it, after booleans, timestamps and hidden columns are handled */
  toResponse?: (row: Row) => Row;
  /** validated input → the columns to write (hash a password, encode a JSON column …) */
  prepare?: (db: Trx, input: Row, existing: Row | null) => Promise<Row>;
  /** inside the write transaction, after create or update (end a deactivated user's sessions …) */
  afterWrite?: (db: Trx, row: Row, before: Row | null, ctx: RequestContext) => Promise<void>;
  applyFilters?: (qb: Knex.QueryBuilder, filters: Row) => void;
  /**
   * the list's `?{state column}=` filter, when a state is shown but not stored as it is (a quotation is `expired`
   * past its validity while its column says draft or sent); default: the column equals the state
   */
  stateFilter?: (qb: Knex.QueryBuilder, state: string) => void;
  /**
   * the record printed (`GET {path}/:id?format=pdf`, a declaration's `printable`): the record as the caller reads
   * it (with its collections), `tab` the printed tab when the declaration prints several (a quotation's contract)
   */
  print?: (
    db: Trx,
    row: Row,
    ctx: RequestContext,
    tab?: string,
  ) => Promise<{ filename: string; pdf: Buffer }>;
  /** related rows added to list items and single records */
  expand?: (db: Trx, rows: Row[]) => Promise<Row[]>;
  /** what `GET /create` answers besides the defaults (only the choices this caller may make) */
  createForm?: (db: Trx, ctx: RequestContext) => Promise<Row>;
  /**
   * rules that need the database, checked inside the write transaction; `ctx` tells who writes (a caller may
   * not grant more than it holds)
   */
  beforeWrite?: (db: Trx, data: Row, existing: Row | null, ctx: RequestContext) => Promise<void>;
  /**
   * rules checked inside the delete transaction, after the references; it may also remove rows that would keep
   * the record from being deleted and belong to it alone (an application's checklist), answering what must wait
   * for the commit (their files' bytes on the disk)
   */
  beforeDelete?: (db: Trx, row: Row, ctx: RequestContext) => Promise<AfterCommit | void>;
  /**
   * the records among `rows` that this caller may not change (update or delete) although it holds the
   * module's permission, each with the reason (an account or role stronger than the caller's: the access
   * rules). A write to one is refused with 403 `insufficient_rights`; `allowed_actions` leaves them out.
   */
  refusals?: (db: Trx, rows: Row[], ctx: RequestContext) => Promise<Map<number, MessageKey>>;
  /**
   * why the record's own state keeps it from being changed or deleted by anyone (a void invoice), or null: an
   * update or delete is refused with 409 `conflict` and this message, `allowed_actions` leaves them out while its
   * moves stay (unvoid), and the row answers the reason as `locked` for the screen to say
   */
  locked?: (row: Row) => MessageKey | null;
  /**
   * inside the delete transaction, after the row is deleted and audited: removes what belongs to it alone (a
   * user's own files); what it answers runs once the transaction has committed (their bytes on the disk)
   */
  afterDelete?: (db: Trx, row: Row, ctx: RequestContext) => Promise<AfterCommit | void>;
  /**
   * a generated document number: on create, `column` takes the next number of `document` for the row's
   * branch (`branchColumn`), in the create's transaction (numbering.service.ts)
   */
  numbering?: { column: string; document: NumberedDocument; branchColumn?: string };
}

import type { FieldMessageKey } from '../messages';
import type { Module } from '../permissions';

/**
 * One declaration per resource (issue 11): the one place an entity's fields are stated. Server validation,
 * list and export columns in both languages, lookups, client form fields, table columns and TypeScript types
 * all derive from it (shared/resources/derive.ts, server/src/resources/declared.ts,
 * client/src/components/resource/from-declaration.tsx). Labels live in `shared/resources/locales/{en,zh_HK}.json`
 * under `resources.<name>.*`: `title`, `record`, and `fields.<field>`.
 */
export type FieldType =
  | 'text'
  | 'email'
  | 'integer'
  | 'money'
  | 'currency'
  | 'rate'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'option'
  | 'lookup'
  | 'richtext'
  | 'file'
  | 'color';

/**
 * What a searchable column holds, which decides how the list's `q` finds it on a resource with `searchTerms`
 * (README "What a search finds"; elsewhere each word of `q` is found anywhere in the column):
 * - `identifier`: a number, code, e-mail or phone, matched from its start (case-folded; a phone or number also by
 *   its digits alone, and by each group as written);
 * - `name`: words (a name, a title, a description), each matched from its start; Chinese, Japanese and Korean
 *   text by any part of it.
 */
export type SearchKind = 'identifier' | 'name';

interface FieldCommon {
  /** the field must be given on create (and may not be emptied) */
  required?: boolean;
  /** matched by the list's and the lookup's `q` (text-like fields), as what it holds (`SearchKind`) says */
  searchable?: SearchKind;
  /** the list may sort by it; the migration gives it an index `(column, id)` (or unique) */
  sortable?: boolean;
  /** the list takes `?<field>=` (exact; a date or datetime takes `<field>_from` / `<field>_to`) */
  filterable?: boolean;
  /** a table column in the list (default true unless `multiline`, rich text or a file) */
  list?: boolean;
  /** a column in the XLSX and CSV exports (default: same as `list`) */
  export?: boolean;
  /** unique on its own (the duplicate error names this field) */
  unique?: boolean;
  /** computed by the server: shown, never taken from a request */
  readOnly?: boolean;
  /** a new record's value */
  default?: string | number | boolean | null;
  /** help text under the form field: a key under `resources.<name>.help.<field>` exists */
  help?: boolean;
  /**
   * the record page's tab whose form shows it (one of the declaration's `tabs` other than the first: a quotation's
   * contract fields on its `contract` tab); default the first tab's form
   */
  tab?: string;
}

export type FieldDeclaration = FieldCommon &
  (
    | {
        type: 'text';
        max: number;
        min?: number;
        multiline?: boolean;
        pattern?: 'code' | 'letters_digits';
        /** stored upper-cased (a branch code) */
        uppercase?: boolean;
        /** one of these values (labels under `resources.<name>.values.<field>.<value>`) */
        values?: readonly string[];
      }
    | { type: 'email' }
    | { type: 'integer'; min?: number; max?: number }
    /** integer minor units; `currency` names the field holding its ISO 4217 code */
    | { type: 'money'; currency: string; min?: number }
    /** a three-letter code of the currency option list */
    | { type: 'currency' }
    /** basis points: 1234 = 12.34 % */
    | { type: 'rate'; min?: number; max?: number }
    | { type: 'date' }
    | { type: 'datetime' }
    | { type: 'boolean' }
    /** a value of an option list (`/api/options/{list}`) */
    | {
        type: 'option';
        key: string;
        /**
         * choosing a value fills these text fields of the same row (or record) with the option's labels, English
         * and Chinese (a checklist row's names from its document type): unless they were typed by hand
         */
        fillsNames?: { en: string; zh: string };
      }
    /** the id of a record of another resource; rows carry `<name without _id>_name` in the caller's language */
    | {
        type: 'lookup';
        resource: string;
        /**
         * its choices narrowed by another field's value (a district by its area): the lookup is asked with
         * `?{filter}={that field's value}` (one of the list's filters), offered once that field is given and
         * emptied when it changes
         */
        narrowedBy?: { field: string; filter: string };
      }
    | { type: 'richtext'; max: number }
    /**
     * the id of a stored file (files table), set by uploading to `POST /api{path}/:id/{field}` (multipart `file`)
     * and cleared by `DELETE` there, never by the record's body: the upload is filed under `owner` (a file owner
     * type, `school_logo`) for this record, and replaces the one before
     */
    | { type: 'file'; accept?: 'image' | 'any'; owner: string }
    /** `#rrggbb` */
    | { type: 'color' }
  );

/** A move between states, served as `POST /api/{resource}/{id}/{action}`. */
export interface ActionDeclaration {
  from: readonly string[];
  to: string;
  /** the permission key (default `${module}.update`) */
  permission?: string;
  /** the message of the 409 when the record is in none of the `from` states (default `stateNotAllowed`) */
  refused?: FieldMessageKey;
  /**
   * the move's body: fields written with the state (an order's `void_reason`), each a column of the record and
   * labelled as its field; a move without `input` takes an empty body
   */
  input?: Record<string, FieldDeclaration>;
  /** the column the state left is written to (void remembers what unvoid restores) */
  remember?: string;
  /** the column holding the state to go back to (written by another move's `remember`); `to` when it is empty */
  restore?: string;
  /** the screen asks for a confirmation naming the record before it moves (void, unvoid) */
  confirm?: boolean;
}

export interface StatesDeclaration {
  /** the column holding the state */
  column: string;
  values: readonly string[];
  /** the state of a new record */
  initial: string;
  actions: Record<string, ActionDeclaration>;
}

/** A list filter over another table's rows (see `ResourceDeclaration.filters`). */
export interface RelationFilterDeclaration {
  type: 'lookup';
  /** the resource whose record is picked */
  resource: string;
  /** the table holding both the record's id (`column`) and the filter's name as a column */
  via: { table: string; column: string };
}

/** A table whose rows keep a record from being deleted (`key` names it in the 409 body). */
export interface ReferenceDeclaration {
  table: string;
  column: string;
  key: string;
  /** counted only once the table exists (a table a later issue adds) */
  whenTableExists?: boolean;
  /** more conditions on `table` (files: `owner_type`) */
  where?: Readonly<Record<string, string | number>>;
}

/**
 * Rows a record owns and is saved with, whole (an intake's subjects, its timetable, its checklist): the create
 * and update bodies carry the collection as an array under its name; a save replaces what was there in the
 * record's transaction (rows keep their `id` when the body gives it), the record's audit row shows the
 * collection before and after, a read of one record carries it, and deleting the record deletes them.
 */
export interface CollectionDeclaration {
  table: string;
  /** the column holding the owning record's id */
  column: string;
  /**
   * the collection is a set of ids of another resource's records (`subject_ids`) in `column` of `table`; a read
   * adds `<name without _ids>_names`: `[{ id, label }]` in the caller's language
   */
  ids?: { column: string; resource: string };
  /** each row's own fields (a timetable's date and titles) */
  fields?: Record<string, FieldDeclaration>;
  /** the column keeping the body's order (0, 1, 2 …): a checklist's order is the order sent */
  orderColumn?: string;
  /** the most rows a record may own */
  max: number;
  /** help text under the form's collection: a key under `resources.<name>.help.<collection>` exists */
  help?: boolean;
}

export interface ResourceDeclaration<
  F extends Record<string, FieldDeclaration> = Record<string, FieldDeclaration>,
> {
  /** entity name in audit rows, messages and locale keys (singular, snake_case) */
  name: string;
  /** the API collection under /api (`/student-categories`) */
  path: string;
  table: string;
  /** permission module: `${module}.view|create|update|delete` */
  module: Module;
  fields: F;
  /** the fields naming a record, per language (a lookup's label, confirmations, breadcrumbs) */
  display: { en: readonly (keyof F & string)[]; zh_HK: readonly (keyof F & string)[] };
  /** `field` or `-field` */
  defaultSort: string;
  /**
   * list filters over related rows rather than a column (students who applied to an intake): `?{name}=` keeps the
   * records whose id is in `via.column` of `via.table`'s rows whose `{name}` is the value; a lookup filter is a
   * picker in the list's toolbar
   */
  filters?: Readonly<Record<string, RelationFilterDeclaration>>;
  /** rows it owns and is saved with (see `CollectionDeclaration`), by their name in the body */
  collections?: Readonly<Record<string, CollectionDeclaration>>;
  /** column sets unique together (each single `unique` field is one too) */
  unique?: readonly (readonly (keyof F & string)[])[];
  references?: readonly ReferenceDeclaration[];
  /** the column naming a row's branch: branch-scoped roles see and write their branch's rows only */
  branchColumn?: (keyof F & string) | 'id';
  /**
   * a record without a branch column of its own, in the branch of the record its lookup field names (an event's
   * registration is in its student's branch, though the event is agency-wide): branch-scoped roles see the rows
   * whose named record they see, and cannot name one they do not (404). Instead of the parent's branch.
   */
  branchVia?: keyof F & string;
  /**
   * a child resource: served under `/api/{parent path}/{id}/{segment}`, access checked on the parent once; also at
   * its own `/api{path}` for a lookup (`?{parent column}=` narrows it), one record and its state moves. A child
   * without its own `branchColumn` is in its parent's branch: branch scope follows the parents up.
   */
  parent?: { resource: string; column: keyof F & string; segment: string };
  /**
   * a child also listed, read only, under another record it names (an event's registrations on their student):
   * `GET /api/{that resource's path}/{id}/{segment}` (and its export) lists the rows whose `column` holds that
   * record, whose access is checked once; its record page shows them in its tab `tab`
   */
  listedUnder?: { resource: string; column: keyof F & string; segment: string; tab: string };
  states?: StatesDeclaration;
  /** `POST /api/{path}/import` (XLSX or CSV, all or nothing) and `GET /api/{path}/import/template` */
  importable?: boolean;
  /** the tabs of its record page (`GET /api{path}/{id}?tab=…`); the first is the record's own form */
  tabs?: readonly string[];
  /**
   * tabs listing several child resources, one under the other (a student's family members and educations in its
   * `family` tab): per tab, the child declarations' names by the path segment their records open under in the
   * screens (`{ family: { member: 'student_family', education: 'student_education' } }`:
   * `/students/family/5/member/12`). A tab not named here lists the child named `<resource>_<tab>`, if any
   * (`childOfTab`, shared/resources/index.ts)
   */
  tabChildren?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** only the list and read routes */
  readOnly?: boolean;
  /**
   * records are never deleted (receipts, refunds: they are cancelled or unapproved, so that numbering and the
   * audit trail stay whole): no delete route, never `delete` in `allowed_actions`
   */
  undeletable?: boolean;
  /**
   * a record prints as a PDF: `GET /api{path}/{id}?format=pdf` (with `&tab=` one of `tabs`: a quotation's contract);
   * the resource's rules give the document (`ResourceDefinition.print`)
   */
  printable?: { tabs?: readonly string[] };
  /**
   * `q` is matched on the search-terms table (`search_terms`: each searchable column's terms, kept in the
   * transaction of every write of a record, under the index `(entity, term, record_id)`) instead of on the columns
   * themselves: for a table that grows past what a scan serves (students). Without it, each word of `q` is looked
   * for anywhere in the searchable columns (`LIKE '%word%'`), which only a small table affords.
   */
  searchTerms?: boolean;
  /**
   * one declaration serving several lists of one table, told apart by a path segment (`/options/:key`): each
   * member's rows have `param` = the member (a fixed column), at `path` with the segment filled in
   */
  family?: { param: string; members: readonly string[] };
  /** the back-office screens: the list at `route`, `route/create`, `route/:id`; a menu entry under `menu` */
  page?: {
    route: string;
    /** the new-record form's route when not `route/{first tab}/create` (spec `/students/create`) */
    createRoute?: string;
    /** a menu entry: in the menu group `group`, or at the top level without one */
    menu?: { group?: string; order?: number };
  };
}

/** The declaration as written, typed. */
export function declareResource<const F extends Record<string, FieldDeclaration>>(
  declaration: ResourceDeclaration<F>,
): ResourceDeclaration & { fields: F } {
  // checked against its own fields above; stored as any declaration (a field-name key flips variance)
  return declaration as unknown as ResourceDeclaration & { fields: F };
}

type ValueOf<D extends FieldDeclaration> = D extends { type: 'text' | 'email' | 'richtext' | 'color' }
  ? string
  : D extends { type: 'integer' | 'money' | 'rate' | 'lookup' | 'file' }
    ? number
    : D extends { type: 'boolean' }
      ? boolean
      : string;

type Nullable<D extends FieldDeclaration, V> = D extends { required: true } ? V : V | null;

/** A record as the API shows it: the declared fields plus id, timestamps and what the machinery adds. */
export type RecordOf<R extends { fields: Record<string, FieldDeclaration> }> = {
  [K in keyof R['fields']]: Nullable<R['fields'][K], ValueOf<R['fields'][K]>>;
} & {
  id: number;
  created_at: string;
  updated_at: string;
  allowed_actions: string[];
  refusal: string | null;
  [computed: string]: unknown;
};

/** The lookup's name field a row carries: `branch_id` → `branch_name`. */
export function lookupNameField(field: string): string {
  return `${field.replace(/_id$/, '')}_name`;
}

/** The key of a field's label in the locale files. */
export function fieldLabelKey(resource: string, field: string): string {
  return `resources.${resource}.fields.${field}`;
}

/** The catalogue key naming one of a text field's declared `values` (a user's language, a student's status). */
export function valueLabelKey(resource: string, field: string, value: string): string {
  return `resources.${resource}.values.${field}.${value}`;
}

/** The catalogue key naming one of a declaration's states (`resources.<name>.states.<state>`). */
export function stateLabelKey(resource: string, state: string): string {
  return `resources.${resource}.states.${state}`;
}

/** Whether a field is a table column by default. */
export function isListed(field: FieldDeclaration): boolean {
  if (field.list !== undefined) return field.list;
  if (field.type === 'richtext' || field.type === 'file') return false;
  if (field.type === 'text' && field.multiline) return false;
  return true;
}

export function isExported(field: FieldDeclaration): boolean {
  return field.export ?? isListed(field);
}

/** The declared field names (without the index signature a stored declaration's type carries). */
type KnownKeys<F> = keyof { [K in keyof F as string extends K ? never : K]: F[K] };
type WritableKeys<F> = { [K in KnownKeys<F>]: F[K] extends { readOnly: true } ? never : K }[KnownKeys<F>];

/** A create body as the derived schema parses it: required fields, then the others (optional, or null). */
export type InputOf<R extends { fields: Record<string, FieldDeclaration> }> = {
  [K in WritableKeys<R['fields']> as R['fields'][K] extends { required: true } ? K : never]: ValueOf<
    R['fields'][K]
  >;
} & {
  [K in WritableKeys<R['fields']> as R['fields'][K] extends { required: true } ? never : K]?: ValueOf<
    R['fields'][K]
  > | null;
};

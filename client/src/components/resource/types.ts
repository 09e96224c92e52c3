import type { ReactNode } from 'react';
import type { Params } from 'react-router-dom';
import type { z } from 'zod';
import type { Module } from '../../../../shared/permissions';
import type { ActionDeclaration } from '../../../../shared/resources/declaration';
import type { User } from '../../app/types';

/** i18next's `t`, as the configs use it. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A record as the API shows it. */
export type ResourceRow = Record<string, unknown> & { id: number };

/** A list filter shown above the table; its value goes to the list query as `name`. */
export interface ResourceFilter {
  /** query parameter (and server filter) name, e.g. `year`, `is_active` */
  name: string;
  labelKey: string;
  /** one end of a range of the field `labelKey` names: labelled "<field>: from" or "<field>: to" */
  rangeEnd?: 'from' | 'to';
  type: 'select' | 'number' | 'text' | 'date' | 'custom';
  /** a `custom` filter's control (a lookup's searchable picker): the query's value, and how to change it */
  render?: (props: {
    value: string | undefined;
    onChange: (value: string | undefined) => void;
    label: string;
    /** the list's whole query (a filter narrowed by another reads that one's value) */
    query?: ListQueryState;
  }) => ReactNode;
  /** the filter whose value narrows this one's choices (a district by its area): emptied when that one changes */
  narrowedBy?: string;
  /** choices of a select: a label key or a fixed label per value */
  options?: { value: string; labelKey?: string; label?: string }[];
  /** value used when the URL has none (shown selected; the route data call should default it the same) */
  defaultValue?: () => string;
}

/** One table column. */
export interface ResourceColumn<T extends ResourceRow = ResourceRow> {
  /** the field shown (and the `sort` key when `sortable`) */
  key: string;
  titleKey: string;
  sortable?: boolean;
  width?: number | string;
  render?: (row: T, helpers: { t: Translate; language: string }) => ReactNode;
}

/** What a form field edits; `custom` renders the field's input itself (rich text, a format with preview …). */
export type ResourceFieldInput =
  | { type: 'text' | 'textarea' | 'password' }
  | { type: 'number'; min?: number; max?: number }
  | { type: 'date' }
  | { type: 'switch' }
  | {
      type: 'select';
      /** the choices, from the form's page data (the `GET …/create` answer, the record) */
      options: (
        data: Record<string, unknown>,
        language: string,
      ) => { value: string | number; label: string }[];
      allowClear?: boolean;
    }
  | { type: 'custom'; render: (props: CustomFieldProps) => ReactNode }
  /**
   * a field rendering its own form items under `name` (a collection's rows: an antd `Form.List`, whose cells
   * carry their own rules and the server's errors on `documents.2.name_en`); its value is sent as the form holds it
   */
  | {
      type: 'group';
      render: (props: GroupFieldProps) => ReactNode;
      /** the value as sent, from the form's (a row's own fields only) */
      body?: (value: unknown) => unknown;
    };

export interface CustomFieldProps {
  /** from antd's Form.Item: spread them on the control (`value`, `onChange`, `id`, `disabled`) */
  id?: string;
  value?: never;
  onChange?: never;
  disabled?: boolean;
  record: Record<string, unknown> | null;
}

export interface GroupFieldProps {
  /** the field's name: its items are under it */
  name: string;
  /** the schema the form validates with (a row's rules are its element's fields) */
  schema: z.ZodObject | undefined;
  disabled?: boolean;
  record: Record<string, unknown> | null;
}

/** One form field: its rules come from the shared zod schema's field of the same name. */
export interface ResourceField {
  name: string;
  labelKey: string;
  input: ResourceFieldInput;
  /** help text key under the field */
  helpKey?: string;
  /** only on create, or only on edit */
  only?: 'create' | 'edit';
  /** shown only on a record of which this holds (a voided invoice's reason, by and when): otherwise left out */
  shownFor?: (record: Record<string, unknown>) => boolean;
  /** a value sent as is (not shown), e.g. `parent_id` from the query string */
  hidden?: boolean;
  /** shown, never sent: a value the server computes */
  readOnly?: boolean;
  /**
   * why this user may not change this field here (a translation key), or null: the field is shown disabled
   * with the reason under it instead of being refused on save (one's own email, the admin flag for a non-admin)
   */
  locked?: (ctx: { record: Record<string, unknown> | null; user: User | null }) => string | null;
  /** the field whose value narrows this one's choices (a district by its area): emptied when that one changes */
  narrowedBy?: string;
  /** drawn the form's full width even in two columns (a wide grid: the role's permissions) */
  wide?: boolean;
}

/** A tab of a record's detail page after the form's own tab (index 0). */
export interface ResourceTab {
  key: string;
  labelKey: string;
  render: (record: ResourceRow) => ReactNode;
}

/** The query string of a list screen, as read from / written to the URL. */
export type ListQueryState = Record<string, string>;

/**
 * One resource, declared: the generic list page (`ResourceListPage`) and form page (`ResourceFormPage`)
 * serve every CRUD screen from this. A screen is a config file plus its strings; nothing is copied.
 */
export interface ResourceConfig<T extends ResourceRow = ResourceRow> {
  /** stable id (recent-records list, test ids) */
  name: string;
  /** the API collection, e.g. `/api/holidays` or `(p) => \`/api/options/${p.key}\`` */
  apiPath: string | ((params: Params) => string);
  /** the screen's list path, e.g. `/settings/holiday`; create is `${routePath}/create`, edit `${routePath}/${id}` */
  routePath: string | ((params: Params) => string);
  /**
   * where the records open when not under `routePath` (a record page with tabs: `/schools/basic`): a record is
   * `${recordPath}/${id}`, a new one `${recordPath}/create`, and a new record saved opens there
   */
  recordPath?: string | ((params: Params) => string);
  /** the new-record form when not `${recordPath}/create` (spec `/students/create`) */
  createPath?: string;
  /** permission module: buttons need `${module}.create|update|delete` */
  module: Module;
  /** list title key (may use the route params, e.g. the option key, via `titleValues`) */
  titleKey: string;
  titleValues?: (params: Params, t: (key: string) => string) => Record<string, string>;
  columns: ResourceColumn<T>[];
  filters?: ResourceFilter[];
  /** free-text search box (`q`) */
  searchable?: boolean;
  /** XLSX and CSV export of the current filter (`?format=`) */
  exportable?: boolean;
  /**
   * `POST {apiPath}/import` and its template (the declaration's `importable`): the list toolbar shows the import
   * button (`importToolbarButton`, import-modal.tsx) to whoever holds `${module}.create`
   */
  importable?: boolean;
  /** no create / edit / delete (the audit log) */
  readOnly?: boolean;
  /** never deleted (an invoice, a receipt: voided or cancelled instead): no Delete, whatever the role holds */
  undeletable?: boolean;
  /** the record's name in confirmations, breadcrumbs and the recent-records list */
  recordTitle: (row: Record<string, unknown>, language: string) => string;
  form?: {
    create: z.ZodObject;
    update: z.ZodObject;
    fields: ResourceField[];
    /** values of a new record beyond the server's `defaults` (e.g. from the query string) */
    initialValues?: (query: Record<string, string>) => Record<string, unknown>;
  };
  /** the form's widest extent when not 900 px (a document with a table of lines) */
  formMaxWidth?: number;
  /** extra tabs of an existing record's page */
  tabs?: ResourceTab[];
  /** the entity name in the audit log (`holiday`, `area` …): adds a "History" tab for admins */
  auditEntity?: string;
  /** key of a sentence appended to the 409 message (what to do instead, e.g. "deactivate it") */
  referencedHintKey?: string;
  /** rows with children (areas and their districts) */
  childrenOf?: (row: T) => T[] | undefined;
  /** a delete button is hidden for rows where this says no (a value in use is deactivated instead) */
  canDelete?: (row: T) => boolean;
  /**
   * the list's query when the address names none of its keys (the special events' date window, spec
   * `/special-events`): written into the address as the list opens, so the filter bar shows it and a reload keeps it
   */
  defaultQuery?: () => ListQueryState;
  /**
   * the declared state moves of a record (`POST {apiPath}/{id}/{action}`, labelled `resources.<name>.actions.<action>`):
   * a button on each row whose `allowed_actions` lists the move
   */
  moves?: {
    apiPath: string;
    actions: readonly string[];
    /** the declared moves: a body to ask for (`input`), a confirmation naming the record (`confirm`) */
    declared?: Readonly<Record<string, ActionDeclaration>>;
  };
  /**
   * a total row per currency under the table: the sums of these money fields over the page's rows, each currency
   * on its own row (`currency`: the field naming a row's currency, default `currency`), never summed across them
   */
  pageTotals?: { fields: readonly string[]; currency?: string };
  /** more buttons in the list toolbar (import …) */
  toolbar?: (ctx: { reload: () => void; query: ListQueryState; params: Params }) => ReactNode;
  /** more actions per row (add a district …) */
  rowActions?: (row: T, ctx: { reload: () => void; t: Translate }) => ReactNode;
  /** drag rows to reorder: `PUT url {ids}` with every id of the list in the new order */
  reorder?: { url: (params: Params) => string };
  /** replace the list's body (a reorderable list); gets the rows and a reload */
  listBody?: (ctx: { rows: T[]; reload: () => void; canUpdate: boolean }) => ReactNode;
}

export function resolvePath(path: string | ((params: Params) => string), params: Params): string {
  return typeof path === 'function' ? path(params) : path;
}

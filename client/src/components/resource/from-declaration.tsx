import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Form, Select, Typography } from 'antd';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  fieldLabelKey,
  isListed,
  lookupNameField,
  type CollectionDeclaration,
  type FieldDeclaration,
  type ResourceDeclaration,
} from '../../../../shared/resources/declaration';
import { deriveSchemas, displayName, writableFields } from '../../../../shared/resources/derive';
import { declarationByName } from '../../../../shared/resources';
import { RichTextEditor } from '../../features/settings/terms/rich-text-editor';
import { ChoiceSelect, choiceLabel, type ControlProps } from './choice-select';
import { MoneyTextInput, RateTextInput } from './money-text-input';
import { useLookupChoicesQuery, useOptionListQuery } from './declared-api';
import type { RecordTab, RecordTabContext } from './resource-record-page';
import { useResourceFormContext } from './resource-form-context';
import { declaredCell, renderDeclaredValue, optionListOf, valueLabelKey } from './renderers';
import type {
  CustomFieldProps,
  ResourceColumn,
  ResourceConfig,
  ResourceField,
  ResourceFieldInput,
  ResourceFilter,
  ResourceRow,
} from './types';

/**
 * A resource's screens from its declaration (shared/resources): table columns from the listed fields, form
 * fields with the input of each field type, list filters from the filterable fields, the zod rules from
 * `deriveSchemas` (the server's own), titles from the locale keys `resources.<name>.*`. A screen that needs more
 * (a custom cell, a locked field, tabs, toolbar buttons, row actions) says so in `overrides`.
 */

export type { ControlProps };

/** Custom-field props as the form page hands them, typed for the control. */
function control<V>(props: CustomFieldProps): ControlProps<V> & { record: Record<string, unknown> | null } {
  return props as unknown as ControlProps<V> & { record: Record<string, unknown> | null };
}

/**
 * A money amount typed in major units and kept in integer minor units of the currency in `currencyField`: read
 * digit by digit (`MoneyTextInput`), never through a float, as the sales documents' lines are.
 */
export function MoneyInput({
  currencyField,
  record,
  min: _min,
  ...props
}: ControlProps<number> & { currencyField: string; record: Record<string, unknown> | null; min?: number }) {
  const form = Form.useFormInstance();
  const watched = Form.useWatch(currencyField, form) as string | null | undefined;
  const currency = watched ?? (record?.[currencyField] as string | null | undefined) ?? null;
  return (
    <MoneyTextInput
      id={props.id}
      disabled={props.disabled}
      value={props.value}
      onChange={props.onChange}
      currency={currency}
      width={240}
    />
  );
}

/** A rate in basis points typed as a percentage: 12.34 % is stored as 1234 (read as text, never a float). */
export function RateInput({
  min: _min,
  max: _max,
  ...props
}: ControlProps<number> & { min?: number; max?: number }) {
  return (
    <RateTextInput
      id={props.id}
      disabled={props.disabled}
      value={props.value}
      onChange={props.onChange}
      width={200}
    />
  );
}

/**
 * A date and time picked in Hong Kong time, kept as an ISO time with its offset (`…T18:30:00+08:00`); the
 * picker is loaded when a form shows one, so that list screens do not carry it.
 */
const LazyDateTimeInput = lazy(() => import('./date-time-input'));
export function DateTimeInput(props: ControlProps<string>) {
  return (
    <Suspense fallback={null}>
      <LazyDateTimeInput {...props} />
    </Suspense>
  );
}

/** A colour kept as `#rrggbb`: antd's colour picker is loaded when a form shows one (it is heavy). */
const LazyColorInput = lazy(() => import('./color-input'));
export function ColorInput(props: ControlProps<string>) {
  return (
    <Suspense fallback={null}>
      <LazyColorInput {...props} />
    </Suspense>
  );
}

/** A value of an option list: its active values, labelled in the interface language. */
export function OptionSelect({
  list,
  ...props
}: ControlProps<string> & { list: string; allowClear?: boolean }) {
  const { data, isFetching } = useOptionListQuery({ list, activeOnly: true });
  return <ChoiceSelect choices={data} loading={isFetching} {...props} />;
}

/** The API path of a declared resource a lookup refers to. */
export function lookupPath(resource: string): string | null {
  return declarationByName(resource)?.path ?? null;
}

/**
 * The choices of a lookup for what is typed (`GET /api{path}/lookup?q=` answers `[{ id, label }]`), asked once
 * the picker opens, and the labels of every choice seen so far (a chosen value keeps its name).
 */
function useLookupChoices(path: string | null, params: Record<string, string> | undefined, skip: boolean) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [labels, setLabels] = useState<Map<number, string>>(() => new Map());
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const { data, isFetching } = useLookupChoicesQuery(
    { path: path ?? '', q, ...(params ? { params } : {}) },
    { skip: !path || !open || skip },
  );
  useEffect(() => {
    if (!data?.length) return;
    setLabels((known) => {
      const next = new Map(known);
      for (const c of data) next.set(c.id, c.label);
      return next;
    });
  }, [data]);
  const choices = (skip ? [] : (data ?? [])).map((c) => ({ value: c.id, label: c.label }));
  return { choices, labels, isFetching, setTyped, setOpen };
}

/**
 * A record of another resource, searched as one types (`GET /api{path}/lookup?q=` answers `[{ id, label }]`).
 * The current value keeps its name (`initialLabel`: the row's `<field>_name`) until the choices hold it.
 * `params` narrow the choices by the list's filters (`{ parent_id: '3' }`: the districts of area 3); `path`
 * asks another collection than the resource's own (a child resource under its parent: `/schools/5/subjects`).
 */
export function LookupSelect({
  resource,
  path: pathProp,
  params,
  initialLabel,
  allowClear = true,
  placeholder,
  ariaLabel,
  width,
  ...props
}: ControlProps<number> & {
  resource: string;
  path?: string | null;
  params?: Record<string, string>;
  initialLabel?: string | null;
  allowClear?: boolean;
  placeholder?: string;
  ariaLabel?: string;
  width?: number;
}) {
  const path = pathProp ?? lookupPath(resource);
  const { choices, labels, isFetching, setTyped, setOpen } = useLookupChoices(path, params, false);
  const options = [...choices];
  const value = props.value ?? null;
  if (value !== null && !options.some((o) => o.value === value))
    options.unshift({ value, label: labels.get(value) ?? initialLabel ?? '' });
  return (
    <Select<number>
      id={props.id}
      disabled={props.disabled}
      value={value ?? undefined}
      onChange={(v: number | undefined) => props.onChange?.(v ?? null)}
      options={options}
      loading={isFetching}
      allowClear={allowClear}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      onOpenChange={setOpen}
      placeholder={placeholder}
      aria-label={ariaLabel}
      style={width ? { width } : { maxWidth: 400 }}
    />
  );
}

/** Several records of another resource (a collection of ids), searched as one types; each keeps its name. */
export function LookupMultiSelect({
  resource,
  path: pathProp,
  initialLabels = [],
  ariaLabel,
  ...props
}: ControlProps<number[]> & {
  resource: string;
  path?: string | null;
  /** the names of the values held (a read's `<name without _ids>_names`: `[{ id, label }]`) */
  initialLabels?: readonly { id: number; label: string }[];
  ariaLabel?: string;
}) {
  const path = pathProp ?? lookupPath(resource);
  const { choices, labels, isFetching, setTyped, setOpen } = useLookupChoices(path, undefined, false);
  const value = props.value ?? [];
  const options = [...choices];
  for (const id of value)
    if (!options.some((o) => o.value === id))
      options.push({
        value: id,
        label: labels.get(id) ?? initialLabels.find((l) => l.id === id)?.label ?? String(id),
      });
  return (
    <Select<number[]>
      id={props.id}
      mode="multiple"
      disabled={props.disabled}
      value={value}
      onChange={(v: number[] | undefined) => props.onChange?.(v ?? [])}
      options={options}
      loading={isFetching}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      onOpenChange={setOpen}
      aria-label={ariaLabel}
      style={{ maxWidth: 640, width: '100%' }}
    />
  );
}

/**
 * A lookup whose choices another field of the form narrows (a district by its area: `narrowedBy`): asked with
 * that field's value as the declared filter, and disabled until that field is given (the form empties it when
 * that field changes).
 */
function NarrowedLookupSelect({
  narrowedBy,
  ...props
}: Parameters<typeof LookupSelect>[0] & { narrowedBy: { field: string; filter: string } }) {
  const form = Form.useFormInstance();
  const by = Form.useWatch(narrowedBy.field, form) as number | string | null | undefined;
  const given = by !== null && by !== undefined && by !== '';
  return (
    <LookupSelect
      {...props}
      params={given ? { [narrowedBy.filter]: String(by) } : undefined}
      disabled={props.disabled || !given}
    />
  );
}

/**
 * The lookup path of the ids of a collection: a child resource of the same parent as the form's record (an
 * intake's subjects, of its school) is asked under that parent (`/schools/5/subjects`), from the form's own
 * collection (`/api/schools/5/admissions`); another resource at its own path.
 */
export function collectionLookupPath(
  decl: Pick<ResourceDeclaration, 'parent'>,
  resource: string,
  formApiPath: string | null,
): string | null {
  const target = declarationByName(resource);
  if (!target) return null;
  if (target.parent && decl.parent && target.parent.resource === decl.parent.resource && formApiPath) {
    const parentRecord = formApiPath
      .replace(/^\/api/, '')
      .split('/')
      .slice(0, -1)
      .join('/');
    return `${parentRecord}/${target.parent.segment}`;
  }
  return target.path;
}

function IdsCollectionInput({
  decl,
  name,
  resource,
  record,
  ...props
}: ControlProps<number[]> & {
  decl: ResourceDeclaration;
  name: string;
  resource: string;
  record: Record<string, unknown> | null;
}) {
  const { t } = useTranslation();
  const context = useResourceFormContext();
  const names = record?.[`${name.replace(/_ids$/, '')}_names`];
  return (
    <LookupMultiSelect
      resource={resource}
      path={collectionLookupPath(decl, resource, context?.apiPath ?? null)}
      initialLabels={Array.isArray(names) ? (names as { id: number; label: string }[]) : []}
      ariaLabel={t(fieldLabelKey(decl.name, name))}
      {...props}
    />
  );
}

/**
 * A collection of rows (a checklist, a timetable) edited as a table: loaded with the form that shows one (see
 * collection-input.tsx).
 */
const LazyCollectionRowsInput = lazy(() => import('./collection-input'));

/** A record's file field (a logo): its upload control, loaded with the form that shows one. */
const LazyFileFieldInput = lazy(() => import('./file-field-input'));

/** The form input of one declared field (`resource`: the declaration's name, labelling a text field's `values`). */
export function declaredInput(name: string, field: FieldDeclaration, resource?: string): ResourceFieldInput {
  switch (field.type) {
    case 'text':
      if (field.values && resource) {
        const values = field.values;
        return {
          type: 'select',
          allowClear: !field.required,
          options: () =>
            values.map((v) => ({ value: v, label: i18next.t(valueLabelKey(resource, name, v)) })),
        };
      }
      return { type: field.multiline ? 'textarea' : 'text' };
    case 'email':
      return { type: 'text' };
    case 'integer':
      return { type: 'number', min: field.min, max: field.max };
    case 'date':
      return { type: 'date' };
    case 'boolean':
      return { type: 'switch' };
    case 'money':
      return {
        type: 'custom',
        render: (p) => {
          const { record, ...c } = control<number>(p);
          return <MoneyInput currencyField={field.currency} record={record} min={field.min} {...c} />;
        },
      };
    case 'rate':
      return {
        type: 'custom',
        render: (p) => {
          const { record: _record, ...c } = control<number>(p);
          return <RateInput min={field.min} max={field.max} {...c} />;
        },
      };
    case 'datetime':
      return {
        type: 'custom',
        render: (p) => {
          const { record: _record, ...c } = control<string>(p);
          return <DateTimeInput {...c} />;
        },
      };
    case 'currency':
    case 'option':
      return {
        type: 'custom',
        render: (p) => {
          const { record: _record, ...c } = control<string>(p);
          return <OptionSelect list={optionListOf(field)} allowClear={!field.required} {...c} />;
        },
      };
    case 'lookup':
      return {
        type: 'custom',
        render: (p) => {
          const { record, ...c } = control<number>(p);
          const label = record?.[lookupNameField(name)];
          const common = {
            resource: field.resource,
            initialLabel: typeof label === 'string' ? label : null,
            allowClear: !field.required,
            ...c,
          };
          return field.narrowedBy ? (
            <NarrowedLookupSelect narrowedBy={field.narrowedBy} {...common} />
          ) : (
            <LookupSelect {...common} />
          );
        },
      };
    case 'color':
      return {
        type: 'custom',
        render: (p) => {
          const { record: _record, ...c } = control<string>(p);
          return <ColorInput {...c} />;
        },
      };
    case 'richtext':
      return {
        type: 'custom',
        render: (p) => {
          const { record: _record, ...c } = control<string>(p);
          return (
            <RichTextEditor
              id={c.id}
              value={c.value ?? undefined}
              onChange={(html) => c.onChange?.(html)}
              disabled={c.disabled}
            />
          );
        },
      };
    case 'file':
      return {
        type: 'custom',
        render: (p) => {
          const { record, value, disabled } = control<number>(p);
          return (
            <Suspense fallback={null}>
              <LazyFileFieldInput
                resource={resource ?? ''}
                name={name}
                accept={field.accept ?? 'any'}
                value={value ?? null}
                record={record}
                disabled={disabled}
              />
            </Suspense>
          );
        },
      };
  }
}

/** The list filters of a declaration: its filterable fields (a date as a from / to pair) and its states. */
export function declaredFilters(decl: ResourceDeclaration): ResourceFilter[] {
  const filters: ResourceFilter[] = [];
  for (const [name, field] of Object.entries(decl.fields)) {
    if (!field.filterable) continue;
    const labelKey = fieldLabelKey(decl.name, name);
    switch (field.type) {
      case 'boolean':
        filters.push({
          name,
          labelKey,
          type: 'select',
          options: [
            { value: 'true', labelKey: 'common.yes' },
            { value: 'false', labelKey: 'common.no' },
          ],
        });
        break;
      case 'date':
      case 'datetime':
        filters.push(
          { name: `${name}_from`, labelKey, rangeEnd: 'from', type: 'date' },
          { name: `${name}_to`, labelKey, rangeEnd: 'to', type: 'date' },
        );
        break;
      case 'lookup':
        filters.push(lookupFilter(name, labelKey, field.resource, field.narrowedBy));
        break;
      case 'option':
      case 'currency': {
        // a value of the option list, by its label
        const list = optionListOf(field);
        filters.push({
          name,
          labelKey,
          type: 'custom',
          render: ({ value, onChange, label }) => (
            <OptionFilter list={list} value={value} onChange={onChange} label={label} />
          ),
        });
        break;
      }
      case 'integer':
      case 'money':
        filters.push({ name, labelKey, type: 'number' });
        break;
      default:
        if (field.type === 'text' && field.values)
          filters.push({
            name,
            labelKey,
            type: 'select',
            options: field.values.map((value) => ({
              value,
              labelKey: valueLabelKey(decl.name, name, value),
            })),
          });
        else filters.push({ name, labelKey, type: 'text' });
    }
  }
  // filters over related rows (students who applied to an intake): a lookup's picker, as a lookup field's
  for (const [name, filter] of Object.entries(decl.filters ?? {}))
    if (filter.type === 'lookup')
      filters.push(lookupFilter(name, fieldLabelKey(decl.name, name), filter.resource));
  if (decl.states) {
    filters.push({
      name: decl.states.column,
      labelKey: fieldLabelKey(decl.name, decl.states.column),
      type: 'select',
      options: decl.states.values.map((value) => ({
        value,
        labelKey: `resources.${decl.name}.states.${value}`,
      })),
    });
  }
  return filters;
}

/**
 * A list filter by a record of another resource, picked by its name as the rows show it (never an id typed in);
 * narrowed by another filter (a district by its area): offered once that one is chosen, emptied when it changes.
 */
export function lookupFilter(
  name: string,
  labelKey: string,
  resource: string,
  narrowedBy?: { field: string; filter: string },
): ResourceFilter {
  return {
    name,
    labelKey,
    type: 'custom',
    ...(narrowedBy ? { narrowedBy: narrowedBy.field } : {}),
    render: ({ value, onChange, label, query }) => {
      const by = narrowedBy ? query?.[narrowedBy.field] : undefined;
      return (
        <LookupSelect
          resource={resource}
          params={narrowedBy && by ? { [narrowedBy.filter]: by } : undefined}
          disabled={Boolean(narrowedBy) && !by}
          value={value ? Number(value) : null}
          onChange={(id) => onChange(id === null || id === undefined ? undefined : String(id))}
          placeholder={label}
          ariaLabel={label}
          width={180}
        />
      );
    },
  };
}

/** A list filter by an option list's value, picked by its label. */
function OptionFilter({
  list,
  value,
  onChange,
  label,
}: {
  list: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  label: string;
}) {
  const { i18n } = useTranslation();
  const { data, isFetching } = useOptionListQuery({ list, activeOnly: false });
  const options = (data ?? []).map((o) => ({
    value: o.value,
    label: choiceLabel(data, o.value, i18n.language),
  }));
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: value });
  return (
    <Select<string>
      aria-label={label}
      placeholder={label}
      value={value}
      onChange={(v: string | undefined) => onChange(v ?? undefined)}
      options={options}
      loading={isFetching}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ minWidth: 160 }}
    />
  );
}

/** The table columns of a declaration: its listed fields, in declaration order. */
export function declaredColumns(decl: ResourceDeclaration): ResourceColumn[] {
  return Object.entries(decl.fields)
    .filter(([, field]) => isListed(field))
    .map(([name, field]) => ({
      key: name,
      titleKey: fieldLabelKey(decl.name, name),
      sortable: Boolean(field.sortable),
      render: declaredCell(decl, name, field),
    }));
}

/** A collection's rows as sent: each row's `id` (when it has one) and its declared fields, nothing else. */
export function collectionRows(collection: CollectionDeclaration, value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  // a row's read-only fields (a line's net amount) are the server's: never sent back
  const names = [
    'id',
    ...Object.entries(collection.fields ?? {})
      .filter(([, field]) => !field.readOnly)
      .map(([name]) => name),
  ];
  return value.map((row: Record<string, unknown> | undefined) => {
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const cell = row?.[name];
      if (cell === undefined || (name === 'id' && cell === null)) continue;
      out[name] = cell === '' ? null : cell;
    }
    return out;
  });
}

/** The form field of one of a declaration's collections: a multi-select of ids, or a table of rows. */
export function collectionField(
  decl: ResourceDeclaration,
  name: string,
  collection: CollectionDeclaration,
): ResourceField {
  const common = {
    name,
    labelKey: fieldLabelKey(decl.name, name),
    ...(collection.help ? { helpKey: `resources.${decl.name}.help.${name}` } : {}),
  };
  const ids = collection.ids;
  if (ids) {
    return {
      ...common,
      input: {
        type: 'custom',
        render: (p) => {
          const { record, ...c } = control<number[]>(p);
          return (
            <IdsCollectionInput decl={decl} name={name} resource={ids.resource} record={record} {...c} />
          );
        },
      },
    };
  }
  return {
    ...common,
    input: {
      type: 'group',
      // each row with its id (an existing row keeps it) and its declared fields, in the order shown
      body: (value) => collectionRows(collection, value),
      render: (p) => (
        <Suspense fallback={null}>
          <LazyCollectionRowsInput {...p} resource={decl.name} collection={collection} />
        </Suspense>
      ),
    },
  };
}

/**
 * The form fields of a declaration: its writable fields and its files (uploaded on their own routes, never sent
 * with the record), in declaration order, then its collections; what the server computes last.
 */
export function declaredFields(decl: ResourceDeclaration, tab?: string): ResourceField[] {
  const writable = new Set(writableFields(decl).map(([name]) => name));
  // a field shown on another tab's form (a quotation's contract) is that tab's; the first tab's form has the others
  const first = decl.tabs?.[0];
  const onTab = (field: FieldDeclaration) =>
    tab === undefined || tab === first ? !field.tab || field.tab === first : field.tab === tab;
  const own: ResourceField[] = Object.entries(decl.fields)
    .filter(([, field]) => onTab(field))
    .filter(([name, field]) => writable.has(name) || (field.type === 'file' && !field.readOnly))
    .map(([name, field]) => ({
      name,
      labelKey: fieldLabelKey(decl.name, name),
      input: declaredInput(name, field, decl.name),
      ...(field.help ? { helpKey: `resources.${decl.name}.help.${name}` } : {}),
      ...(field.type === 'file' ? { readOnly: true } : {}),
      ...(field.type === 'lookup' && field.narrowedBy ? { narrowedBy: field.narrowedBy.field } : {}),
    }));
  const collections =
    tab === undefined || tab === first
      ? Object.entries(decl.collections ?? {}).map(([name, collection]) =>
          collectionField(decl, name, collection),
        )
      : [];
  // what the server computes (a generated number, a last sign-in) is shown on a record, never sent back
  const computed: ResourceField[] = Object.entries(decl.fields)
    .filter(([name, field]) => field.readOnly && name !== 'id' && onTab(field))
    .map(([name, field]) => ({
      name,
      labelKey: fieldLabelKey(decl.name, name),
      only: 'edit' as const,
      readOnly: true,
      input: {
        type: 'custom' as const,
        render: ({ record }: CustomFieldProps) => (
          <Typography.Text data-testid={`computed-${name}`}>
            {record
              ? (renderDeclaredValue(decl, name, field, record, {
                  t: i18next.t,
                  language: i18next.language,
                }) ?? '')
              : ''}
          </Typography.Text>
        ),
      },
    }));
  return [...own, ...collections, ...computed];
}

/** An item placed among the derived ones: after or before a named one, else at the end. */
export type Placed<X> = X & { after?: string; before?: string };

/**
 * What a screen changes of its derived config. Everything of `ResourceConfig` besides columns, filters and form
 * is taken as given (tabs, toolbar, rowActions, canDelete, referencedHintKey, routePath, apiPath for a child
 * resource, titleKey, recordTitle, reorder, listBody …).
 */
export interface DeclarationOverrides<T extends ResourceRow = ResourceRow> extends Partial<
  Omit<ResourceConfig<T>, 'columns' | 'filters' | 'form'>
> {
  /** per declared column: a custom renderer, width or title (`false` hides it); or a function of them all */
  columns?:
    | { [field: string]: Partial<ResourceColumn<T>> | false }
    | ((derived: ResourceColumn<T>[]) => ResourceColumn<T>[]);
  /** more columns (computed ones: a count, a related code), placed after / before a declared one */
  extraColumns?: Placed<ResourceColumn<T>>[];
  /** per declared form field: another input, a help key, `locked`, `only` (`false` leaves it out); or a function */
  fields?:
    { [field: string]: Partial<ResourceField> | false } | ((derived: ResourceField[]) => ResourceField[]);
  /** more form fields (a password on create, a hidden parent id), placed after / before a declared one */
  extraFields?: Placed<ResourceField>[];
  /** the filters instead of the derived ones, or a function of them */
  filters?: ResourceFilter[] | ((derived: ResourceFilter[]) => ResourceFilter[]);
  /** the schemas or the initial values instead of the derived ones; `false`: no form */
  form?: Partial<NonNullable<ResourceConfig<T>['form']>> | false;
  /** the record page of a declaration with `tabs`: per tab, what it shows beyond what is derived */
  recordTabs?: { [tab: string]: DeclaredTabOverride };
  /** more actions beside a record's title, after its state moves and print (convert, e-mail) */
  recordActions?: (record: ResourceRow, ctx: RecordTabContext) => ReactNode;
}

/**
 * One tab of a declared record page (declared-record-page.tsx), as a screen changes it: its content (a tab
 * showing something of its own: the attachments), a permission it needs, or — a tab listing a child resource
 * (the `subject` tab of `school`: `school_subject`) — the child's own overrides (its columns, its form); more
 * shown above or below what the tab derives (a student's warnings over the form, its portal access under it);
 * what a child's record shows under its form (an application's document checklist).
 */
export interface DeclaredTabOverride {
  render?: RecordTab['render'];
  permission?: string;
  child?: DeclarationOverrides;
  /**
   * a tab listing several children (the declaration's `tabChildren`): each one's overrides, by the
   * path segment its records open under
   */
  children?: { [part: string]: DeclarationOverrides };
  /** shown above the tab's derived content (the record's form, a child's list) */
  above?: RecordTab['render'];
  /** shown below it */
  below?: RecordTab['render'];
  /** shown under the form of a child's record the tab opens (not of a new one): the record, the tab's context */
  childRecordBelow?: (child: ResourceRow, ctx: RecordTabContext) => ReactNode;
}

function patch<X>(
  derived: X[],
  change: { [name: string]: Partial<X> | false } | ((derived: X[]) => X[]) | undefined,
  idOf: (x: X) => string,
): X[] {
  if (!change) return derived;
  if (typeof change === 'function') return change(derived);
  return derived.flatMap((item) => {
    const c = change[idOf(item)];
    if (c === false) return [];
    return [c ? { ...item, ...c } : item];
  });
}

function place<X>(items: X[], extra: Placed<X>[] | undefined, idOf: (x: X) => string): X[] {
  const out = [...items];
  for (const { after, before, ...item } of extra ?? []) {
    const anchor = after ?? before;
    const at = anchor === undefined ? -1 : out.findIndex((x) => idOf(x) === anchor);
    if (at < 0) out.push(item as X);
    else out.splice(after !== undefined ? at + 1 : at, 0, item as X);
  }
  return out;
}

/** The config of the generic list and form pages, from a declaration and the screen's overrides. */
export function configFromDeclaration<T extends ResourceRow = ResourceRow>(
  decl: ResourceDeclaration,
  overrides: DeclarationOverrides<T> = {},
): ResourceConfig<T> {
  const {
    columns: columnChanges,
    extraColumns,
    fields: fieldChanges,
    extraFields,
    filters: filterChanges,
    form: formChanges,
    recordTabs: _recordTabs,
    recordActions: _recordActions,
    ...rest
  } = overrides;
  const readOnly = overrides.readOnly ?? Boolean(decl.readOnly);
  const schemas = deriveSchemas(decl);
  const columnKey = (c: ResourceColumn<T>) => c.key;
  const fieldName = (f: ResourceField) => f.name;
  const columns = place(
    patch(declaredColumns(decl) as ResourceColumn<T>[], columnChanges, columnKey),
    extraColumns,
    columnKey,
  );
  const fields = place(patch(declaredFields(decl), fieldChanges, fieldName), extraFields, fieldName);
  const derivedFilters = declaredFilters(decl);
  const filters =
    typeof filterChanges === 'function' ? filterChanges(derivedFilters) : (filterChanges ?? derivedFilters);
  const form: ResourceConfig<T>['form'] =
    readOnly || formChanges === false
      ? undefined
      : { create: schemas.create, update: schemas.update, fields, ...(formChanges || {}) };
  const routePath = decl.page?.route ?? `/${decl.path.replace(/^\//, '')}`;
  return {
    name: decl.name,
    apiPath: `/api${decl.path}`,
    routePath,
    // a record page with tabs opens on its first tab (`/schools/basic/5`, `/schools/basic/create`)
    ...(decl.tabs?.length ? { recordPath: `${routePath}/${decl.tabs[0]}` } : {}),
    ...(decl.page?.createRoute ? { createPath: decl.page.createRoute } : {}),
    module: decl.module,
    titleKey: `resources.${decl.name}.title`,
    searchable: Object.values(decl.fields).some((f) => f.searchable),
    exportable: !readOnly,
    importable: Boolean(decl.importable) && !readOnly,
    recordTitle: (row, language) => displayName(decl, row, language) || `${String(row.id ?? '')}`,
    auditEntity: decl.name,
    // its declared moves, at its own path (a child's too: `/api/special-event-registrations/{id}/attend`)
    ...(decl.states
      ? {
          moves: {
            apiPath: `/api${decl.path}`,
            actions: Object.keys(decl.states.actions),
            declared: decl.states.actions,
          },
        }
      : {}),
    columns,
    ...(filters.length ? { filters } : {}),
    ...(form ? { form } : {}),
    ...rest,
    readOnly,
    undeletable: Boolean(decl.undeletable),
  };
}

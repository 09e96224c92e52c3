import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Form, InputNumber, Select, Typography } from 'antd';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  fieldLabelKey,
  isListed,
  lookupNameField,
  type FieldDeclaration,
  type ResourceDeclaration,
} from '../../../../shared/resources/declaration';
import { deriveSchemas, displayName, writableFields } from '../../../../shared/resources/derive';
import { declarationByName } from '../../../../shared/resources';
import { RichTextEditor } from '../../features/settings/terms/rich-text-editor';
import { optionLabel, useLookupChoicesQuery, useOptionListQuery } from './declared-api';
import {
  currencyDigits,
  declaredCell,
  renderDeclaredValue,
  optionListOf,
  toMajorUnits,
  valueLabelKey,
  toMinorUnits,
} from './renderers';
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

/** A control a form item hands its `id`, `value`, `onChange` and `disabled`. */
export interface ControlProps<V> {
  id?: string;
  value?: V | null;
  onChange?: (value: V | null) => void;
  disabled?: boolean;
}

/** Custom-field props as the form page hands them, typed for the control. */
function control<V>(props: CustomFieldProps): ControlProps<V> & { record: Record<string, unknown> | null } {
  return props as unknown as ControlProps<V> & { record: Record<string, unknown> | null };
}

/** A money amount typed in major units and kept in integer minor units of the currency in `currencyField`. */
export function MoneyInput({
  currencyField,
  record,
  min,
  ...props
}: ControlProps<number> & { currencyField: string; record: Record<string, unknown> | null; min?: number }) {
  const form = Form.useFormInstance();
  const watched = Form.useWatch(currencyField, form) as string | null | undefined;
  const currency = watched ?? (record?.[currencyField] as string | null | undefined) ?? null;
  const digits = currencyDigits(currency);
  const shown =
    props.value === null || props.value === undefined ? null : toMajorUnits(props.value, currency);
  return (
    <InputNumber<number>
      id={props.id}
      disabled={props.disabled}
      value={shown}
      precision={digits}
      min={min === undefined ? undefined : toMajorUnits(min, currency)}
      prefix={currency ?? undefined}
      style={{ width: 240 }}
      formatter={(v) =>
        v === undefined || v === null || v === ('' as never) ? '' : addSeparators(String(v))
      }
      parser={(v) => Number((v ?? '').replace(/,/g, ''))}
      onChange={(v) => props.onChange?.(v === null || v === undefined ? null : toMinorUnits(v, currency))}
    />
  );
}

function addSeparators(text: string): string {
  const [whole, fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** A rate in basis points typed as a percentage: 12.34 % is stored as 1234. */
export function RateInput({ min, max, ...props }: ControlProps<number> & { min?: number; max?: number }) {
  return (
    <InputNumber<number>
      id={props.id}
      disabled={props.disabled}
      value={props.value === null || props.value === undefined ? null : props.value / 100}
      precision={2}
      min={min === undefined ? 0 : min / 100}
      max={max === undefined ? undefined : max / 100}
      suffix="%"
      style={{ width: 200 }}
      onChange={(v) => props.onChange?.(v === null || v === undefined ? null : Math.round(v * 100))}
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
  allowClear = true,
  ...props
}: ControlProps<string> & { list: string; allowClear?: boolean }) {
  const { i18n } = useTranslation();
  const { data, isFetching } = useOptionListQuery({ list, activeOnly: true });
  const options = useMemo(() => {
    const out = (data ?? []).map((o) => ({
      value: o.value,
      label: optionLabel(data, o.value, i18n.language),
    }));
    // a value since deactivated still shows (and stays) on the records that hold it
    if (props.value && !out.some((o) => o.value === props.value))
      out.push({ value: props.value, label: props.value });
    return out;
  }, [data, i18n.language, props.value]);
  return (
    <Select
      id={props.id}
      disabled={props.disabled}
      value={props.value ?? undefined}
      onChange={(v: string | undefined) => props.onChange?.(v ?? null)}
      options={options}
      loading={isFetching}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      style={{ maxWidth: 400 }}
    />
  );
}

/** The API path of a declared resource a lookup refers to. */
export function lookupPath(resource: string): string | null {
  return declarationByName(resource)?.path ?? null;
}

/**
 * A record of another resource, searched as one types (`GET /api{path}/lookup?q=` answers `[{ id, label }]`).
 * The current value keeps its name (`initialLabel`: the row's `<field>_name`) until the choices hold it.
 */
export function LookupSelect({
  resource,
  initialLabel,
  allowClear = true,
  placeholder,
  ariaLabel,
  width,
  ...props
}: ControlProps<number> & {
  resource: string;
  initialLabel?: string | null;
  allowClear?: boolean;
  placeholder?: string;
  ariaLabel?: string;
  width?: number;
}) {
  const path = lookupPath(resource);
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [labels, setLabels] = useState<Map<number, string>>(() => new Map());
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const { data, isFetching } = useLookupChoicesQuery({ path: path ?? '', q }, { skip: !path || !open });
  useEffect(() => {
    if (!data?.length) return;
    setLabels((known) => {
      const next = new Map(known);
      for (const c of data) next.set(c.id, c.label);
      return next;
    });
  }, [data]);
  const options = (data ?? []).map((c) => ({ value: c.id, label: c.label }));
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

/** A stored file, shown (its upload field is a later issue). */
function FileValue({ label, value }: { label: unknown; value: unknown }) {
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  return <Typography.Text>{label ? String(label) : String(value)}</Typography.Text>;
}

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
          return (
            <LookupSelect
              resource={field.resource}
              initialLabel={typeof label === 'string' ? label : null}
              allowClear={!field.required}
              {...c}
            />
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
          const { record, value } = control<number>(p);
          return <FileValue value={value} label={record?.[lookupNameField(name)]} />;
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
          { name: `${name}_from`, labelKey, type: 'date' },
          { name: `${name}_to`, labelKey, type: 'date' },
        );
        break;
      case 'lookup': {
        // picked by name, as the rows show it (never an id typed in)
        const resource = field.resource;
        filters.push({
          name,
          labelKey,
          type: 'custom',
          render: ({ value, onChange, label }) => (
            <LookupSelect
              resource={resource}
              value={value ? Number(value) : null}
              onChange={(id) => onChange(id === null || id === undefined ? undefined : String(id))}
              placeholder={label}
              ariaLabel={label}
              width={180}
            />
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

/** The form fields of a declaration: its writable fields, in declaration order. */
export function declaredFields(decl: ResourceDeclaration): ResourceField[] {
  const writable = writableFields(decl).map(([name, field]) => ({
    name,
    labelKey: fieldLabelKey(decl.name, name),
    input: declaredInput(name, field, decl.name),
    ...(field.help ? { helpKey: `resources.${decl.name}.help.${name}` } : {}),
  }));
  // what the server computes (a generated number, a last sign-in) is shown on a record, never sent back
  const computed: ResourceField[] = Object.entries(decl.fields)
    .filter(([name, field]) => field.readOnly && name !== 'id')
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
  return [...writable, ...computed];
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
  return {
    name: decl.name,
    apiPath: `/api${decl.path}`,
    routePath: decl.page?.route ?? `/${decl.path.replace(/^\//, '')}`,
    module: decl.module,
    titleKey: `resources.${decl.name}.title`,
    searchable: Object.values(decl.fields).some((f) => f.searchable),
    exportable: !readOnly,
    importable: Boolean(decl.importable) && !readOnly,
    recordTitle: (row, language) => displayName(decl, row, language) || `${String(row.id ?? '')}`,
    auditEntity: decl.name,
    columns,
    ...(filters.length ? { filters } : {}),
    ...(form ? { form } : {}),
    ...rest,
    readOnly,
  };
}

import type { Knex } from 'knex';
import {
  lookupNameField,
  isExported,
  fieldLabelKey,
  stateLabelKey,
  valueLabelKey,
} from '../../../shared/resources/declaration';
import type { FieldDeclaration, ResourceDeclaration } from '../../../shared/resources/declaration';
import { declaredDefaults, deriveSchemas } from '../../../shared/resources/derive';
import { DECLARATIONS } from '../../../shared/resources';
import resourcesEn from '../../../shared/resources/locales/en.json';
import resourcesZh from '../../../shared/resources/locales/zh_HK.json';
import type { ExportColumn, LookupRelation, ResourceDefinition, Row } from './resource';
import { apiDateTime, binding, instantMs } from './rows';
import { toDbDateTime } from '../lib/clock';
import { AppError } from '../lib/app-error';
import { resourceRepository } from './resource.repository';
import { searchColumnsOf } from '../db/search';

type Dictionary = { [key: string]: string | Dictionary };

function lookupText(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** A declared string in both languages (`resources.…`); a missing one fails at start-up, not in a file. */
export function declaredLabel(key: string): { en: string; zh: string } {
  const en = lookupText(resourcesEn as Dictionary, key);
  const zh = lookupText(resourcesZh as Dictionary, key);
  if (!en || !zh) throw new Error(`The resource string ${key} is missing in en or zh_HK`);
  return { en, zh };
}

function targetOf(decl: ResourceDeclaration, field: string, resource: string): ResourceDeclaration {
  const target = DECLARATIONS.find((d) => d.name === resource);
  if (!target) throw new Error(`${decl.name}.${field} looks up "${resource}", which is not declared`);
  return target;
}

/** The lookups and option labels every row carries, from the declared fields. */
function relationsOf(decl: ResourceDeclaration): LookupRelation[] {
  const out: LookupRelation[] = [];
  for (const [name, field] of Object.entries(decl.fields)) {
    if (field.type === 'lookup') {
      const target = targetOf(decl, name, field.resource);
      out.push({ field: name, as: lookupNameField(name), table: target.table, label: target.display });
    } else if (field.type === 'file') {
      // a file field's row names its file: `logo_file_id` → `logo_file_name`
      out.push({
        field: name,
        as: lookupNameField(name),
        table: 'files',
        label: { en: ['original_name'], zh_HK: ['original_name'] },
      });
    } else if (field.type === 'option') {
      out.push({
        field: name,
        as: `${name}_label`,
        table: 'options',
        key: 'value',
        where: { key: field.key },
        label: { en: ['label_en'], zh_HK: ['label_zh'] },
      });
    }
  }
  return out;
}

/** The export's column of a field: a lookup or option exports its name, not its id or code. */
function exportColumnOf(decl: ResourceDeclaration, name: string, field: FieldDeclaration): ExportColumn {
  const { en, zh } = declaredLabel(fieldLabelKey(decl.name, name));
  if (field.type === 'lookup') return { key: lookupNameField(name), en, zh };
  if (field.type === 'option')
    return { key: `${name}_label`, en, zh, value: (row: Row) => row[`${name}_label`] ?? row[name] };
  if (field.type === 'money') {
    return {
      key: name,
      en,
      zh,
      value: (row: Row) =>
        row[name] === null || row[name] === undefined ? null : majorUnits(row[name], row[field.currency]),
    };
  }
  if (field.type === 'rate') {
    return { key: name, en, zh, value: (row: Row) => (row[name] === null ? null : Number(row[name]) / 100) };
  }
  // a date cell in XLSX, text in CSV; a time in Hong Kong time like every time a person sees (export.writer.ts)
  if (field.type === 'date' || field.type === 'datetime') return { key: name, en, zh, type: field.type };
  // a declared value by its name in the export's language, as the screens show it (a user's language: English)
  if (field.type === 'text' && field.values) {
    const labelKey = (v: string) =>
      decl.states?.column === name ? stateLabelKey(decl.name, v) : valueLabelKey(decl.name, name, v);
    const names = new Map(field.values.map((v) => [v, declaredLabel(labelKey(v))]));
    return {
      key: name,
      en,
      zh,
      value: (row: Row, language) => names.get(String(row[name]))?.[language] ?? row[name],
    };
  }
  return { key: name, en, zh };
}

/** Currencies shown without decimals (ISO 4217 exponent 0) that the agency meets; still stored ×100 (domain.md). */
export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['KRW', 'JPY', 'VND']);

/**
 * Integer minor units as a number in major units. Every currency is stored ×100 (domain.md "Money": one integer
 * rule for all arithmetic), KRW too: `12345` HKD → 123.45; KRW `12345600` → 123456.
 */
export function majorUnits(minor: unknown, _currency?: unknown): number {
  return Number(minor) / 100;
}

/**
 * A number in major units as integer minor units (×100), the inverse of `majorUnits` (123.45 HKD → 12345; KRW
 * 123456 → 12345600). A fraction the currency does not show (KRW 12.5, HKD 1.234) is left a fraction: no rounding
 * hides it (the integer check refuses it).
 */
export function minorUnits(major: number, currency: unknown): number {
  const digits = ZERO_DECIMAL_CURRENCIES.has(String(currency ?? '')) ? 0 : 2;
  const shown = major * 10 ** digits;
  if (Math.abs(shown - Math.round(shown)) >= 1e-6) return major * 100 + 0.5;
  return Math.round(shown) * 10 ** (2 - digits);
}

/**
 * The server's definition of a declared resource: validation, search, sort, filters, uniqueness, references,
 * booleans, export columns in both languages, lookups and option labels, defaults and states, all read from
 * the declaration; `rules` adds what is truly the resource's own (checks that need the database, hooks).
 */
export function definitionFromDeclaration(
  decl: ResourceDeclaration,
  rules: Partial<ResourceDefinition> = {},
): ResourceDefinition {
  const fields = Object.entries(decl.fields);
  if (decl.searchTerms && rules.searchAlso)
    throw new Error(
      `${decl.name}: searchAlso matches columns, which a resource with searchTerms never scans`,
    );
  const schemas = deriveSchemas(decl);
  const unique = [
    ...(decl.unique ?? []).map((set) => [...set]),
    ...fields.filter(([, f]) => f.unique).map(([name]) => [name]),
  ];
  if (decl.parent)
    for (const set of unique) if (!set.includes(decl.parent.column)) set.unshift(decl.parent.column);
  const filters = fields.filter(([, f]) => f.filterable);
  const datetimes = fields.filter(([, f]) => f.type === 'datetime').map(([name]) => name);
  const defaults: Row = declaredDefaults(decl);
  // a new record owns none of its collections yet
  for (const name of Object.keys(decl.collections ?? {})) defaults[name] = [];
  const def: ResourceDefinition = {
    name: decl.name,
    path: decl.path,
    table: decl.table,
    module: decl.module,
    declaration: decl,
    schemas,
    readOnly: decl.readOnly,
    searchable: fields.filter(([, f]) => f.searchable).map(([name]) => `${decl.table}.${name}`),
    searchTerms: decl.searchTerms ? searchColumnsOf(decl) : undefined,
    sortable: fields.filter(([, f]) => f.sortable).map(([name]) => name),
    defaultSort: decl.defaultSort,
    unique,
    references: decl.references?.map((r) => ({ ...r })),
    branchColumn: decl.branchColumn,
    branchVia: decl.branchColumn ? undefined : branchPath(decl),
    booleans: fields.filter(([, f]) => f.type === 'boolean').map(([name]) => name),
    exportName: decl.path.replace(/^\//, '').replace(/\//g, '-'),
    exportColumns: fields.filter(([, f]) => isExported(f)).map(([name, f]) => exportColumnOf(decl, name, f)),
    tree: treeOf(decl),
    lookups: relationsOf(decl),
    label: decl.display,
    states: decl.states,
    applyFilters(qb, values) {
      for (const [name, field] of filters) {
        const column = `${decl.table}.${name}`;
        if (field.type === 'date' || field.type === 'datetime') {
          if (values[`${name}_from`]) qb.where(column, '>=', binding(values[`${name}_from`]));
          if (values[`${name}_to`])
            qb.where(
              column,
              '<=',
              field.type === 'date' ? binding(values[`${name}_to`]) : `${values[`${name}_to`]} 23:59:59`,
            );
        } else if (field.type === 'boolean') {
          if (values[name] !== undefined) qb.where(column, values[name] === 'true' || values[name] === '1');
        } else if (values[name] !== undefined) {
          qb.where(column, binding(values[name]));
        }
      }
      for (const [name, filter] of Object.entries(decl.filters ?? {})) {
        if (values[name] === undefined) continue;
        const value = binding(values[name]);
        qb.whereIn(`${decl.table}.id`, function (this: Knex.QueryBuilder) {
          this.select(filter.via.column).from(filter.via.table).where(name, value);
        });
      }
      if (decl.states && values[decl.states.column]) {
        const state = String(values[decl.states.column]);
        if (rules.stateFilter) rules.stateFilter(qb, state);
        else qb.where(`${decl.table}.${decl.states.column}`, binding(state));
      }
      rules.applyFilters?.(qb, values);
    },
    createForm: async (db, ctx) => ({ defaults, ...((await rules.createForm?.(db, ctx)) ?? {}) }),
    async beforeWrite(db, data, existing, ctx) {
      // an amount is money only with its currency (unless the server sets the currency: a receipt takes its
      // invoice's)
      for (const [name, field] of fields) {
        if (field.type !== 'money' || !(name in data || field.currency in data)) continue;
        if (decl.fields[field.currency]?.readOnly) continue;
        const amount = name in data ? data[name] : existing?.[name];
        const currency = field.currency in data ? data[field.currency] : existing?.[field.currency];
        if (amount !== null && amount !== undefined && !currency)
          throw AppError.field('validation', field.currency, 'currencyForAmount');
      }
      // a lookup names a record that exists (the foreign key is the safety net, not the answer)
      for (const [name, field] of fields) {
        if (field.type !== 'lookup' || typeof data[name] !== 'number') continue;
        const target = targetOf(decl, name, field.resource);
        const [found] = await resourceRepository.findWhere(
          db,
          target.table,
          (qb) => qb.where('id', data[name] as number),
          ['id'],
        );
        if (!found) throw AppError.field('validation', name, 'recordMissing');
      }
      await rules.beforeWrite?.(db, data, existing, ctx);
    },
    // a declared date and time is stored as the database's UTC text and shown as ISO 8601
    async prepare(db, input, existing) {
      const data = { ...input };
      for (const name of datetimes) {
        const ms = instantMs(data[name]);
        if (ms !== null) data[name] = toDbDateTime(ms);
      }
      return rules.prepare ? rules.prepare(db, data, existing) : data;
    },
    toResponse(row) {
      const out = rules.toResponse ? rules.toResponse(row) : row;
      for (const name of datetimes) if (name in out) out[name] = shownDateTime(out[name]);
      return out;
    },
    ...withoutMerged(rules),
  };
  return def;
}

/** A declaration whose records have a parent of their own kind (a lookup of itself: an area's `parent_id`). */
function treeOf(decl: ResourceDeclaration): ResourceDefinition['tree'] {
  const column = Object.entries(decl.fields).find(
    ([, f]) => f.type === 'lookup' && f.resource === decl.name,
  )?.[0];
  return column ? { column } : undefined;
}

/** A stored DATETIME (the database's UTC text, or a Date) as ISO 8601; what is already ISO (or empty) as it is. */
function shownDateTime(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
    ? apiDateTime(value)
    : value;
}

/**
 * How a record without a branch column of its own is in a branch: through the record its `branchVia` field names
 * (an event's registration → its student's `branch_id`), else through its parent's column, up to the first
 * record with a branch column (an application document → its application → its student's `branch_id`); none
 * when that way meets a record of no branch (a registration's event, were it scoped through it).
 */
function branchPath(decl: ResourceDeclaration): ResourceDefinition['branchVia'] {
  const [column, next] = decl.branchVia
    ? [decl.branchVia, lookupTarget(decl, decl.branchVia)]
    : decl.parent
      ? [decl.parent.column, DECLARATIONS.find((d) => d.name === decl.parent!.resource)]
      : [undefined, undefined];
  if (!column || !next) return undefined;
  if (next.branchColumn) return { column, table: next.table, branchColumn: next.branchColumn };
  const above = branchPath(next);
  return above ? { column, table: next.table, via: above } : undefined;
}

/** The declaration a lookup field of `decl` names (its `branchVia`). */
function lookupTarget(decl: ResourceDeclaration, field: string): ResourceDeclaration {
  const spec = decl.fields[field];
  if (spec?.type !== 'lookup') throw new Error(`${decl.name}.${field} (its branchVia) is not a lookup field`);
  return targetOf(decl, field, spec.resource);
}

/**
 * `rules` minus the members merged above (filters, the create form, write checks, the columns written and the
 * row shown are combined, not replaced).
 */
function withoutMerged(rules: Partial<ResourceDefinition>): Partial<ResourceDefinition> {
  const {
    applyFilters: _filters,
    createForm: _form,
    beforeWrite: _write,
    prepare: _prepare,
    toResponse: _response,
    ...rest
  } = rules;
  return rest;
}

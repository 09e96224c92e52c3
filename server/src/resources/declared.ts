import type { Knex } from 'knex';
import {
  lookupNameField,
  isExported,
  fieldLabelKey,
  valueLabelKey,
} from '../../../shared/resources/declaration';
import type { FieldDeclaration, ResourceDeclaration } from '../../../shared/resources/declaration';
import { declaredDefaults, deriveSchemas } from '../../../shared/resources/derive';
import { DECLARATIONS } from '../../../shared/resources';
import resourcesEn from '../../../shared/resources/locales/en.json';
import resourcesZh from '../../../shared/resources/locales/zh_HK.json';
import type { ExportColumn, LookupRelation, ResourceDefinition, Row } from './resource';
import { binding } from './rows';
import { AppError } from '../lib/app-error';
import { BUSINESS_UTC_OFFSET_MS } from '../modules/numbering/business-time';
import { resourceRepository } from './resource.repository';

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
  // stored in UTC, read in Hong Kong time like every time a person sees (the screens' formatDateTime)
  if (field.type === 'datetime')
    return { key: name, en, zh, value: (row: Row) => hongKongDateTime(row[name]) };
  // a declared value by its name in the export's language, as the screens show it (a user's language: English)
  if (field.type === 'text' && field.values) {
    const names = new Map(field.values.map((v) => [v, declaredLabel(valueLabelKey(decl.name, name, v))]));
    return {
      key: name,
      en,
      zh,
      value: (row: Row, language) => names.get(String(row[name]))?.[language] ?? row[name],
    };
  }
  return { key: name, en, zh };
}

/** A stored time (ISO, or SQL `YYYY-MM-DD HH:mm:ss` in UTC) as Hong Kong wall-clock text `YYYY-MM-DD HH:mm:ss`. */
export function hongKongDateTime(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return null;
  const text = value instanceof Date ? value.toISOString() : String(value).trim();
  const iso = /(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text.replace(' ', 'T')}Z`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return value;
  return new Date(ms + BUSINESS_UTC_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
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
  const schemas = deriveSchemas(decl);
  const unique = [
    ...(decl.unique ?? []).map((set) => [...set]),
    ...fields.filter(([, f]) => f.unique).map(([name]) => [name]),
  ];
  if (decl.parent)
    for (const set of unique) if (!set.includes(decl.parent.column)) set.unshift(decl.parent.column);
  const filters = fields.filter(([, f]) => f.filterable);
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
    sortable: fields.filter(([, f]) => f.sortable).map(([name]) => name),
    defaultSort: decl.defaultSort,
    unique,
    references: decl.references?.map((r) => ({ ...r })),
    branchColumn: decl.branchColumn,
    branchVia: decl.branchColumn ? undefined : branchViaParents(decl),
    booleans: fields.filter(([, f]) => f.type === 'boolean').map(([name]) => name),
    exportName: decl.path.replace(/^\//, '').replace(/\//g, '-'),
    exportColumns: fields.filter(([, f]) => isExported(f)).map(([name, f]) => exportColumnOf(decl, name, f)),
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
      if (decl.states && values[decl.states.column])
        qb.where(`${decl.table}.${decl.states.column}`, binding(values[decl.states.column]));
      rules.applyFilters?.(qb, values);
    },
    createForm: async (db, ctx) => ({ defaults, ...((await rules.createForm?.(db, ctx)) ?? {}) }),
    async beforeWrite(db, data, existing, ctx) {
      // an amount is money only with its currency
      for (const [name, field] of fields) {
        if (field.type !== 'money' || !(name in data || field.currency in data)) continue;
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
    ...withoutMerged(rules),
  };
  return def;
}

/**
 * How a child without a branch column of its own is in a branch: through its parent's column up to the first
 * ancestor with one (an application document → its application → its student's `branch_id`).
 */
function branchViaParents(decl: ResourceDeclaration): ResourceDefinition['branchVia'] {
  if (!decl.parent) return undefined;
  const parent = DECLARATIONS.find((d) => d.name === decl.parent!.resource);
  if (!parent) return undefined;
  if (parent.branchColumn)
    return { column: decl.parent.column, table: parent.table, branchColumn: parent.branchColumn };
  const above = branchViaParents(parent);
  return above ? { column: decl.parent.column, table: parent.table, via: above } : undefined;
}

/** `rules` minus the members merged above (filters, the create form and write checks are combined, not replaced). */
function withoutMerged(rules: Partial<ResourceDefinition>): Partial<ResourceDefinition> {
  const { applyFilters: _filters, createForm: _form, beforeWrite: _write, ...rest } = rules;
  return rest;
}

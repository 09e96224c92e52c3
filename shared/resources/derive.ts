import { z } from 'zod';
import { zEmail } from '../schemas/auth';
import { FIELD_MESSAGES } from '../messages';
import type { CollectionDeclaration, FieldDeclaration, ResourceDeclaration } from './declaration';

const MAX_MONEY = 1_000_000_000_000; // 10 billion in major units of a two-decimal currency
const RATE_MAX = 100_000; // 1000 %

/** an id: a positive INT (a larger number is no row of any table, and MySQL would refuse it) */
const zId = z.number().int().positive().max(2_147_483_647);
const zDateText = z.iso.date({ error: FIELD_MESSAGES.invalidDate });

/** The zod type of one declared field's value (required, before `.optional()` for updates). */
function fieldSchema(field: FieldDeclaration): z.ZodType {
  switch (field.type) {
    case 'text': {
      if (field.values) return z.enum(field.values as [string, ...string[]]);
      let s = z.string().trim();
      if (field.uppercase) s = s.toUpperCase();
      s = s.max(field.max);
      if (field.required) s = s.min(Math.max(1, field.min ?? 1), FIELD_MESSAGES.required);
      else if (field.min) s = s.min(field.min);
      if (field.pattern === 'letters_digits') s = s.regex(/^[A-Za-z0-9]*$/, FIELD_MESSAGES.lettersDigits);
      if (field.pattern === 'code')
        s = s.regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$|^$/, FIELD_MESSAGES.optionCode);
      return s;
    }
    case 'richtext':
      return field.required
        ? z.string().max(field.max).min(1, FIELD_MESSAGES.required)
        : z.string().max(field.max);
    case 'email':
      return zEmail;
    case 'integer':
      return z
        .number()
        .int()
        .min(field.min ?? -2_147_483_648)
        .max(field.max ?? 2_147_483_647);
    case 'money':
      return z
        .number()
        .int()
        .min(field.min ?? -MAX_MONEY)
        .max(MAX_MONEY);
    case 'rate':
      return z
        .number()
        .int()
        .min(field.min ?? 0)
        .max(field.max ?? RATE_MAX);
    case 'currency':
      return z.string().regex(/^[A-Z]{3}$/, FIELD_MESSAGES.currencyCode);
    case 'date':
      return zDateText;
    case 'datetime':
      return z.iso.datetime({ offset: true });
    case 'boolean':
      return z.boolean();
    case 'option':
      return z.string().trim().min(1, FIELD_MESSAGES.required).max(40);
    case 'lookup':
    case 'file':
      return zId;
    case 'color':
      return z.string().regex(/^#[0-9a-fA-F]{6}$/, FIELD_MESSAGES.invalidValue);
  }
}

export interface DerivedSchemas {
  create: z.ZodObject;
  update: z.ZodObject;
  /** the list's own filters (`?field=`, `?field_from=` / `?field_to=` for dates) */
  filters: z.ZodObject;
}

/**
 * Whether an optional field may be emptied (sent as null): not a boolean, nor a field with a default (its column
 * is NOT NULL with that default).
 */
export function isNullable(field: FieldDeclaration): boolean {
  if (field.required || field.type === 'boolean') return false;
  return field.default === undefined || field.default === null;
}

/**
 * The writable fields: not read-only, not the parent column (taken from the URL), not a file (uploaded to its
 * own route).
 */
export function writableFields(decl: ResourceDeclaration): [string, FieldDeclaration][] {
  return Object.entries(decl.fields).filter(
    ([name, field]) =>
      !field.readOnly &&
      field.type !== 'file' &&
      name !== decl.parent?.column &&
      name !== decl.states?.column,
  );
}

/** The object schema of declared fields: required ones required, the others optional (or null). */
function fieldsSchema(fields: [string, FieldDeclaration][]): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [name, field] of fields) {
    const base = fieldSchema(field);
    out[name] = field.required ? base : isNullable(field) ? base.nullable().optional() : base.optional();
  }
  return out;
}

/** A collection in a body: ids (each once), or rows of its fields (an existing row with its `id`). */
function collectionSchema(collection: CollectionDeclaration): z.ZodType {
  if (collection.ids) {
    return z
      .array(zId)
      .max(collection.max)
      .refine((ids) => new Set(ids).size === ids.length, FIELD_MESSAGES.invalidValue);
  }
  const row = z.strictObject({
    id: zId.optional(),
    // a row's read-only fields (a line's net amount) are the server's to compute, never taken from a body
    ...fieldsSchema(Object.entries(collection.fields ?? {}).filter(([, field]) => !field.readOnly)),
  });
  return z.array(row).max(collection.max);
}

/** The body of a declared state move: its `input` fields (an order's void reason), or nothing. */
export function moveInputSchema(input: Record<string, FieldDeclaration> | undefined): z.ZodObject {
  return z.strictObject(fieldsSchema(Object.entries(input ?? {})));
}

/** Create, update and filter schemas of a declaration: strict objects, as every route's bodies are. */
export function deriveSchemas(decl: ResourceDeclaration): DerivedSchemas {
  const create: Record<string, z.ZodType> = fieldsSchema(writableFields(decl));
  for (const [name, collection] of Object.entries(decl.collections ?? {}))
    create[name] = collectionSchema(collection).optional();
  const filters: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(decl.fields)) {
    if (!field.filterable) continue;
    if (field.type === 'date' || field.type === 'datetime') {
      filters[`${name}_from`] = zDateText.optional();
      filters[`${name}_to`] = zDateText.optional();
    } else if (field.type === 'boolean') {
      filters[name] = z.enum(['true', 'false', '1', '0']).optional();
    } else if (field.type === 'text' && field.values) {
      filters[name] = z.enum(field.values as [string, ...string[]]).optional();
    } else if (field.type === 'lookup') {
      filters[name] = z.coerce.number().int().positive().max(2_147_483_647).optional();
    } else if (field.type === 'integer' || field.type === 'money') {
      filters[name] = z.coerce.number().int().optional();
    } else {
      filters[name] = z.string().trim().max(200).optional();
    }
  }
  for (const name of Object.keys(decl.filters ?? {}))
    filters[name] = z.coerce.number().int().positive().optional();
  if (decl.states)
    filters[decl.states.column] = z.enum(decl.states.values as [string, ...string[]]).optional();
  const createSchema = z.strictObject(create);
  return { create: createSchema, update: createSchema.partial(), filters: z.object(filters) };
}

/** The values of a new record: each field's declared default. */
export function declaredDefaults(decl: ResourceDeclaration): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(decl.fields))
    if (field.default !== undefined) out[name] = field.default;
  return out;
}

/**
 * A record's name in a language, from the declaration's display fields; the other language's when that one's are
 * empty (a role named in English only is named so in Chinese too).
 */
export function displayName(
  decl: Pick<ResourceDeclaration, 'display'>,
  row: Record<string, unknown>,
  language: string,
): string {
  const join = (fields: readonly string[]) =>
    fields
      .map((f) => row[f])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(' ');
  const [own, other] = language === 'en' ? (['en', 'zh_HK'] as const) : (['zh_HK', 'en'] as const);
  return join(decl.display[own]) || join(decl.display[other]);
}

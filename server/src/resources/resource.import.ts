import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { LOCALES } from '../../../shared/features';
import { msg, type MessageKey, type MessageParams, type MessageRef } from '../../../shared/messages';
import { declarationByName } from '../../../shared/resources';
import {
  fieldLabelKey,
  lookupNameField,
  valueLabelKey,
  type FieldDeclaration,
  type ResourceDeclaration,
} from '../../../shared/resources/declaration';
import { declaredDefaults, displayName, writableFields } from '../../../shared/resources/derive';
import type { ApiRouter } from '../http/api-router';
import { contextOf, type RequestContext } from '../http/context';
import { controlCharacterPaths, fieldErrors } from '../http/validate';
import { AppError, fieldMap, type FieldMessages } from '../lib/app-error';
import { auditService } from '../modules/audit/audit.service';
import { EXPORT_FORMATS, exportLanguage, streamExport } from '../modules/exports/export.writer';
import { importUpload, removeImportFile, type ImportFile } from '../modules/exports/import-upload';
import { streamTable } from '../modules/exports/table-reader';
import { declaredLabel, minorUnits } from './declared';
import type { ResourceDefinition, Row } from './resource';
import { resourceRepository } from './resource.repository';
import type { ResourceService } from './resource.service';
import { binding } from './rows';
import { unitOfWork } from './unit-of-work';

/**
 * One importer for every resource that declares `importable` (issue 11): `POST /api{path}/import` takes an XLSX
 * or CSV (multipart `file`) whose first row names the columns — a field's label in English or Chinese, or the
 * field's name, in any case and spacing — and `GET /api{path}/import/template` gives the empty file with those
 * headers in the asked language.
 *
 * The file is read row by row (table-reader.ts: bounded in size, rows, cells and unpacked bytes; never held
 * whole). Every row is checked before anything is written: its cells as the field types read them (a lookup by
 * its record's name in either language or its id, an option by its code or label, yes/no, money in major units
 * of the row's currency, dates as `YYYY-MM-DD` or date cells, times as Hong Kong `YYYY-MM-DD HH:mm` or date cells;
 * a formula-like text's defusing apostrophe removed, table-reader.ts), the resource's create schema, its unique sets
 * within the file and against the stored rows, the records it refers to (existing and in the caller's branch
 * scope). One bad row refuses the file, naming each problem by row and column in the reader's language (the
 * first 100); a value in a column without a header refuses it as it is read, naming its row and column letter. A good file is written in one transaction through the resource's own service — the same rules,
 * audit rows and side effects as a form's create — and a refusal there (a rule, a row written in between) rolls
 * the whole file back.
 */

export const IMPORT_LIMITS = {
  /**
   * rows with something in them (the header aside): each is written through the service (about five queries), so
   * that the largest file stays a request of seconds, not minutes
   */
  maxRows: 2_000,
  /** problems listed in a refusal; the rest are counted */
  maxErrors: 100,
  /** values per `IN (…)` of a lookup or a uniqueness check */
  chunk: 500,
};

/** Whether a definition serves the import routes: it opts in (or its declaration does) and has a declaration. */
export function isImportable(def: ResourceDefinition): boolean {
  if (!def.declaration || def.readOnly) return false;
  return Boolean(def.importable ?? def.declaration.importable);
}

interface ImportColumn {
  field: string;
  spec: FieldDeclaration;
  label: { en: string; zh: string };
  /** the header cells it is known by, normalised */
  names: string[];
}

/** A header cell as it is compared: no BOM, full-width forms folded, no case, no spaces. */
export function normaliseHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, '');
}

/** A field's label in both languages: the declared strings, else the export's headers, else its name. */
function labelOf(
  def: ResourceDefinition,
  decl: ResourceDeclaration,
  field: string,
): { en: string; zh: string } {
  try {
    return declaredLabel(fieldLabelKey(decl.name, field));
  } catch {
    const column = def.exportColumns?.find((c) => c.key === field);
    return column ? { en: column.en, zh: column.zh } : { en: field, zh: field };
  }
}

/** The columns a file may give: the declaration's writable fields (a child's parent column is the URL's). */
export function importColumns(def: ResourceDefinition): ImportColumn[] {
  const decl = def.declaration;
  if (!decl) return [];
  return writableFields(decl)
    .filter(([field]) => !(field in (def.fixed ?? {})))
    .map(([field, spec]) => {
      const label = labelOf(def, decl, field);
      const aliases = [field, label.en, label.zh];
      if (spec.type === 'lookup') aliases.push(lookupNameField(field));
      if (spec.type === 'option') aliases.push(`${field}_label`);
      return { field, spec, label, names: [...new Set(aliases.map(normaliseHeader))] };
    });
}

/** Header cells that name a declared field the file cannot set (computed ones, as an export has them): skipped. */
function ignoredHeaders(def: ResourceDefinition, columns: ImportColumn[]): Set<string> {
  const decl = def.declaration!;
  const writable = new Set(columns.map((c) => c.field));
  const out = new Set<string>();
  for (const field of Object.keys(decl.fields)) {
    if (writable.has(field)) continue;
    const label = labelOf(def, decl, field);
    for (const name of [field, label.en, label.zh, lookupNameField(field)]) out.add(normaliseHeader(name));
  }
  return out;
}

/** A catalogued message without its English text (what a placeholder holds). */
const ref = (key: MessageKey, params?: MessageParams): MessageRef => (params ? { key, params } : { key });

// ---- cells → values ----

const BOOLEANS: Record<string, boolean> = {
  yes: true,
  no: false,
  是: true,
  否: false,
  true: true,
  false: false,
  '1': true,
  '0': false,
};

/** A number as a spreadsheet or a person writes it (`1,234.50`), or null. */
function numberOf(text: string): number | null {
  const plain = text.replace(/[,\s]/g, '');
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(plain) ? Number(plain) : null;
}

const pad = (n: number | string) => String(n).padStart(2, '0');
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** A date cell's text (`YYYY-MM-DD`, with a midnight time, `YYYY/M/D`, or an Excel day number) as `YYYY-MM-DD`. */
function dateOf(text: string): string {
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[ T]00:00(?::00)?)?$/.exec(text);
  if (iso) return iso[1];
  const slashed = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text);
  if (slashed) return `${slashed[1]}-${pad(slashed[2])}-${pad(slashed[3])}`;
  // a date cell without a date format reads as its day number
  if (/^\d{4,5}$/.test(text))
    return new Date(EXCEL_EPOCH + Number(text) * 86_400_000).toISOString().slice(0, 10);
  return text;
}

/**
 * A date and time as written (`YYYY-MM-DD HH:mm[:ss]`, Hong Kong time) or ISO with its offset. A date alone is
 * its midnight in Hong Kong: what a date cell of an export holds for a time at 00:00 reads as.
 */
function dateTimeOf(text: string): string {
  const wall = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (wall) return `${wall[1]}T${pad(wall[2] ?? 0)}:${wall[3] ?? '00'}:${wall[4] ?? '00'}+08:00`;
  return text;
}

/** A percentage (`12.5`) as basis points (1250); a finer fraction stays a fraction (the integer check says so). */
function basisPoints(n: number): number {
  const bp = n * 100;
  const rounded = Math.round(bp);
  return Math.abs(bp - rounded) < 1e-6 ? rounded : bp;
}

/** One cell's value for its field (money and references later), or the problem with it. */
function cellValue(spec: FieldDeclaration, text: string): { value: unknown } | { error: MessageRef } {
  switch (spec.type) {
    case 'integer':
      return { value: numberOf(text) ?? text };
    case 'rate': {
      const n = numberOf(text.replace(/%$/, ''));
      return { value: n === null ? text : basisPoints(n) };
    }
    case 'money':
    case 'file':
      return { value: numberOf(text) ?? text };
    case 'currency':
      return { value: text.toUpperCase() };
    case 'boolean': {
      const value = BOOLEANS[text.toLowerCase()];
      return value === undefined ? { error: ref('importYesNo') } : { value };
    }
    case 'date':
      return { value: dateOf(text) };
    case 'datetime':
      return { value: dateTimeOf(text) };
    default:
      return { value: text };
  }
}

// ---- references: lookups by name or id, options by code or label ----

type Resolution = { value: unknown } | { error: MessageRef };
type Resolver = (text: string) => Resolution;

function isMysql(db: Knex): boolean {
  return String((db as unknown as { client: { config: { client: unknown } } }).client.config.client).includes(
    'mysql',
  );
}

function chunks<T>(items: T[], size = IMPORT_LIMITS.chunk): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The SQL of a record's name in one language, lower-cased: its display columns joined by a space. */
function nameSql(db: Knex, columns: readonly string[]): { sql: string; bindings: string[] } {
  if (columns.length === 1) return { sql: 'lower(??)', bindings: [...columns] };
  if (isMysql(db))
    return {
      sql: `lower(concat_ws(' ', ${columns.map(() => "nullif(??, '')").join(', ')}))`,
      bindings: [...columns],
    };
  return {
    sql: `lower(trim(${columns.map(() => "coalesce(??, '')").join(" || ' ' || ")}))`,
    bindings: [...columns],
  };
}

/** Records of `target` the caller may refer to: those of its branch when the caller is branch-scoped. */
function inScope(qb: Knex.QueryBuilder, target: ResourceDeclaration, ctx: RequestContext): Knex.QueryBuilder {
  const scope = ctx.branchScope;
  if (!scope || !target.branchColumn) return qb;
  return scope.branchId === null ? qb.whereRaw('1 = 0') : qb.where(target.branchColumn, scope.branchId);
}

/**
 * A lookup column's cells → ids of `target`: by the record's name in either language (case aside), else by id,
 * among the records in the caller's scope; one query per language and one for the ids, per 500 values.
 */
async function lookupResolver(
  db: Knex,
  target: ResourceDeclaration,
  texts: Set<string>,
  ctx: RequestContext,
): Promise<Resolver> {
  const byName = new Map<string, Set<number>>();
  const lowered = [...new Set([...texts].map((t) => t.toLowerCase()))];
  const labelColumns = [...new Set([...target.display.en, ...target.display.zh_HK])];
  for (const columns of [target.display.en, target.display.zh_HK]) {
    const name = nameSql(db, columns);
    for (const part of chunks(lowered)) {
      const rows = await resourceRepository.findWhere(
        db,
        target.table,
        (qb) =>
          inScope(
            qb.whereRaw(`${name.sql} in (${part.map(() => '?').join(', ')})`, [...name.bindings, ...part]),
            target,
            ctx,
          ),
        ['id', ...labelColumns],
      );
      for (const row of rows) {
        for (const language of ['en', 'zh_HK'] as const) {
          const label = displayName(target, row, language).toLowerCase();
          byName.set(label, (byName.get(label) ?? new Set()).add(Number(row.id)));
        }
      }
    }
  }
  const ids = [...texts].filter((t) => /^\d{1,10}$/.test(t)).map(Number);
  const known = new Set<number>();
  for (const part of chunks(ids)) {
    const rows = await resourceRepository.findWhere(
      db,
      target.table,
      (qb) => inScope(qb.whereIn('id', part), target, ctx),
      ['id'],
    );
    for (const row of rows) known.add(Number(row.id));
  }
  return (text) => {
    const named = byName.get(text.toLowerCase());
    if (named?.size === 1) return { value: [...named][0] };
    if (named && named.size > 1) return { error: ref('importAmbiguous', { value: text }) };
    if (/^\d{1,10}$/.test(text) && known.has(Number(text))) return { value: Number(text) };
    return { error: ref('importNoMatch', { value: text }) };
  };
}

/** An option column's cells → codes of the list `key`: by code, else by label in either language (case aside). */
async function optionResolver(db: Knex, key: string): Promise<Resolver> {
  const rows = await resourceRepository.findWhere(db, 'options', (qb) => qb.where('key', key), [
    'value',
    'label_en',
    'label_zh',
  ]);
  const byCode = new Map<string, string>();
  const byLabel = new Map<string, Set<string>>();
  for (const row of rows) {
    const code = String(row.value);
    byCode.set(code.toLowerCase(), code);
    for (const label of [row.label_en, row.label_zh]) {
      if (!label) continue;
      const lower = String(label).toLowerCase();
      byLabel.set(lower, (byLabel.get(lower) ?? new Set()).add(code));
    }
  }
  return (text) => {
    const lower = text.toLowerCase();
    const code = rows.some((r) => r.value === text) ? text : byCode.get(lower);
    if (code !== undefined) return { value: code };
    const labelled = byLabel.get(lower);
    if (labelled?.size === 1) return { value: [...labelled][0] };
    if (labelled && labelled.size > 1) return { error: ref('importAmbiguous', { value: text }) };
    return { error: ref('importNoMatch', { value: text }) };
  };
}

/** A text field of fixed values: by the value, else by its declared label in either language (case aside). */
function valueResolver(decl: ResourceDeclaration, field: string, values: readonly string[]): Resolver {
  const byText = new Map<string, string>();
  for (const value of values) {
    byText.set(value.toLowerCase(), value);
    try {
      const label = declaredLabel(valueLabelKey(decl.name, field, value));
      for (const text of [label.en, label.zh])
        if (!byText.has(text.toLowerCase())) byText.set(text.toLowerCase(), value);
    } catch {
      // no label: the value itself only
    }
  }
  return (text) => {
    const value = values.includes(text) ? text : byText.get(text.toLowerCase());
    return value === undefined ? { error: ref('chooseListed') } : { value };
  };
}

// ---- problems ----

interface Problem {
  row: number;
  /** the field, or null for the row as a whole */
  field: string | null;
  message: MessageRef;
}

/** The 422 naming the problems by row and column (the first `maxErrors`, the rest counted). */
function refusal(problems: Problem[], labelOf: (field: string) => string): AppError {
  const sorted = [...problems].sort((a, b) => a.row - b.row);
  const shown = sorted.slice(0, IMPORT_LIMITS.maxErrors);
  const errors: FieldMessages = fieldMap<MessageRef[]>();
  for (const p of shown) {
    const key = p.field ? `rows.${p.row}.${p.field}` : `rows.${p.row}`;
    (errors[key] ??= []).push(
      p.field
        ? ref('importCell', { row: p.row, column: labelOf(p.field), message: p.message })
        : ref('importRow', { row: p.row, message: p.message }),
    );
  }
  const count = new Set(problems.map((p) => p.row)).size;
  const more = sorted.length - shown.length;
  const message = more
    ? msg('importRowsBadMore', { count, shown: shown.length, more })
    : msg('importRowsBad', { count });
  return new AppError('validation', message, { errors });
}

/** A value as compared for uniqueness: MariaDB's collation ignores case, so the comparison does there too. */
function keyPart(value: unknown, loose: boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = String(value);
  return loose ? text.trim().toLowerCase() : text;
}

// ---- the import ----

interface ReadRow {
  row: number;
  /** the cell text of each column given, by field; empty cells left out */
  cells: Map<string, string>;
}

/**
 * Imports `file` into the resource `service` serves (its definition's fixed columns, a child's parent, apply):
 * all rows or none. Answers how many rows were written.
 */
export async function importResource(
  db: Knex,
  service: ResourceService,
  file: ImportFile,
  ctx: RequestContext,
): Promise<{ imported: number }> {
  const def = service.definition;
  const decl = def.declaration;
  if (!decl) throw new AppError('not_found');
  const columns = importColumns(def);
  const byField = new Map(columns.map((c) => [c.field, c]));
  const label = (field: string) => {
    const l = byField.get(field)?.label ?? labelOf(def, decl, field);
    return ctx.language === 'en' ? l.en : l.zh;
  };

  // 1. read: the header, then each row's cells by field (nothing else is kept)
  const ignored = ignoredHeaders(def, columns);
  let at: (ImportColumn | null)[] = [];
  const rows: ReadRow[] = [];
  await streamTable(file.path, file.extension, IMPORT_LIMITS.maxRows, {
    header(cells) {
      const unknown: string[] = [];
      const seen = new Set<string>();
      at = cells.map((cell) => {
        const name = normaliseHeader(cell);
        if (!name) return null;
        const column = columns.find((c) => c.names.includes(name));
        if (!column) {
          if (!ignored.has(name)) unknown.push(cell);
          return null;
        }
        if (seen.has(column.field)) {
          throw AppError.field('validation', 'file', msg('importColumnTwice', { column: cell }));
        }
        seen.add(column.field);
        return column;
      });
      const problems: MessageRef[] = [];
      if (unknown.length) problems.push(ref('importUnknownColumns', { columns: unknown.join(', ') }));
      const missing = columns.filter(
        (c) => c.spec.required && c.spec.default === undefined && !seen.has(c.field),
      );
      if (missing.length) {
        problems.push(
          ref('importMissingColumns', { columns: missing.map((c) => label(c.field)).join(', ') }),
        );
      }
      if (problems.length) {
        const errors = fieldMap<MessageRef[]>();
        errors.file = problems;
        throw new AppError('validation', problems[0], { errors });
      }
    },
    row({ row, cells }) {
      const read: ReadRow = { row, cells: new Map() };
      cells.forEach((text, i) => {
        const column = at[i];
        if (column && text !== '') read.cells.set(column.field, text);
      });
      rows.push(read);
    },
  });
  if (!at.length) throw AppError.field('validation', 'file', 'importNoRows');
  if (!rows.length) throw AppError.field('validation', 'file', 'importNoRows');

  // 2. the records and options referred to, by name or code: a few queries for the whole file
  const resolvers = new Map<string, Resolver>();
  for (const column of columns) {
    const texts = new Set(
      rows.map((r) => r.cells.get(column.field)).filter((t): t is string => t !== undefined),
    );
    if (!texts.size) continue;
    if (column.spec.type === 'lookup') {
      const target = declarationByName(column.spec.resource);
      if (!target)
        throw new Error(`${decl.name}.${column.field} looks up "${column.spec.resource}", not declared`);
      resolvers.set(column.field, await lookupResolver(db, target, texts, ctx));
    } else if (column.spec.type === 'option') {
      resolvers.set(column.field, await optionResolver(db, column.spec.key));
    } else if (column.spec.type === 'text' && column.spec.values) {
      resolvers.set(column.field, valueResolver(decl, column.field, column.spec.values));
    }
  }

  // 3. every row on its own: cells → values, the create schema
  const problems: Problem[] = [];
  const defaults = declaredDefaults(decl);
  const good: { row: number; data: Row }[] = [];
  for (const { row, cells } of rows) {
    const input: Row = {};
    for (const column of columns) if (column.field in defaults) input[column.field] = defaults[column.field];
    const before = problems.length;
    const money: ImportColumn[] = [];
    for (const [field, text] of cells) {
      const column = byField.get(field)!;
      if (controlCharacterPaths(text).length) {
        problems.push({ row, field, message: ref('textControl') });
        continue;
      }
      const resolve = resolvers.get(field);
      const value = resolve ? resolve(text) : cellValue(column.spec, text);
      if ('error' in value) problems.push({ row, field, message: value.error });
      else input[field] = value.value;
      if (column.spec.type === 'money') money.push(column);
    }
    // money in major units of the row's own currency
    for (const column of money) {
      const amount = input[column.field];
      if (typeof amount !== 'number' || column.spec.type !== 'money') continue;
      input[column.field] = minorUnits(
        amount,
        input[column.spec.currency] ?? def.fixed?.[column.spec.currency],
      );
    }
    if (problems.length > before) continue;
    const parsed = def.schemas.create.safeParse(input);
    if (!parsed.success) {
      for (const [field, refs] of Object.entries(fieldErrors(parsed.error))) {
        for (const message of refs) problems.push({ row, field: field === '_' ? null : field, message });
      }
      continue;
    }
    good.push({ row, data: parsed.data as Row });
  }

  // 4. the unique sets, within the file and against the stored rows (a child's within its parent)
  const loose = isMysql(db);
  const fixed = def.fixed ?? {};
  for (const set of def.unique ?? []) {
    const keyed: { row: number; values: unknown[]; key: string }[] = [];
    const first = new Map<string, number>();
    for (const { row, data } of good) {
      const values = set.map((c) => (c in fixed ? fixed[c] : data[c]));
      if (values.some((v) => v === null || v === undefined)) continue;
      const key = JSON.stringify(values.map((v) => keyPart(v, loose)));
      const earlier = first.get(key);
      if (earlier !== undefined) {
        problems.push({ row, field: set[set.length - 1], message: ref('importSameAs', { row: earlier }) });
        continue;
      }
      first.set(key, row);
      keyed.push({ row, values, key });
    }
    const stored = new Set<string>();
    for (const part of chunks(keyed)) {
      const rows = await resourceRepository.findWhere(
        db,
        def.table,
        (qb) =>
          set.forEach((column, i) => {
            if (column in fixed) qb.where(column, binding(fixed[column]));
            else qb.whereIn(column, [...new Set(part.map((k) => binding(k.values[i])))]);
          }),
        [...set],
      );
      for (const found of rows) {
        stored.add(JSON.stringify(set.map((c) => keyPart(found[c], loose))));
      }
    }
    for (const k of keyed) {
      if (stored.has(k.key))
        problems.push({ row: k.row, field: set[set.length - 1], message: ref('duplicate') });
    }
  }
  if (problems.length) throw refusal(problems, label);

  // 5. all rows in one transaction through the resource's own create, or none
  return unitOfWork(db, async (uow) => {
    for (const { row, data } of good) {
      try {
        await service.create(data, ctx, uow);
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        if (err.fieldMessages && Object.keys(err.fieldMessages).length) {
          for (const [field, refs] of Object.entries(err.fieldMessages)) {
            for (const message of refs)
              problems.push({ row, field, message: ref(message.key, message.params) });
          }
        } else problems.push({ row, field: null, message: err.messageRef });
        if (problems.length > IMPORT_LIMITS.maxErrors * 10) break;
      }
    }
    if (problems.length) throw refusal(problems, label);
    await auditService.record(uow.trx, ctx, {
      action: 'import',
      entity: def.name,
      detail: { file: file.originalName, rows: good.length },
    });
    return { imported: good.length };
  });
}

// ---- the routes ----

/** What a request is for: the definition and its service (a child resource's bound to the parent in the URL). */
export type ImportTarget = (req: Request) => { def: ResourceDefinition; service: ResourceService };

/**
 * `POST {path}/import` and `GET {path}/import/template?format=xlsx|csv&lang=en|zh_HK` of an importable resource,
 * both behind `${module}.create`. Registered by the generic routes (resource.routes.ts) before the `/:id` routes.
 */
export function registerImportRoutes(
  api: ApiRouter,
  db: Knex,
  template: ResourceDefinition,
  pick: ImportTarget,
  mount: { path: string; params?: z.ZodRawShape; before?: RequestHandler[] },
): void {
  if (!isImportable(template)) return;
  const permission = template.permissions?.create ?? `${template.module}.create`;
  const params = z.strictObject(mount.params ?? {});
  const before = mount.before ?? [];
  api.add({
    method: 'get',
    path: `${mount.path}/import/template`,
    access: 'staff',
    permission,
    before,
    schemas: {
      params,
      query: z.strictObject({ format: z.enum(EXPORT_FORMATS), lang: z.enum(LOCALES).optional() }),
    },
    answers: {
      kind: 'file',
      types: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    },
    handler: async (req, res) => {
      const { def } = pick(req);
      const { format, lang } = req.parsed.query;
      const name = def.exportName ?? def.path.replace(/^\//, '').replace(/\//g, '-');
      await streamExport(res, {
        format,
        name: `${name}-import`,
        language: exportLanguage(lang ?? contextOf(req).language),
        columns: importColumns(def).map((c) => ({ key: c.field, en: c.label.en, zh: c.label.zh })),
        batches: (async function* () {})(),
      });
    },
  });
  api.add({
    method: 'post',
    path: `${mount.path}/import`,
    access: 'staff',
    permission,
    before: [...before, importUpload(db)],
    schemas: { params },
    handler: async (req, res) => {
      const file = req.importFile;
      if (!file) throw AppError.field('validation', 'file', 'importChoose');
      try {
        res.json(await importResource(db, pick(req).service, file, contextOf(req)));
      } finally {
        await removeImportFile(file.path);
      }
    },
  });
}

import type { Knex } from 'knex';
import type { Response } from 'supertest';
import { toDbDateTime } from '../../src/lib/clock';
import { parseCsv } from '../../src/modules/exports/csv';
import { excel } from '../../src/modules/exports/excel';
import { Client, createUser, type TestApp } from '../harness';

type Row = Record<string, any>;

/**
 * A signed-in staff client holding `permissions`; with `branchId`, its role is branch-scoped (data scope
 * `branch`) and the account belongs to that branch.
 */
export async function signIn(
  t: TestApp,
  permissions: string[],
  opts: { branchId?: number; language?: 'en' | 'zh_HK' } = {},
): Promise<Client> {
  const user = await createUser(t.db, { permissions });
  if (opts.branchId !== undefined) {
    await t.db('roles').where({ id: user.roleId }).update({ data_scope: 'branch' });
    await t.db('users').where({ id: user.id }).update({ branch_id: opts.branchId });
  }
  if (opts.language) await t.db('users').where({ id: user.id }).update({ language: opts.language });
  const client = new Client(t.app);
  const res = await client.login(user.email, user.password);
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

function binary(res: NodeJS.ReadableStream, callback: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** A download's body as bytes. */
export function download(client: Client, url: string): Promise<Response> {
  return client
    .get(url)
    .buffer(true)
    .parse(binary as never) as unknown as Promise<Response>;
}

/** The first sheet of an XLSX file, row by row (cells as exceljs reads them). */
export async function readXlsx(body: Buffer): Promise<unknown[][]> {
  const workbook = new (excel().Workbook)();
  await workbook.xlsx.load(body as never);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** A CSV download's records. */
export function readCsv(body: Buffer): string[][] {
  return parseCsv(body.toString('utf8')).filter((r) => !(r.length === 1 && r[0] === ''));
}

/** Every row of a list, page after page, in the list's order. */
export async function listAll(client: Client, url: string, language?: 'en' | 'zh_HK'): Promise<Row[]> {
  const out: Row[] = [];
  const sep = url.includes('?') ? '&' : '?';
  for (let page = 1; page < 50; page++) {
    const request = client.get(`${url}${sep}per_page=100&page=${page}`);
    const res = await (language
      ? request.set('Accept-Language', language === 'en' ? 'en' : 'zh-HK')
      : request);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.items);
    if (out.length >= res.body.total || !res.body.items.length) break;
  }
  return out;
}

/** Rows of `table` matching `where`. */
export async function countRows(db: Knex, table: string, where: Row = {}): Promise<number> {
  const row = await db(table).where(where).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/**
 * Inserts a row into any table with `given` columns set and every other NOT NULL column without a default
 * filled (a referencing row a delete must be refused for): `<x>_id` columns point at the first row of `<x>s`
 * (or `<x>es`, `<x>ies`), text columns take a unique text.
 */
let inserted = 0;

export async function insertAnyRow(db: Knex, table: string, given: Row): Promise<number> {
  const info = await db(table).columnInfo();
  const data: Row = { ...given };
  // the counter first: unique however short the column
  const unique = `r${++inserted}${Math.random().toString(36).slice(2, 8)}`;
  for (const [column, col] of Object.entries(info)) {
    if (column === 'id' || column in data || col.nullable || col.defaultValue !== null) continue;
    const type = col.type.toLowerCase();
    if (column === 'created_at' || column === 'updated_at' || /date|time/.test(type)) {
      data[column] = type === 'date' ? '2030-01-01' : toDbDateTime();
    } else if (column.endsWith('_id')) {
      data[column] = await firstIdOf(db, column.replace(/_id$/, ''));
    } else if (/int|decimal|numeric|float|double|bool/.test(type)) {
      data[column] = 0;
    } else {
      const max = Number(col.maxLength) || 40;
      data[column] = unique.slice(0, max);
    }
  }
  const [id] = await db(table).insert(data);
  return Number(id);
}

/** A row of the table `<stem>_id` refers to (a school's `admission_id`: `school_admissions`), made when none exists. */
async function firstIdOf(db: Knex, stem: string): Promise<number> {
  const plurals = [`${stem}s`, `${stem}es`, `${stem.replace(/y$/, '')}ies`, stem];
  for (const table of [...plurals, ...plurals.map((p) => `school_${p}`)]) {
    if (!(await db.schema.hasTable(table))) continue;
    const row = await db(table).first('id');
    return row ? Number(row.id) : insertAnyRow(db, table, {});
  }
  throw new Error(`no table to refer to for ${stem}_id`);
}

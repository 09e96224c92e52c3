import { parseCsv, csvRecord, UTF8_BOM } from '../../src/modules/exports/csv';
import { businessToday } from '../../src/modules/numbering/business-time';
import { z } from 'zod';
import { toDbDateTime } from '../../src/lib/clock';
import { registerResource } from '../../src/resources/resource.routes';
import { Client, createBranch, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { download, readXlsx } from '../resources/helpers';
import { declareResource } from '../../../shared/resources/declaration';
import resourcesEn from '../../../shared/resources/locales/en.json';
import resourcesZh from '../../../shared/resources/locales/zh_HK.json';
import { definitionFromDeclaration } from '../../src/resources/declared';
import { excel } from '../../src/modules/exports/excel';

let t: TestApp;
let admin: Client;
const YEAR = 2031;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  // more rows than one page
  const rows = Array.from({ length: 620 }, (_, i) => {
    const d = new Date(Date.UTC(YEAR, 0, 1) + i * 86_400_000);
    return {
      date: d.toISOString().slice(0, 10),
      name_en: `Day ${i + 1}`,
      name_zh: `第${i + 1}日`,
      created_at: '2026-01-01 00:00:00',
      updated_at: '2026-01-01 00:00:00',
    };
  });
  for (let i = 0; i < rows.length; i += 100) await t.db('holidays').insert(rows.slice(i, i + 100));
  await t
    .db('holidays')
    .where({ date: `${YEAR}-01-02` })
    .update({ name_en: 'Comma, "quote"\nand a new line' });
  await t
    .db('holidays')
    .where({ date: `${YEAR}-01-03` })
    .update({ name_en: '=HYPERLINK("x")', name_zh: '農曆年初一' });
});
afterAll(() => t.close());

describe('CSV (RFC 4180)', () => {
  it('quotes commas, quotes and line breaks, and reads back what it wrote', () => {
    const values = ['plain', 'a,b', 'say "hi"', 'two\r\nlines', '中文', '', '=1+1', 42];
    const text = UTF8_BOM + csvRecord(values) + csvRecord(['x', 'y']);
    expect(parseCsv(text)).toEqual([
      ['plain', 'a,b', 'say "hi"', 'two\r\nlines', '中文', '', "'=1+1", '42'],
      ['x', 'y'],
    ]);
    expect(parseCsv('a,b\nc,"d\ne"\n')).toEqual([
      ['a', 'b'],
      ['c', 'd\ne'],
    ]);
    expect(() => parseCsv('a,"b\nc')).toThrow(/line 1/);
  });
});

describe('list export (GET /api/{resource}?format=)', () => {
  it('exports every row of the filter and sort as XLSX, not one page, with a dated attachment name', async () => {
    const res = await download(admin, `/api/holidays?year=${YEAR}&format=xlsx&sort=-date`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="holidays-${businessToday()}.xlsx"`,
    );
    const rows = await readXlsx(res.body);
    expect(rows[0]).toEqual(['Date', 'English name', 'Chinese name']);
    expect(rows.length).toBe(1 + 365);
    // a date is a date cell: the calendar day at UTC midnight (what a spreadsheet's day number means)
    expect(rows[1]).toEqual([new Date(Date.UTC(YEAR, 11, 31)), 'Day 365', '第365日']);
    expect(rows.at(-1)).toEqual([new Date(Date.UTC(YEAR, 0, 1)), 'Day 1', '第1日']);
    expect(rows.find((r) => String(r[1]).startsWith('Comma'))?.[0]).toEqual(new Date(Date.UTC(YEAR, 0, 2)));
    expect(rows.find((r) => String(r[1]).startsWith('Comma'))?.[1]).toBe('Comma, "quote"\nand a new line');
  });

  it('exports the search as CSV with a UTF-8 BOM, quoting, Chinese text and formulas defused', async () => {
    const res = await download(admin, `/api/holidays?year=${YEAR}&format=csv&q=${encodeURIComponent('第')}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="holidays-${businessToday()}.csv"`);
    const text = res.body.toString('utf8');
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    const records = parseCsv(text);
    expect(records[0]).toEqual(['Date', 'English name', 'Chinese name']);
    expect(records.length).toBe(1 + 364); // 1 January 2031+2 has no 第 after the rename
    expect(records).toContainEqual([`${YEAR}-01-02`, 'Comma, "quote"\nand a new line', '第2日']);
    const q = await download(admin, `/api/holidays?year=${YEAR}&format=csv&q=${encodeURIComponent('農曆')}`);
    expect(parseCsv(q.body.toString('utf8'))).toEqual([
      ['Date', 'English name', 'Chinese name'],
      [`${YEAR}-01-03`, `'=HYPERLINK("x")`, '農曆年初一'],
    ]);
  });

  it('heads the columns in the user’s language, and exports an empty result as its header', async () => {
    const user = await createUser(t.db, { permissions: ['settings.view'] });
    await t.db('users').where({ id: user.id }).update({ language: 'zh_HK' });
    const zh = new Client(t.app);
    await zh.login(user.email, user.password);
    const res = await download(zh, `/api/holidays?year=1999&format=xlsx`);
    expect(await readXlsx(res.body)).toEqual([['日期', '英文名稱', '中文名稱']]);
    const csv = await download(zh, `/api/holidays?year=1999&format=csv`);
    expect(parseCsv(csv.body.toString('utf8'))).toEqual([['日期', '英文名稱', '中文名稱']]);
  });

  it('heads the columns in the screen’s language when the link names it (lang), whatever the user’s own', async () => {
    const user = await createUser(t.db, { permissions: ['settings.view'] });
    await t.db('users').where({ id: user.id }).update({ language: 'zh_HK' });
    const zh = new Client(t.app);
    await zh.login(user.email, user.password);
    const en = await download(zh, `/api/holidays?year=1999&format=xlsx&lang=en`);
    expect(await readXlsx(en.body)).toEqual([['Date', 'English name', 'Chinese name']]);
    const csv = await download(admin, `/api/holidays?year=1999&format=csv&lang=zh_HK`);
    expect(parseCsv(csv.body.toString('utf8'))).toEqual([['日期', '英文名稱', '中文名稱']]);
    expect((await admin.get(`/api/holidays?format=csv&lang=fr`)).status).toBe(422);
    const list = await admin.get(`/api/holidays?year=${YEAR}&lang=en&per_page=1`).expect(200);
    expect(list.body.total).toBe(365);
  });

  it('needs the view permission, refuses an unknown format, and leaves JSON lists as they were', async () => {
    const nobody = await createUser(t.db, { permissions: [] });
    const c = new Client(t.app);
    await c.login(nobody.email, nobody.password);
    expect((await c.get(`/api/holidays?format=csv`)).status).toBe(403);
    expect((await admin.get(`/api/holidays?format=pdf`)).status).toBe(422);
    const badSort = await admin.get(`/api/holidays?format=xlsx&sort=secret`);
    expect(badSort.status).toBe(422);
    expect(badSort.headers['content-disposition']).toBeUndefined();
    expect(badSort.body.errors.sort).toBeDefined();
    const json = await admin.get(`/api/holidays?year=${YEAR}`).expect(200);
    expect(json.body).toMatchObject({ total: 365, page: 1, per_page: 20 });
    expect(json.body.items).toHaveLength(20);
  });

  it('exports a declared resource in its declared columns, a lookup by its name (never an id)', async () => {
    const seoul = await admin.post('/api/areas', { name_en: 'Seoul', name_zh: '首爾' }).expect(201);
    await admin
      .post('/api/areas', { name_en: 'Gangnam', name_zh: '江南', parent_id: seoul.body.id })
      .expect(201);
    const res = await download(admin, `/api/areas?format=csv&parent_id=${seoul.body.id}`);
    expect(res.status).toBe(200);
    const [header, gangnam] = parseCsv(res.body.toString('utf8'));
    expect(header).toEqual(['Area', 'English name', 'Chinese name', 'Korean name', 'Order']);
    expect(header).not.toContain('districts');
    expect(gangnam.slice(0, 3)).toEqual(['Seoul', 'Gangnam', '江南']);
  });

  it('keeps a branch-scoped user’s export to their own branch (quality §15)', async () => {
    registerResource(t.api, t.db, {
      name: 'export_student',
      path: '/__test/export-students',
      table: 'students',
      module: 'students',
      branchColumn: 'branch_id',
      schemas: { create: z.strictObject({}), update: z.strictObject({}) },
      searchable: ['student_no'],
      sortable: ['student_no'],
      defaultSort: 'student_no',
      exportColumns: [{ key: 'student_no', en: 'Student no.', zh: '學生編號' }],
    });
    const mine = await createBranch(t.db);
    const theirs = await createBranch(t.db);
    const now = toDbDateTime();
    for (const [no, branch] of [
      ['E-1', mine],
      ['E-2', theirs],
      ['E-3', mine],
    ] as const) {
      await t.db('students').insert({ student_no: no, branch_id: branch, created_at: now, updated_at: now });
    }
    const user = await createUser(t.db, { permissions: ['students.view'] });
    await t.db('roles').where({ id: user.roleId }).update({ data_scope: 'branch' });
    await t.db('users').where({ id: user.id }).update({ branch_id: mine });
    const scoped = new Client(t.app);
    await scoped.login(user.email, user.password);
    const own = await download(scoped, '/api/__test/export-students?format=csv');
    expect(parseCsv(own.body.toString('utf8'))).toEqual([['Student no.'], ['E-1'], ['E-3']]);
    const every = await download(admin, '/api/__test/export-students?format=xlsx');
    expect(await readXlsx(every.body)).toEqual([['Student no.'], ['E-1'], ['E-2'], ['E-3']]);
  });

  it('streams more rows than one export batch, in order, none repeated or lost', async () => {
    const now = toDbDateTime();
    const total = 4_321;
    for (let i = 0; i < total; i += 100) {
      await t.db('areas').insert(
        Array.from({ length: Math.min(100, total - i) }, (_, j) => ({
          name_en: `Batch area ${i + j}`,
          name_zh: `批次${i + j}`,
          sort_order: 10_000 + i + j,
          created_at: now,
          updated_at: now,
        })),
      );
    }
    const res = await download(admin, '/api/areas?format=csv&q=Batch&sort=-sort_order');
    const [header, ...records] = parseCsv(res.body.toString('utf8'));
    const name = header.indexOf('English name');
    expect(records).toHaveLength(total);
    expect(records.map((r) => r[name])).toEqual(
      Array.from({ length: total }, (_, i) => `Batch area ${total - 1 - i}`),
    );
  });
});

// ---- a declaration of this test: a date and a date-time column, as any declared resource has them ----

const probes = declareResource({
  name: 'export_probe',
  path: '/export-probes',
  table: 'export_probes',
  module: 'settings',
  fields: {
    title: { type: 'text', max: 100, required: true, searchable: 'name', sortable: true },
    happens_on: { type: 'date' },
    starts_at: { type: 'datetime' },
  },
  display: { en: ['title'], zh_HK: ['title'] },
  defaultSort: 'title',
});
(resourcesEn.resources as Record<string, unknown>).export_probe = {
  title: 'Export probes',
  record: 'Export probe',
  fields: { title: 'Title', happens_on: 'Happens on', starts_at: 'Starts at' },
};
(resourcesZh.resources as Record<string, unknown>).export_probe = {
  title: '匯出測試',
  record: '匯出測試',
  fields: { title: '標題', happens_on: '日期', starts_at: '開始時間' },
};

/** The first sheet's cells as exceljs reads them back: value and number format, row by row. */
async function xlsxCells(body: Buffer): Promise<{ value: unknown; numFmt?: string }[][]> {
  const workbook = new (excel().Workbook)();
  await workbook.xlsx.load(body as never);
  const rows: { value: unknown; numFmt?: string }[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    const cells: { value: unknown; numFmt?: string }[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => cells.push({ value: cell.value, numFmt: cell.numFmt }));
    rows.push(cells);
  });
  return rows;
}

describe('dates in exports: date cells in XLSX, text in CSV', () => {
  beforeAll(async () => {
    await t.db.schema.createTable('export_probes', (tb) => {
      tb.increments('id');
      tb.string('title', 100).notNullable();
      tb.date('happens_on').nullable();
      tb.dateTime('starts_at').nullable();
      tb.dateTime('created_at').notNullable();
      tb.dateTime('updated_at').notNullable();
      tb.integer('created_by').unsigned().nullable();
      tb.integer('updated_by').unsigned().nullable();
    });
    registerResource(t.api, t.db, definitionFromDeclaration(probes));
    const now = toDbDateTime();
    await t.db('export_probes').insert([
      // 17:45:30 UTC on 30 June is 01:45:30 on 1 July in Hong Kong
      {
        title: 'A',
        happens_on: '2030-07-01',
        starts_at: '2030-06-30 17:45:30',
        created_at: now,
        updated_at: now,
      },
      // Hong Kong midnight
      {
        title: 'B',
        happens_on: '2030-12-31',
        starts_at: '2030-03-31 16:00:00',
        created_at: now,
        updated_at: now,
      },
      { title: 'C', happens_on: null, starts_at: null, created_at: now, updated_at: now },
    ]);
  });

  it('writes a date as a date cell (yyyy-mm-dd) and a date-time as one holding the Hong Kong time (yyyy-mm-dd hh:mm)', async () => {
    const res = await download(admin, '/api/export-probes?format=xlsx&lang=en');
    expect(res.status).toBe(200);
    const [header, a, b, c] = await xlsxCells(res.body);
    expect(header.map((h) => h.value)).toEqual(['Title', 'Happens on', 'Starts at']);
    expect(a).toEqual([
      { value: 'A', numFmt: undefined },
      { value: new Date(Date.UTC(2030, 6, 1)), numFmt: 'yyyy-mm-dd' },
      { value: new Date(Date.UTC(2030, 6, 1, 1, 45, 30)), numFmt: 'yyyy-mm-dd hh:mm' },
    ]);
    expect(b.slice(1)).toEqual([
      { value: new Date(Date.UTC(2030, 11, 31)), numFmt: 'yyyy-mm-dd' },
      { value: new Date(Date.UTC(2030, 3, 1)), numFmt: 'yyyy-mm-dd hh:mm' },
    ]);
    // an empty date is an empty cell, not a text
    expect(c.slice(1).map((cell) => cell.value ?? null)).toEqual([null, null]);
    // the figure: every date of a date or date-time column is a date cell
    const dated = [a, b, c].flatMap((row) => row.slice(1)).filter((cell) => cell.value !== null);
    const dateCells = dated.filter((cell) => cell.value instanceof Date).length;
    const textDates = dated.filter((cell) => typeof cell.value === 'string').length;
    expect([dateCells, textDates]).toEqual([4, 0]);
    console.log(`export cells: ${dateCells} date cells, ${textDates} text dates`);
  });

  it('writes them as text in CSV: YYYY-MM-DD, and YYYY-MM-DD HH:mm in Hong Kong time', async () => {
    const res = await download(admin, '/api/export-probes?format=csv&lang=en');
    expect(parseCsv(res.body.toString('utf8')).filter((r) => r.length > 1)).toEqual([
      ['Title', 'Happens on', 'Starts at'],
      ['A', '2030-07-01', '2030-07-01 01:45'],
      ['B', '2030-12-31', '2030-04-01 00:00'],
      ['C', '', ''],
    ]);
  });
});

describe('a tree (areas and their districts) exports every row', () => {
  it('writes the areas and their districts, each with its parent’s name, though the list shows the areas', async () => {
    const north = await admin.post('/api/areas', { name_en: 'Tree North', name_zh: '樹北' }).expect(201);
    const south = await admin.post('/api/areas', { name_en: 'Tree South', name_zh: '樹南' }).expect(201);
    for (const [name, zh, parent] of [
      ['Tree North One', '樹北一', north.body.id],
      ['Tree North Two', '樹北二', north.body.id],
      ['Tree South One', '樹南一', south.body.id],
    ] as const) {
      await admin.post('/api/areas', { name_en: name, name_zh: zh, parent_id: parent }).expect(201);
    }
    // the list shows the two areas, each with its districts
    const list = await admin.get('/api/areas?q=Tree&per_page=100').expect(200);
    expect(list.body.items.map((r: { name_en: string }) => r.name_en)).toEqual(['Tree North', 'Tree South']);
    // by English name: each area, then its districts naming it
    const expected = [
      ['', 'Tree North', '樹北'],
      ['Tree North', 'Tree North One', '樹北一'],
      ['Tree North', 'Tree North Two', '樹北二'],
      ['', 'Tree South', '樹南'],
      ['Tree South', 'Tree South One', '樹南一'],
    ];
    const csv = parseCsv(
      (await download(admin, '/api/areas?format=csv&q=Tree&lang=en')).body.toString('utf8'),
    );
    expect(csv[0].slice(0, 3)).toEqual(['Area', 'English name', 'Chinese name']);
    const byName = (rows: unknown[][]) =>
      rows
        .slice(1)
        .filter((r) => r.length > 1)
        // an empty XLSX cell is a hole in exceljs's row values
        .map((r) => Array.from(r.slice(0, 3), (v) => v ?? ''))
        .sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    expect(byName(csv)).toEqual(expected);
    const xlsx = await readXlsx((await download(admin, '/api/areas?format=xlsx&q=Tree&lang=en')).body);
    expect(byName(xlsx)).toEqual(expected);
    // without a search: every row of the table, as many as it holds
    const all = parseCsv((await download(admin, '/api/areas?format=csv')).body.toString('utf8'));
    const stored = Number((await t.db('areas').count({ n: '*' }).first())?.n);
    expect(all.filter((r) => r.length > 1).length - 1).toBe(stored);
    // one area's districts, as before
    const one = parseCsv(
      (await download(admin, `/api/areas?format=csv&parent_id=${south.body.id}`)).body.toString('utf8'),
    );
    expect(
      one
        .slice(1)
        .filter((r) => r.length > 1)
        .map((r) => r[1]),
    ).toEqual(['Tree South One']);
  });
});

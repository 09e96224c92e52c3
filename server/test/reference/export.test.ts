import { parseCsv, csvRecord, UTF8_BOM } from '../../src/modules/exports/csv';
import { businessToday } from '../../src/modules/numbering/business-time';
import { z } from 'zod';
import { toDbDateTime } from '../../src/lib/clock';
import { registerResource } from '../../src/resources/resource.routes';
import { Client, createBranch, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { download, readXlsx } from '../resources/helpers';

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
    expect(rows[1]).toEqual([`${YEAR}-12-31`, 'Day 365', '第365日']);
    expect(rows.at(-1)).toEqual([`${YEAR}-01-01`, 'Day 1', '第1日']);
    expect(rows.find((r) => r[0] === `${YEAR}-01-02`)?.[1]).toBe('Comma, "quote"\nand a new line');
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

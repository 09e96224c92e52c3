import fs from 'node:fs';
import { MESSAGES } from '../../../shared/errors';
import { csvRecord, UTF8_BOM } from '../../src/modules/exports/csv';
import { IMPORT_TMP_DIR } from '../../src/modules/exports/import-upload';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { excel } from '../../src/modules/exports/excel';
import { parseCsv } from '../../src/modules/exports/csv';
import { deflated, SHEET_HEAD, SHEET_TAIL, text, xlsx as zipXlsx } from '../files/zip-fixtures';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

const csv = (rows: unknown[][]) => Buffer.from(UTF8_BOM + rows.map(csvRecord).join(''), 'utf8');

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  const sheet = workbook.addWorksheet('Holidays');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const upload = (body: Buffer, name: string) =>
  admin
    .post('/api/holidays/import')
    .attach('file', body, { filename: name, contentType: 'application/octet-stream' });

const count = async () => Number((await t.db('holidays').count({ n: '*' }).first())?.n);
const tmpFiles = () => {
  // this worker's own (test files in other workers upload at the same time)
  return fs.existsSync(IMPORT_TMP_DIR) ? fs.readdirSync(IMPORT_TMP_DIR).length : 0;
};

describe('holidays import (POST /api/holidays/import)', () => {
  it('imports a CSV year of holidays, Chinese and quoted text included, with an audit row per holiday', async () => {
    const res = await upload(
      csv([
        ['date', 'name_en', 'name_zh'],
        ['2033-01-01', 'The first day of January', '一月一日'],
        ['2033-01-31', 'Lunar New Year’s Day, "first"', '農曆年初一'],
        ['', '', ''],
        ['2033-12-25', 'Christmas Day', '聖誕節'],
      ]),
      'hk-2033.csv',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 3 });
    const list = await admin.get('/api/holidays?year=2033').expect(200);
    expect(list.body.items.map((h: { name_en: string }) => h.name_en)).toEqual([
      'The first day of January',
      'Lunar New Year’s Day, "first"',
      'Christmas Day',
    ]);
    const audit = await t
      .db('audit_logs')
      .where({ entity: 'holiday' })
      .whereIn('action', ['create', 'import']);
    expect(audit.filter((a) => a.action === 'create')).toHaveLength(3);
    expect(JSON.parse(audit.find((a) => a.action === 'import').changes)).toEqual({
      file: 'hk-2033.csv',
      rows: 3,
    });
  });

  it('imports XLSX with date cells or date text, under the export’s Chinese headers', async () => {
    const res = await upload(
      await xlsx([
        ['日期', '英文名稱', '中文名稱'],
        [new Date(Date.UTC(2034, 0, 1)), 'New Year', '元旦'],
        ['2034-07-01', 'HKSAR Establishment Day', '香港特別行政區成立紀念日'],
      ]),
      'holidays.XLSX',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 2 });
    const rows = await t.db('holidays').where('date', 'like', '2034-%').orderBy('date');
    expect(rows.map((r) => [String(r.date).slice(0, 10), r.name_zh])).toEqual([
      ['2034-01-01', '元旦'],
      ['2034-07-01', '香港特別行政區成立紀念日'],
    ]);
  });

  it('refuses the whole file for bad rows, naming every one by its row number, and writes nothing', async () => {
    const before = await count();
    const auditBefore = Number((await t.db('audit_logs').count({ n: '*' }).first())?.n);
    const res = await upload(
      csv([
        ['date', 'name_en', 'name_zh'],
        ['2035-01-01', 'Good row', '好'], // row 2: fine on its own
        ['2035-02-30', 'Bad date', '壞日期'], // row 3
        ['2035-03-01', '', '無英文名'], // row 4
        ['2035-01-01', 'Repeated', '重複'], // row 5: same date as row 2
        ['2033-12-25', 'Already stored', '已存在'], // row 6: in the database
        ['2035-05-01', 'Labour Day', '勞動節'], // row 7: fine
      ]),
      'bad.csv',
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Rows with errors: 4. Nothing was imported.');
    expect(Object.keys(res.body.errors)).toEqual([
      'rows.3.date',
      'rows.4.name_en',
      'rows.5.date',
      'rows.6.date',
    ]);
    expect(res.body.errors['rows.3.date']).toEqual(['Row 3: Date: Must be a date (YYYY-MM-DD).']);
    expect(res.body.errors['rows.5.date']).toEqual(['Row 5: Date: The same as row 2.']);
    expect(res.body.errors['rows.6.date']).toEqual([`Row 6: Date: ${MESSAGES.duplicate}`]);
    // the same problems by key, for the client to word in its language
    expect(res.body.error_keys['rows.5.date']).toEqual([
      {
        key: 'importCell',
        params: { row: 5, column: 'Date', message: { key: 'importSameAs', params: { row: 2 } } },
      },
    ]);
    expect(await count()).toBe(before);
    expect(await t.db('holidays').where({ date: '2035-01-01' }).first()).toBeUndefined();
    expect(Number((await t.db('audit_logs').count({ n: '*' }).first())?.n)).toBe(auditBefore);
  });

  it('refuses other file types, content that does not match its extension, and a missing column', async () => {
    const txt = await upload(Buffer.from('date,name_en,name_zh\n'), 'holidays.txt');
    expect(txt.status).toBe(422);
    expect(txt.body.errors.file).toBeDefined();
    const fake = await upload(csv([['date', 'name_en', 'name_zh']]), 'holidays.xlsx');
    expect(fake.status).toBe(422);
    expect(fake.body.errors.file).toEqual(['The file is not a readable XLSX workbook.']);
    const binary = await upload(Buffer.from([0x4d, 0x5a, 0x00, 0x01, 0x02]), 'holidays.csv');
    expect(binary.status).toBe(422);
    const latin1 = await upload(
      Buffer.from('date,name_en,name_zh\n2036-01-01,Caf\xe9,x\n', 'latin1'),
      'h.csv',
    );
    expect(latin1.body.errors.file).toEqual(['Save the CSV file as UTF-8.']);
    const noColumn = await upload(
      csv([
        ['date', 'name'],
        ['2036-01-01', 'x'],
      ]),
      'h.csv',
    );
    expect(noColumn.status).toBe(422);
    expect(noColumn.body.errors.file).toEqual([
      'Unknown columns: name. Use the columns of the template.',
      'Missing columns: English name, Chinese name.',
    ]);
    const none = await admin.post('/api/holidays/import');
    expect(none.status).toBe(422);
    expect(none.body.errors.file).toBeDefined();
    const extraField = await admin
      .post('/api/holidays/import')
      .field('year', '2036')
      .attach('file', csv([['date', 'name_en', 'name_zh']]), 'h.csv');
    expect(extraField.status).toBe(422);
    const twoFiles = await admin
      .post('/api/holidays/import')
      .attach('file', csv([['date']]), 'a.csv')
      .attach('file', csv([['date']]), 'b.csv');
    expect(twoFiles.status).toBe(422);
    expect(tmpFiles()).toBe(0);
  });

  it('refuses a file over 5 MB with 413 and keeps no temporary file', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const res = await upload(big, 'big.csv');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The file is larger than 5 MB.');
    expect(tmpFiles()).toBe(0);
  });

  it('needs settings.create', async () => {
    const reader = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    await c.login(reader.email, reader.password);
    const res = await c.post('/api/holidays/import').attach(
      'file',
      csv([
        ['date', 'name_en', 'name_zh'],
        ['2037-01-01', 'x', 'y'],
      ]),
      'h.csv',
    );
    expect(res.status).toBe(403);
  });

  it('reads back its own exports: export a year as CSV or XLSX, empty it, import the file, same rows', async () => {
    await t.db('holidays').insert({
      date: '2038-04-01',
      name_en: '=Formula-looking, "quoted"',
      name_zh: '測試',
      created_at: '2026-01-01 00:00:00',
      updated_at: '2026-01-01 00:00:00',
    });
    await admin
      .post('/api/holidays', { date: '2038-10-01', name_en: 'National Day', name_zh: '國慶日' })
      .expect(201);
    const snapshot = async () =>
      (await admin.get('/api/holidays?year=2038').expect(200)).body.items.map(
        (h: { date: string; name_en: string; name_zh: string }) => [h.date, h.name_en, h.name_zh],
      );
    const before = await snapshot();
    for (const format of ['csv', 'xlsx'] as const) {
      const file = await admin
        .get(`/api/holidays?year=2038&format=${format}`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      await t.db('holidays').where('date', 'like', '2038-%').delete();
      const res = await upload(file.body, `export.${format}`);
      expect(res.status).toBe(200);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('reads a CSV export saved as XLSX by another program as the CSV itself: the apostrophe as text or as a style', async () => {
    const names = ['=Formula-looking', '+Plus', '-Minus', '@At'];
    const dates = names.map((_, i) => `2039-0${i + 1}-01`);
    for (const [i, name_en] of names.entries()) {
      await admin.post('/api/holidays', { date: dates[i], name_en, name_zh: `測試${i}` }).expect(201);
    }
    const snapshot = async () =>
      (await admin.get('/api/holidays?year=2039').expect(200)).body.items.map(
        (h: { date: string; name_en: string; name_zh: string }) => [h.date, h.name_en, h.name_zh],
      );
    const before = await snapshot();
    const exported = await admin
      .get('/api/holidays?year=2039&format=csv')
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    const records = parseCsv((exported.body as Buffer).toString('utf8')).filter((r) => r.length > 1);
    // the CSV defuses each name with an apostrophe
    expect(records.slice(1).map((r) => r[1])).toEqual(names.map((n) => `'${n}`));
    const empty = () => t.db('holidays').where('date', 'like', '2039-%').delete();

    // 1. the sheet saved as XLSX keeping the apostrophe in the text
    await empty();
    const asText = await upload(await xlsx(records), 'saved.xlsx');
    expect([asText.status, asText.body]).toEqual([200, { imported: names.length }]);
    expect(await snapshot()).toEqual(before);

    // 2. saved as Excel and LibreOffice do: the text without it, the cell styled `quotePrefix`
    await empty();
    const styles = deflated(
      'xl/styles.xml',
      '<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
        '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
        '<borders count="1"><border/></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1" applyAlignment="1"/></cellXfs>' +
        '</styleSheet>',
    );
    const quoted = (ref: string, value: string) =>
      `<c r="${ref}" t="inlineStr" s="1"><is><t>${value}</t></is></c>`;
    let sheet = `<row r="1">${text('A1', 'date')}${text('B1', 'name_en')}${text('C1', 'name_zh')}</row>`;
    records.slice(1).forEach(([date, name, zh], i) => {
      const r = i + 2;
      sheet += `<row r="${r}">${text(`A${r}`, date)}${quoted(`B${r}`, name.slice(1))}${text(`C${r}`, zh)}</row>`;
    });
    const styled = await upload(
      zipXlsx(deflated('xl/worksheets/sheet1.xml', SHEET_HEAD + sheet + SHEET_TAIL), [styles]),
      'styled.xlsx',
    );
    expect([styled.status, styled.body]).toEqual([200, { imported: names.length }]);
    expect(await snapshot()).toEqual(before);

    // 3. and the CSV itself, as before
    await empty();
    const asCsv = await upload(exported.body as Buffer, 'export.csv');
    expect([asCsv.status, asCsv.body]).toEqual([200, { imported: names.length }]);
    expect(await snapshot()).toEqual(before);
  });
});

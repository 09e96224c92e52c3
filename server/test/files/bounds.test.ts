import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { FIELD_MESSAGES, fieldMessage } from '../../../shared/messages';
import { Client, createTestApp, signedInAdmin, type TestApp } from '../harness';
import {
  BIG_ROW,
  deflated,
  MB,
  peakGrowth,
  repeated,
  SHEET_HEAD,
  SHEET_TAIL,
  text,
  xlsx,
} from './zip-fixtures';

/**
 * Every spreadsheet and image is bounded before it is parsed (quality §34), proved through the real app: the
 * holidays import (CSV or XLSX) and the profile photo. The workbooks are real ZIPs written here, among them a
 * decompression bomb: 2 MB that declares 1.8 GB of sheet, with the server's memory measured while it answers.
 */

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

// ---- a workbook around one sheet (zip-fixtures.ts) ----

const HEADER = `<row r="1">${text('A1', 'date')}${text('B1', 'name_en')}${text('C1', 'name_zh')}</row>`;
const holiday = (row: number, date: string, en: string, zh: string) =>
  `<row r="${row}">${text(`A${row}`, date)}${text(`B${row}`, en)}${text(`C${row}`, zh)}</row>`;

// ---- the requests ----

const importFile = (body: Buffer, name: string) =>
  admin
    .post('/api/holidays/import')
    .attach('file', body, { filename: name, contentType: 'application/octet-stream' });
const holidays = async () => Number((await t.db('holidays').count({ n: '*' }).first())?.n);

function refused(
  res: { status: number; body: { message: string; errors?: Record<string, string[]> } },
  message: string,
) {
  expect({ status: res.status, message: res.body.message, file: res.body.errors?.file }).toEqual({
    status: 422,
    message,
    file: [message],
  });
}

const TOO_LARGE = fieldMessage('sheetTooLarge', { max: 50 });
const COMPRESSED = FIELD_MESSAGES.sheetCompression;
const TOO_MANY_ROWS = fieldMessage('fileMaxRows', { max: 20000 });
const TOO_MANY_CELLS = fieldMessage('sheetMaxCells', { max: 1000000 });

describe('a workbook is bounded before it is parsed', () => {
  it('reads a workbook written here (the control: the refusals below are the bounds, not the writer)', async () => {
    const res = await importFile(
      xlsx(
        HEADER +
          holiday(2, '2041-01-01', 'New Year', '元旦') +
          holiday(3, '2041-12-25', 'Christmas', '聖誕節'),
      ),
      'control.xlsx',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 2 });
  });

  it('refuses a 2 MB decompression bomb that declares 1.8 GB, with bounded memory, and stays up', async () => {
    const sheet = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, BIG_ROW, 1844, SHEET_TAIL);
    const bomb = xlsx(sheet);
    expect(bomb.length).toBeLessThan(2.5 * MB);
    expect(sheet.size).toBeGreaterThan(1.8 * 1024 * MB);
    const before = await holidays();

    const { result: res, growthMb } = await peakGrowth(() => importFile(bomb, 'bomb.xlsx'));
    refused(res, COMPRESSED);
    expect(await holidays()).toBe(before);
    expect(growthMb).toBeLessThan(300);
    console.log(
      `bomb: ${(bomb.length / MB).toFixed(1)} MB workbook declaring ${(sheet.size / 1024 / MB).toFixed(1)} GB ` +
        `→ ${res.status}, peak RSS growth ${growthMb.toFixed(0)} MB`,
    );

    // the process is up and imports as before
    const after = await importFile(xlsx(HEADER + holiday(2, '2042-01-01', 'New Year', '元旦')), 'next.xlsx');
    expect(after.status).toBe(200);
  });

  it('refuses a part whose header lies (declares 4 KB, inflates to 1 GB) while inflating it', async () => {
    const truth = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, BIG_ROW, 1024, SHEET_TAIL);
    const liar = xlsx({ ...truth, size: 4096 });
    const before = await holidays();
    const { result: res, growthMb } = await peakGrowth(() => importFile(liar, 'liar.xlsx'));
    refused(res, COMPRESSED);
    expect(await holidays()).toBe(before);
    expect(growthMb).toBeLessThan(300);
    console.log(
      `lying header: ${(liar.length / MB).toFixed(1)} MB workbook declaring 4 KB, inflating to ` +
        `${(truth.size / 1024 / MB).toFixed(1)} GB → ${res.status}, peak RSS growth ${growthMb.toFixed(0)} MB`,
    );
  });

  it('refuses more than 50 MB unpacked even at an ordinary ratio (60 MB at about 30:1)', async () => {
    let rows = '';
    for (let i = 0; rows.length < MB; i++) {
      const noise = createHash('sha256').update(String(i)).digest('base64').slice(0, 4);
      rows += `<row><c t="inlineStr"><is><t>${noise}${' '.repeat(100)}</t></is></c></row>`;
    }
    const chunk = Buffer.from(rows);
    const sheet = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, chunk, 60, SHEET_TAIL);
    expect(sheet.size / sheet.data.length).toBeLessThan(100);
    const before = await holidays();
    refused(await importFile(xlsx(sheet), 'large.xlsx'), TOO_LARGE);
    expect(await holidays()).toBe(before);
  });

  it('refuses a ratio bomb under the size bound: one part over 100:1, or many small ones together', async () => {
    // 40 MB of sheet packed into 40 KB
    const sheet = repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + HEADER, BIG_ROW, 40, SHEET_TAIL);
    refused(await importFile(xlsx(sheet), 'ratio.xlsx'), COMPRESSED);
    // 400 parts of 100 KB of zeros: each small enough to pass alone, 40 MB in a 90 KB file together
    const zeros = zlib.deflateRawSync(Buffer.alloc(100 * 1024));
    const crc = zlib.crc32(Buffer.alloc(100 * 1024));
    const media = Array.from({ length: 400 }, (_, i) => ({
      name: `xl/media/image${i}.bin`,
      data: zeros,
      size: 100 * 1024,
      crc,
    }));
    const before = await holidays();
    refused(
      await importFile(xlsx(HEADER + holiday(2, '2043-01-01', 'New Year', '元旦'), media), 'parts.xlsx'),
      COMPRESSED,
    );
    expect(await holidays()).toBe(before);
  });

  it('refuses more than 10,000 parts', async () => {
    const empty = deflated('', '');
    const parts = Array.from({ length: 10_000 }, (_, i) => ({ ...empty, name: `xl/media/empty${i}.bin` }));
    const before = await holidays();
    refused(
      await importFile(xlsx(HEADER + holiday(2, '2046-01-01', 'New Year', '元旦'), parts), 'parts.xlsx'),
      FIELD_MESSAGES.fileNotXlsx,
    );
    expect(await holidays()).toBe(before);
  });

  it('refuses a sheet of 20,001 rows (formatted, empty) and reads one of 20,000', async () => {
    const rows = (last: number) => {
      let xml = HEADER + holiday(2, '2044-01-01', 'New Year', '元旦');
      for (let r = 3; r <= last; r++) xml += `<row r="${r}"><c r="A${r}" s="0"/></row>`;
      return xml;
    };
    const before = await holidays();
    refused(await importFile(xlsx(rows(20_001)), 'rows.xlsx'), TOO_MANY_ROWS);
    expect(await holidays()).toBe(before);
    const res = await importFile(xlsx(rows(20_000)), 'rows.xlsx');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 1 });
  });

  it('refuses a sheet past 1,000,000 cells: 62 rows, each with a cell in the last column (XFD)', async () => {
    let xml = HEADER;
    for (let r = 2; r <= 63; r++) xml += `<row r="${r}"><c r="XFD${r}"/></row>`;
    refused(await importFile(xlsx(xml), 'wide.xlsx'), TOO_MANY_CELLS);
  });

  it('refuses more than 50 million characters of cell text (one 1 MB shared string in 60 cells)', async () => {
    // 1 MB of text that does not compress, so that only the text bound can refuse it
    const noise = Buffer.alloc((3 * MB) / 4);
    for (let i = 0; i < noise.length; i += 32) createHash('sha256').update(String(i)).digest().copy(noise, i);
    const strings = deflated(
      'xl/sharedStrings.xml',
      '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        `<si><t>${noise.toString('base64')}</t></si></sst>`,
    );
    const column = (n: number): string =>
      (n > 26 ? column(Math.floor((n - 1) / 26)) : '') + String.fromCharCode(65 + ((n - 1) % 26));
    let cells = '';
    for (let c = 1; c <= 60; c++) cells += `<c r="${column(c)}2" t="s"><v>0</v></c>`;
    const before = await holidays();
    refused(await importFile(xlsx(`${HEADER}<row r="2">${cells}</row>`, [strings]), 'text.xlsx'), TOO_LARGE);
    expect(await holidays()).toBe(before);
  });
});

describe('a CSV is bounded too', () => {
  const csv = (lines: string[]) => Buffer.from(lines.join('\r\n') + '\r\n');

  it('refuses 20,001 rows and 1,000,001 cells before splitting the text, and reads 20,000 rows', async () => {
    // each file ends in a quote that is never closed: splitting it would answer that instead
    const before = await holidays();
    refused(
      await importFile(
        csv(['date,name_en,name_zh', ...Array<string>(20_000).fill(',,'), '"never closed']),
        'rows.csv',
      ),
      TOO_MANY_ROWS,
    );
    refused(
      await importFile(csv(['date,name_en,name_zh', ','.repeat(1_000_000) + '"never closed']), 'cells.csv'),
      TOO_MANY_CELLS,
    );
    expect(await holidays()).toBe(before);
    const res = await importFile(
      csv(['date,name_en,name_zh', '2045-01-01,New Year,元旦', ...Array<string>(19_998).fill(',,')]),
      'ok.csv',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 1 });
  });
});

describe('an image is bounded by its pixels before anything decodes it', () => {
  /** A PNG's header declaring `width` × `height` (a real signature and chunks, a token of image data). */
  function pngHeader(width: number, height: number): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr.writeUInt8(8, 8); // bit depth
    ihdr.writeUInt8(6, 9); // RGBA
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(Buffer.alloc(16))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
  const photo = (content: Buffer) =>
    admin
      .post('/api/user/profile-photo')
      .attach('file', content, { filename: 'me.png', contentType: 'image/png' });
  const fileRows = async () => Number((await t.db('files').count({ n: '*' }).first())?.n);

  it('refuses a 20000 × 20000 PNG header (400 megapixels in 100 bytes) and takes 8000 × 5000', async () => {
    const bomb = pngHeader(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100);
    const before = await fileRows();
    refused(await photo(bomb), fieldMessage('imageTooLarge', { max: 40 }));
    refused(await photo(pngHeader(8000, 5001)), fieldMessage('imageTooLarge', { max: 40 }));
    expect(await fileRows()).toBe(before);
    expect((await photo(pngHeader(8000, 5000))).status).toBe(201);
  });
});

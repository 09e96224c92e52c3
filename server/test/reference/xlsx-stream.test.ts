import { Writable } from 'node:stream';
import { excel } from '../../src/modules/exports/excel';
import {
  columnLetters,
  sheetName,
  xlsxSheetWriter,
  type XlsxValue,
} from '../../src/modules/exports/xlsx-stream';

/** A destination that keeps what it gets. */
function collector() {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const finished = new Promise<void>((resolve) => stream.on('finish', resolve));
  return { stream, body: async () => (await finished, Buffer.concat(chunks)) };
}

async function readBack(body: Buffer) {
  const workbook = new (excel().Workbook)();
  await workbook.xlsx.load(body as never);
  return workbook.worksheets[0];
}

describe('the XLSX sheet writer (exports)', () => {
  it('names columns past Z as a spreadsheet does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('writes text, numbers and date cells that exceljs reads back as they were', async () => {
    const out = collector();
    const writer = xlsxSheetWriter(out.stream, 'Invoices / 2026: [all]', [
      { header: 'Text <&> "quoted"' },
      { header: 'Amount' },
      { header: 'Day', date: 'date' },
      { header: 'Time', date: 'datetime' },
      { header: '學生' },
    ]);
    const rows: XlsxValue[][] = [
      [
        'a < b & c > "d"',
        1234.5,
        new Date(Date.UTC(2026, 10, 28)),
        new Date(Date.UTC(2026, 10, 28, 15, 30)),
        '陳大文 진대문',
      ],
      ['  spaces kept  ', -7, null, null, "'=1+1"],
      ['bell\u0007 gone\u0000', 0, null, new Date(Date.UTC(2026, 0, 1, 0, 0)), null],
    ];
    for (const row of rows) await writer.row(row);
    await writer.end();
    const sheet = await readBack(await out.body());

    expect(sheet.name).toBe('Invoices   2026   all');
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['Text <&> "quoted"', 'Amount', 'Day', 'Time', '學生']);
    expect(values(2)).toEqual(rows[0]);
    expect(values(3).slice(0, 2)).toEqual(['  spaces kept  ', -7]);
    expect(values(3)[4]).toBe("'=1+1");
    expect(values(4)[0]).toBe('bell gone');
    // a date column's cells carry its format, the empty ones too
    expect(sheet.getCell('C2').numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getCell('D2').numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getCell('C3').value).toBeNull();
    expect(sheet.getCell('C3').numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getCell('E4').value).toBeNull();
    expect(sheet.rowCount).toBe(4);
  });

  it('puts each of 30 columns in its own column', async () => {
    const out = collector();
    const headers = Array.from({ length: 30 }, (_, i) => `h${i}`);
    const writer = xlsxSheetWriter(
      out.stream,
      'Wide',
      headers.map((header) => ({ header })),
    );
    await writer.row(headers.map((_, i) => i));
    await writer.end();
    const sheet = await readBack(await out.body());
    expect(sheet.getCell('AD1').value).toBe('h29');
    expect(sheet.getCell('AD2').value).toBe(29);
    expect(sheet.getCell('Z2').value).toBe(25);
  });

  it('waits while the destination takes nothing, and stops when it closes', async () => {
    // a reader that never reads: the rows must stop coming, not fill the memory
    const stuck = new Writable({ highWaterMark: 1024, write() {} });
    const writer = xlsxSheetWriter(stuck, 'Stuck', [{ header: 'n' }, { header: 'text' }]);
    let written = 0;
    const all = (async () => {
      for (let i = 0; i < 1_000_000; i++) {
        await writer.row([i, `row ${i} of a report that nobody is reading`]);
        written = i + 1;
      }
    })();
    const settled = all.then(
      () => 'finished',
      (err: Error) => err.message,
    );
    // wait until the writer stops making progress
    let seen = -1;
    while (seen !== written) {
      seen = written;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // what waits is the zip's 64 KiB of output (with archiver's own 1 MiB, 313,530 of these rows, 20 MB of XML)
    expect(written).toBeLessThan(100_000);
    stuck.destroy();
    expect(await settled).toBe('the destination closed');
    console.log(
      `sheet writer: a destination that reads nothing held it at ${written} rows; closing it ended the export`,
    );
  });

  it('makes a sheet name Excel accepts', () => {
    expect(sheetName('a'.repeat(40))).toHaveLength(31);
    expect(sheetName('')).toBe('Export');
    expect(sheetName('Q1: a/b?')).toBe('Q1  a b');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { excel } from './excel';
import { AppError } from '../../lib/app-error';
import { UTF8_BOM, undefuse } from './csv';
import type { ImportExtension } from './import-upload';
import {
  SHEET_BOUNDS,
  openXlsx,
  sheetTooLarge,
  sheetTooManyCells,
  sheetTooManyRows,
  type XlsxPackage,
} from './spreadsheet-bounds';
import { msg } from '../../../../shared/messages';

export interface TableRow {
  /** the row's number as a spreadsheet shows it: the header is row 1 */
  row: number;
  cells: string[];
}

export interface Table {
  header: string[];
  rows: TableRow[];
}

const notReadable = (kind: 'fileNotXlsx' | 'fileNotCsv') => AppError.field('validation', 'file', kind);

/** What reading a table hands on, as it reads: the header (row 1) once, then each row with something in it. */
export interface TableSink {
  header(cells: string[]): void;
  row(row: TableRow): void;
}

/** A sheet's column letter: 1 → `A`, 26 → `Z`, 27 → `AA`. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * The table as it is read, row by row, within the bounds of quality §34: at most 20,000 rows and 1,000,000
 * cells in the file, at most 50 million characters of cell text (a short shared string repeated in every
 * cell stays short, a long one does not), and at most `maxRows` rows with something in them. The first row
 * past a bound stops the reading. Rows are handed on as they come: nothing here keeps them.
 *
 * Each cell is read as the exports write it, whatever the format: a formula-like text's defusing apostrophe is
 * removed (csv.ts `undefuse`). A value in a column whose header (row 1) is empty stops the reading too, naming its
 * row and column letter: it would belong to no field and be dropped without a word.
 */
class TableBuilder {
  private rowsRead = 0;
  private cellsRead = 0;
  private characters = 0;
  private filled = 0;
  /** the header's cells, once row 1 is read */
  private headers: string[] | null = null;

  constructor(
    private readonly maxRows: number,
    private readonly sink: TableSink,
  ) {}

  /** Counts one more cell of the file (the CSV reader counts its fields as it splits them). */
  countCells(n: number): void {
    this.cellsRead += n;
    if (this.cellsRead > SHEET_BOUNDS.maxCells) throw sheetTooManyCells();
  }

  /** Row `row`, `width` cells wide (its last cell's column); `textOf(column)` reads a cell (1-based). */
  add(row: number, width: number, textOf: (column: number) => string, counted = false): void {
    if (++this.rowsRead > SHEET_BOUNDS.maxRows) throw sheetTooManyRows();
    const columns = Math.max(width, 1);
    if (!counted) this.countCells(columns);
    const cells: string[] = [];
    for (let c = 1; c <= columns; c++) {
      const text = textOf(c);
      this.characters += text.length;
      if (this.characters > SHEET_BOUNDS.maxUnpackedBytes) throw sheetTooLarge();
      cells.push(undefuse(text));
    }
    if (row === 1) {
      this.headers = cells.map((h) => h.trim());
      this.sink.header(this.headers);
      return;
    }
    if (!cells.some((c) => c !== '')) return;
    // the whole row read first: a bound it passes is the answer before this
    if (this.headers) {
      const headers = this.headers;
      const stray = cells.findIndex((cell, i) => cell !== '' && !headers[i]);
      if (stray >= 0) {
        throw AppError.field(
          'validation',
          'file',
          msg('importNoHeader', { row, column: columnLetter(stray + 1) }),
        );
      }
    }
    if (++this.filled > this.maxRows) {
      throw AppError.field('validation', 'file', msg('fileMaxRows', { max: this.maxRows }));
    }
    this.sink.row({ row, cells });
  }
}

/**
 * A cell as text: a date cell as `YYYY-MM-DD` (with ` HH:mm:ss` when it has a time of day: the wall-clock time it
 * shows, to the second), rich text and hyperlinks as their text, formulas as their result.
 */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const iso = new Date(Math.round(value.getTime() / 1000) * 1000).toISOString();
    return iso.slice(11, 19) === '00:00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value).trim();
}

/** What exceljs's streaming reader knows once it has read the workbook's parts (not in its typings). */
interface ReaderState {
  model?: { sheets?: { rId?: string }[] };
  workbookRels?: { Id?: string; Type?: string; Target?: string }[];
  sharedStrings?: unknown[];
  properties?: unknown;
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const STYLES = 'xl/styles.xml';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const SHEET_PART = /^xl\/worksheets\/sheet(\d+)\.xml$/;

function workbookReader(source: Readable): ExcelJS.stream.xlsx.WorkbookReader {
  const { WorkbookReader } = excel().stream.xlsx;
  return new WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // the number formats, which tell a date from a number
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
}

/**
 * Runs `consume` over the reader of `source`; when the stream fails (a bound passed while inflating), that
 * error ends it at once: the reader, which would wait for the rest of the stream, is left behind.
 */
async function reading<T>(source: Readable, consume: () => Promise<T>): Promise<T> {
  const failed = new Promise<never>((_, reject) => source.once('error', reject));
  failed.catch(() => undefined);
  try {
    return await Promise.race([consume(), failed]);
  } finally {
    source.destroy();
  }
}

/**
 * The part of the workbook's first worksheet (first in the workbook's order, as exceljs's `worksheets[0]`),
 * read from the workbook and its relationships; else the lowest `sheetN.xml`; null when there is none.
 */
async function firstSheetPart(pkg: XlsxPackage): Promise<string | null> {
  const parts = [WORKBOOK_RELS, WORKBOOK].filter((name) => pkg.has(name)).map((name) => ({ name }));
  if (parts.length === 2) {
    const source = pkg.stream(parts);
    const reader = workbookReader(source);
    await reading(source, async () => {
      // the workbook and its relationships only: no sheet, so no event, just the parts read
      const events = reader.parse();
      while (!(await events.next()).done);
    });
    const state = reader as unknown as ReaderState;
    for (const sheet of state.model?.sheets ?? []) {
      const rel = state.workbookRels?.find((r) => r.Id === sheet.rId);
      // a chart sheet has no rows: the first worksheet is the one read
      if (!rel?.Target || !rel.Type?.endsWith('/worksheet')) continue;
      const part = rel.Target.startsWith('/') ? rel.Target.slice(1) : path.posix.join('xl', rel.Target);
      if (pkg.has(part)) return part;
    }
  }
  const sheets = pkg
    .names()
    .filter((name) => SHEET_PART.test(name))
    .sort((a, b) => Number(SHEET_PART.exec(a)![1]) - Number(SHEET_PART.exec(b)![1]));
  return sheets[0] ?? null;
}

/**
 * The first sheet of an XLSX, row by row. The ZIP is checked first (spreadsheet-bounds.ts: declared sizes and
 * ratios, before anything is inflated); then exceljs's streaming reader reads the workbook, its styles, its
 * shared strings and that one sheet from a stream that inflates them with their bytes counted, and the rows
 * are counted as they come. At no point is the whole workbook held in memory.
 */
async function readXlsx(filePath: string, table: TableBuilder): Promise<void> {
  const head = Buffer.alloc(4);
  const fd = await fs.promises.open(filePath, 'r');
  try {
    await fd.read(head, 0, 4, 0);
  } finally {
    await fd.close();
  }
  if (!head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) throw notReadable('fileNotXlsx');
  const pkg = await openXlsx(filePath);
  try {
    const sheet = await firstSheetPart(pkg);
    if (!sheet) return;
    const parts = [WORKBOOK, STYLES, SHARED_STRINGS]
      .filter((name) => pkg.has(name))
      .map((name) => ({ name }));
    const source = pkg.stream([...parts, { name: sheet, as: 'xl/worksheets/sheet1.xml' }]);
    const reader = workbookReader(source);
    // exceljs parks a sheet in a temporary file unless it has read shared strings and relationships first:
    // the sheet comes last here, and a workbook without shared strings (inline text) has none to wait for
    Object.assign(reader as unknown as ReaderState, { sharedStrings: [], workbookRels: [], properties: {} });
    await reading(source, async () => {
      let last = 0;
      for await (const worksheet of reader) {
        for await (const row of worksheet) {
          last = Number.isInteger(row.number) && row.number > 0 ? row.number : last + 1;
          const values = row.values as ExcelJS.CellValue[];
          table.add(last, row.cellCount, (c) => cellText(values[c]));
        }
        break;
      }
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw notReadable('fileNotXlsx');
  } finally {
    pkg.close();
  }
}

/**
 * CSV split as it is read (the rules of `parseCsv`, csv.ts: RFC 4180, CRLF or LF, a leading BOM), chunk by
 * chunk: each field is counted against the cell bound as it ends and each record handed on as it ends, so that
 * neither the text nor its records are ever held whole (a file of commas is refused at the millionth field).
 */
class CsvSplitter {
  private record: string[] = [];
  private field = '';
  private quoted = false;
  private line = 1;
  private quoteLine = 0;
  private records = 0;
  /** a last character whose meaning depends on the next one (`"` inside quotes, CR) */
  private carry = '';

  constructor(private readonly table: TableBuilder) {}

  push(chunk: string, final = false): void {
    let text = this.carry + chunk;
    this.carry = '';
    if (!final && text.length && (text.endsWith('"') || text.endsWith('\r'))) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            this.field += '"';
            i++;
          } else this.quoted = false;
        } else {
          if (c === '\n') this.line++;
          this.field += c;
        }
      } else if (c === '"' && this.field === '') {
        this.quoted = true;
        this.quoteLine = this.line;
      } else if (c === ',') this.endField();
      else if (c === '\r' || c === '\n') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        this.endRecord();
        this.line++;
      } else this.field += c;
    }
  }

  end(): void {
    this.push('', true);
    if (this.quoted) {
      throw AppError.field('validation', 'file', msg('csvQuoteOpen', { line: this.quoteLine }));
    }
    if (this.field !== '' || this.record.length) this.endRecord();
  }

  private endField(): void {
    this.table.countCells(1);
    this.record.push(this.field);
    this.field = '';
  }

  private endRecord(): void {
    this.endField();
    const record = this.record;
    this.record = [];
    this.table.add(++this.records, record.length, (c) => record[c - 1].trim(), true);
  }
}

/** A CSV read in chunks from the disk, decoded as UTF-8 as it comes (a byte that is not UTF-8 refuses it). */
async function readCsv(filePath: string, table: TableBuilder): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const splitter = new CsvSplitter(table);
  const decode = (bytes?: Buffer): string => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw AppError.field('validation', 'file', 'csvUtf8');
    }
  };
  let first = true;
  const source = fs.createReadStream(filePath, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (chunk.includes(0)) throw notReadable('fileNotCsv');
      let text = decode(chunk);
      if (first && text.startsWith(UTF8_BOM)) text = text.slice(1);
      if (text) first = false;
      splitter.push(text);
    }
    splitter.push(decode());
    splitter.end();
  } finally {
    source.destroy();
  }
}

/**
 * Reads an uploaded CSV or XLSX (first sheet) row by row, handing `sink` the header (row 1) and then each row
 * with something in it, as it is read: the file is never held whole, in text or in rows. The content must be
 * what the extension says. The file is bounded before it is parsed and while it is read (quality §34): a file
 * past a bound, or with more than `maxRows` rows with something in them, is refused with a 422 on `file` (what
 * the sink was handed until then is to be thrown away). A sink's own throw stops the reading too.
 */
export async function streamTable(
  filePath: string,
  extension: ImportExtension,
  maxRows: number,
  sink: TableSink,
): Promise<void> {
  const table = new TableBuilder(maxRows, sink);
  if (extension === 'xlsx') await readXlsx(filePath, table);
  else await readCsv(filePath, table);
}

/** The whole table at once (at most `maxRows` rows with something in them), for small files. */
export async function readTable(
  filePath: string,
  extension: ImportExtension,
  maxRows: number,
): Promise<Table> {
  const table: Table = { header: [], rows: [] };
  await streamTable(filePath, extension, maxRows, {
    header: (cells) => (table.header = cells),
    row: (row) => table.rows.push(row),
  });
  return table;
}

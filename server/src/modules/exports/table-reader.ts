import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { AppError } from '../../lib/app-error';
import { UTF8_BOM, parseCsv } from './csv';
import type { ImportExtension } from './import-upload';
import {
  SHEET_BOUNDS,
  openXlsx,
  sheetTooLarge,
  sheetTooManyCells,
  sheetTooManyRows,
  type XlsxPackage,
} from './spreadsheet-bounds';
import { FIELD_MESSAGES, fieldMessage } from '../../../../shared/messages';

export interface TableRow {
  /** the row's number as a spreadsheet shows it: the header is row 1 */
  row: number;
  cells: string[];
}

export interface Table {
  header: string[];
  rows: TableRow[];
}

const notReadable = (kind: 'fileNotXlsx' | 'fileNotCsv') =>
  AppError.field('validation', 'file', FIELD_MESSAGES[kind]);

/**
 * The table as it is read, row by row, within the bounds of quality §34: at most 20,000 rows and 1,000,000
 * cells in the file, at most 50 million characters of cell text (a short shared string repeated in every
 * cell stays short, a long one does not), and at most `maxRows` rows with something in them. The first row
 * past a bound stops the reading.
 */
class TableBuilder {
  readonly rows: TableRow[] = [];
  header: string[] = [];
  private rowsRead = 0;
  private cellsRead = 0;
  private characters = 0;

  constructor(private readonly maxRows: number) {}

  /** Row `row`, `width` cells wide (its last cell's column); `textOf(column)` reads a cell (1-based). */
  add(row: number, width: number, textOf: (column: number) => string): void {
    if (++this.rowsRead > SHEET_BOUNDS.maxRows) throw sheetTooManyRows();
    const columns = Math.max(width, 1);
    this.cellsRead += columns;
    if (this.cellsRead > SHEET_BOUNDS.maxCells) throw sheetTooManyCells();
    const cells: string[] = [];
    for (let c = 1; c <= columns; c++) {
      const text = textOf(c);
      this.characters += text.length;
      if (this.characters > SHEET_BOUNDS.maxUnpackedBytes) throw sheetTooLarge();
      cells.push(text);
    }
    if (row === 1) {
      this.header = cells;
      return;
    }
    if (!cells.some((c) => c !== '')) return;
    this.rows.push({ row, cells });
    if (this.rows.length > this.maxRows) {
      throw AppError.field('validation', 'file', fieldMessage('fileMaxRows', { max: this.maxRows }));
    }
  }
}

/** A cell as text: dates as `YYYY-MM-DD`, rich text and hyperlinks as their text, formulas as their result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
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
  return new ExcelJS.stream.xlsx.WorkbookReader(source, {
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
  table.rows.sort((a, b) => a.row - b.row);
}

/** Our exports write a formula-looking cell with a leading `'` (csv.ts): read back, it is the text again. */
function undefuse(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/**
 * Counts records and fields as `parseCsv` splits them, and refuses the text past the row or cell bound before
 * it is split (a file of commas would otherwise become a million strings first).
 */
function boundCsv(text: string): void {
  let rows = 0;
  let cells = 0;
  let fields = 0;
  let fieldLength = 0;
  let quoted = false;
  const endField = () => {
    if (++cells > SHEET_BOUNDS.maxCells) throw sheetTooManyCells();
    fields++;
    fieldLength = 0;
  };
  const endRecord = () => {
    endField();
    if (++rows > SHEET_BOUNDS.maxRows) throw sheetTooManyRows();
    fields = 0;
  };
  for (let i = text.startsWith(UTF8_BOM) ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else {
          quoted = false;
          continue;
        }
      }
      fieldLength++;
    } else if (c === '"' && fieldLength === 0) quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else fieldLength++;
  }
  if (!quoted && (fieldLength > 0 || fields > 0)) endRecord();
}

async function readCsv(filePath: string, table: TableBuilder): Promise<void> {
  const bytes = await fs.promises.readFile(filePath);
  if (bytes.includes(0)) throw notReadable('fileNotCsv');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw AppError.field('validation', 'file', FIELD_MESSAGES.csvUtf8);
  }
  boundCsv(text);
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (err) {
    throw AppError.field('validation', 'file', (err as Error).message);
  }
  records.forEach((record, i) => table.add(i + 1, record.length, (c) => undefuse(record[c - 1].trim())));
}

/**
 * Reads an uploaded CSV or XLSX (first sheet) as a header and numbered rows, leaving out rows with nothing
 * in them. The content must be what the extension says. The file is bounded before it is parsed and while
 * it is read (quality §34): a file past a bound, or with more than `maxRows` rows with something in them, is
 * refused with a 422 on `file`.
 */
export async function readTable(
  filePath: string,
  extension: ImportExtension,
  maxRows: number,
): Promise<Table> {
  const table = new TableBuilder(maxRows);
  if (extension === 'xlsx') await readXlsx(filePath, table);
  else await readCsv(filePath, table);
  return { header: table.header.map((h) => h.trim()), rows: table.rows };
}

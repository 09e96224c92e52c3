import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { AppError } from '../../lib/app-error';
import { parseCsv } from './csv';
import type { ImportExtension } from './import-upload';
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

async function readXlsx(filePath: string): Promise<string[][]> {
  const head = Buffer.alloc(4);
  const fd = await fs.promises.open(filePath, 'r');
  try {
    await fd.read(head, 0, 4, 0);
  } finally {
    await fd.close();
  }
  if (!head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) throw notReadable('fileNotXlsx');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(filePath);
  } catch {
    throw notReadable('fileNotXlsx');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const out: string[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= Math.max(row.cellCount, 1); c++) cells.push(cellText(row.getCell(c).value));
    out.push(cells);
  }
  return out;
}

/** Our exports write a formula-looking cell with a leading `'` (csv.ts): read back, it is the text again. */
function undefuse(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

async function readCsv(filePath: string): Promise<string[][]> {
  const bytes = await fs.promises.readFile(filePath);
  if (bytes.includes(0)) throw notReadable('fileNotCsv');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw AppError.field('validation', 'file', 'Save the CSV file as UTF-8.');
  }
  try {
    return parseCsv(text).map((record) => record.map((cell) => undefuse(cell.trim())));
  } catch (err) {
    throw AppError.field('validation', 'file', (err as Error).message);
  }
}

/**
 * Reads an uploaded CSV or XLSX (first sheet) as a header and numbered rows, leaving out rows with nothing
 * in them. The content must be what the extension says.
 */
export async function readTable(
  filePath: string,
  extension: ImportExtension,
  maxRows: number,
): Promise<Table> {
  const records = extension === 'xlsx' ? await readXlsx(filePath) : await readCsv(filePath);
  const [header = [], ...rest] = records;
  const rows = rest.map((cells, i) => ({ row: i + 2, cells })).filter((r) => r.cells.some((c) => c !== ''));
  if (rows.length > maxRows) {
    throw AppError.field('validation', 'file', fieldMessage('fileMaxRows', { max: maxRows }));
  }
  return { header: header.map((h) => h.trim()), rows };
}

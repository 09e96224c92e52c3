import type { Response } from 'express';
import type { ExportColumn, Row } from '../../resources/resource';
import { BUSINESS_UTC_OFFSET_MS, businessToday } from '../numbering/business-time';
import { csvRecord, defuse, UTF8_BOM } from './csv';
import { drained } from './drain';
import { xlsxSheetWriter, type XlsxSheetWriter, type XlsxValue } from './xlsx-stream';

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportLanguage = 'en' | 'zh';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/** `zh_HK` (a staff user's language) heads the columns in Chinese; anything else in English. */
export function exportLanguage(language: string | undefined): ExportLanguage {
  return language?.startsWith('zh') ? 'zh' : 'en';
}

/** `holidays-2026-11-22.xlsx` (today in Hong Kong): nothing a header or a file system would choke on. */
export function exportFileName(name: string, format: ExportFormat | 'pdf'): string {
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  return `${safe}-${businessToday()}.${format}`;
}

/** Columns when a resource declares none: the response's own fields, named by their keys. */
export function columnsOf(row: Row): ExportColumn[] {
  return Object.keys(row)
    .filter((key) => typeof row[key] !== 'object' || row[key] === null)
    .filter((key) => !['created_by', 'updated_by'].includes(key))
    .map((key) => ({ key, en: key, zh: key }));
}

/**
 * A DATE value (`YYYY-MM-DD`, a time after it ignored; or a driver's Date at local midnight) as that day's midnight
 * UTC, which a spreadsheet shows as that day; null when it is no calendar day.
 */
export function calendarDay(value: unknown): Date | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return new Date(Date.UTC(value.getFullYear(), value.getMonth(), value.getDate()));
  }
  if (typeof value !== 'string') return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})(?:$|[ T])/.exec(value.trim());
  if (!day) return null;
  const [year, month, date] = [Number(day[1]), Number(day[2]) - 1, Number(day[3])];
  const midnight = new Date(Date.UTC(year, month, date));
  // 2030-02-30 is no day: left as the text it is
  return midnight.getUTCMonth() === month && midnight.getUTCDate() === date ? midnight : null;
}

/**
 * A stored instant (ISO with its offset, or the database's `YYYY-MM-DD HH:mm:ss` in UTC) as the Hong Kong wall
 * clock, held in a Date's UTC fields (to the second); null if none.
 */
export function hongKongWallClock(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const text = value instanceof Date ? value.toISOString() : String(value).trim();
  const iso = /(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text.replace(' ', 'T')}Z`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  return new Date(Math.round((ms + BUSINESS_UTC_OFFSET_MS) / 1000) * 1000);
}

/**
 * A cell's value as `format` writes it. A date or a time is a date cell in XLSX (a Date: the day at UTC midnight,
 * or the Hong Kong wall-clock time, since a spreadsheet has no time zones) and text in CSV (`YYYY-MM-DD`, and
 * `YYYY-MM-DD HH:mm` in Hong Kong time); a value that is no date stays as it is. Booleans are yes/no in the
 * export's language, objects JSON.
 */
function cellValue(column: ExportColumn, row: Row, language: ExportLanguage, format: ExportFormat): unknown {
  const value = column.value ? column.value(row, language) : row[column.key];
  if (value === undefined || value === null) return null;
  if (column.type) {
    const date = column.type === 'date' ? calendarDay(value) : hongKongWallClock(value);
    if (date) {
      if (format === 'xlsx') return date;
      return column.type === 'date'
        ? date.toISOString().slice(0, 10)
        : date.toISOString().slice(0, 16).replace('T', ' ');
    }
  }
  if (typeof value === 'boolean') return language === 'zh' ? (value ? '是' : '否') : value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  // an XLSX text cell is never a formula, so it needs no defusing; but one already starting with apostrophes
  // before a formula sign gets one more, as in CSV, for the import to give it back as it was (csv.ts `undefuse`)
  if (format === 'xlsx' && typeof value === 'string' && value.startsWith("'")) return defuse(value);
  return value;
}

export interface ExportSpec {
  format: ExportFormat;
  name: string;
  language: ExportLanguage;
  columns?: ExportColumn[];
  /** the rows, batch by batch */
  batches: AsyncIterable<Row[]>;
}

/**
 * Streams an export to the response as it reads it: XLSX through the sheet writer (xlsx-stream.ts: rows
 * written into the zip stream as they come), CSV batch by batch, both waiting for the response to drain whenever its
 * buffer is full, so that a slow reader holds back the export instead of the memory filling and the event loop
 * stalling for everyone else. An error after the first byte ends the response (the error middleware cannot
 * answer a started download); a client that goes away ends the export (and its query, through the batches'
 * abort signal).
 */
export async function streamExport(res: Response, spec: ExportSpec): Promise<void> {
  // the first batch is read before anything is sent: a refusal (a bad sort column, a failed query) is an
  // ordinary error answer, not a broken download
  const iterator = spec.batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  const batches: AsyncIterable<Row[]> = {
    async *[Symbol.asyncIterator]() {
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      } finally {
        // stopped early (the client went away, a write failed): let the source end its work
        await iterator.return?.();
      }
    },
  };
  res.status(200);
  res.setHeader('Content-Type', CONTENT_TYPES[spec.format]);
  res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(spec.name, spec.format)}"`);
  try {
    if (spec.format === 'csv') await writeCsv(res, { ...spec, batches });
    else await writeXlsx(res, { ...spec, batches });
  } catch (err) {
    // the download has started: end it broken rather than send a JSON error into the file
    res.destroy(err as Error);
  }
}

async function write(res: Response, chunk: string): Promise<void> {
  res.write(chunk);
  await drained(res);
}

async function writeCsv(res: Response, spec: ExportSpec): Promise<void> {
  let columns = spec.columns;
  let started = false;
  const header = async (cols: ExportColumn[]) => {
    await write(res, UTF8_BOM + csvRecord(cols.map((c) => c[spec.language])));
    started = true;
  };
  for await (const rows of spec.batches) {
    columns ??= columnsOf(rows[0]);
    if (!started) await header(columns);
    let chunk = '';
    for (const row of rows) chunk += csvRecord(columns.map((c) => cellValue(c, row, spec.language, 'csv')));
    await write(res, chunk);
  }
  if (!started) await header(columns ?? [{ key: 'id', en: 'id', zh: 'id' }]);
  res.end();
}

async function writeXlsx(res: Response, spec: ExportSpec): Promise<void> {
  let sheet: XlsxSheetWriter | undefined;
  let columns = spec.columns;
  const start = (cols: ExportColumn[]) =>
    xlsxSheetWriter(
      res,
      spec.name,
      cols.map((c) => ({ header: c[spec.language], date: c.type })),
    );
  try {
    for await (const rows of spec.batches) {
      columns ??= columnsOf(rows[0]);
      sheet ??= start(columns);
      for (const row of rows)
        await sheet.row(columns.map((c) => xlsxValue(cellValue(c, row, spec.language, 'xlsx'))));
    }
    sheet ??= start(columns ?? [{ key: 'id', en: 'id', zh: 'id' }]);
    await sheet.end();
  } catch (err) {
    sheet?.abort();
    throw err;
  }
}

/** A cell as the sheet writer takes it: text, a number, a date or nothing (anything else as its text). */
function xlsxValue(value: unknown): XlsxValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  return String(value);
}

import { PassThrough, type Writable } from 'node:stream';
import { drained } from './drain';

/**
 * One worksheet of text, numbers and date cells, written as SpreadsheetML straight into a zip stream (archiver, the
 * zip writer exceljs itself uses). An export writes nothing else — no formulas, merges, images or rich text — and
 * exceljs's streaming writer builds a model object per cell and renders it through its own XML layer, which made a
 * 100,000-row report spend four seconds of CPU (decision 0019). Reading spreadsheets (imports, the tests) stays
 * with exceljs.
 */

/** A cell's value: text, a number, a date (its UTC fields are the wall clock shown), or nothing. */
export type XlsxValue = string | number | Date | null;

/** How a date cell shows: a day, or a day and a time to the minute. */
export type XlsxDateFormat = 'date' | 'datetime';

interface ArchiverLike {
  pipe(destination: Writable): void;
  append(source: string | PassThrough, data: { name: string }): void;
  finalize(): Promise<void>;
  abort(): void;
  on(event: 'error' | 'warning', listener: (err: Error) => void): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const archiver = require('archiver') as (
  format: 'zip',
  options: { zlib: { level: number }; highWaterMark: number },
) => ArchiverLike;

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const CONTENT_TYPES =
  `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS =
  `${HEAD}<Relationships xmlns="${PACKAGE_RELS}">` +
  `<Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS =
  `${HEAD}<Relationships xmlns="${PACKAGE_RELS}">` +
  `<Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${RELS}/styles" Target="styles.xml"/>` +
  '</Relationships>';

/** Style 0 plain, 1 a day, 2 a day and a time (custom number formats 164 and 165). */
const STYLE_OF: Record<XlsxDateFormat, number> = { date: 1, datetime: 2 };
const STYLES =
  `${HEAD}<styleSheet xmlns="${MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** Characters XML 1.0 cannot hold (controls but tab and line ends, U+FFFE/U+FFFF, lone surrogates): left out. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MARKUP = /[&<>"]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data or an attribute value. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(MARKUP, (c) => ENTITY[c]);
}

/** The column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A spreadsheet's day number (1900 date system) for a Date whose UTC fields are the wall clock shown. */
export function serialOf(date: Date): number {
  return date.getTime() / 86_400_000 + 25_569;
}

/** A sheet name Excel accepts: at most 31 characters, none of `: \ / ? * [ ]`. */
export function sheetName(name: string): string {
  return (
    name
      .replace(/[:\\/?*[\]]/g, ' ')
      .slice(0, 31)
      .trim() || 'Export'
  );
}

function cell(ref: string, value: XlsxValue, dateFormat: XlsxDateFormat | undefined): string {
  // an empty cell of a date column keeps the column's format (a date typed into it later shows as one)
  if (value === null || value === undefined)
    return dateFormat ? `<c r="${ref}" s="${STYLE_OF[dateFormat]}"/>` : '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return `<c r="${ref}" s="${STYLE_OF[dateFormat ?? 'datetime']}"><v>${serialOf(value)}</v></c>`;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"><v>${value}</v></c>` : '';
  const text = xmlText(String(value));
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

export interface XlsxSheetWriter {
  /** Writes one row; resolves once the stream has room for more (rejects when the destination closed). */
  row(values: XlsxValue[]): Promise<void>;
  /** Ends the sheet and the file. */
  end(): Promise<void>;
  /** Stops writing: the destination is left as it is (to be destroyed by the caller). */
  abort(): void;
}

/**
 * A workbook of one sheet streamed into `destination`: `columns` names the header row (and each column's date
 * format, for its Date values), then `row()` for each row. Backpressure is the destination's: a row waits while
 * the zip stream's buffer is full, and rejects if the destination closes meanwhile.
 */
export function xlsxSheetWriter(
  destination: Writable,
  name: string,
  columns: { header: string; date?: XlsxDateFormat }[],
  options: { width?: number } = {},
): XlsxSheetWriter {
  // level 1: a fraction of the default's CPU for a file about 6% larger (a report's rows repeat themselves). The
  // zipped bytes waiting for a slow reader: 64 KiB, not archiver's 1 MiB (which held 20 MB of a sheet's XML)
  const zip = archiver('zip', { zlib: { level: 1 }, highWaterMark: 64 * 1024 });
  let failure: Error | undefined;
  zip.on('error', (err) => (failure ??= err));
  zip.pipe(destination);
  zip.append(CONTENT_TYPES, { name: '[Content_Types].xml' });
  zip.append(ROOT_RELS, { name: '_rels/.rels' });
  zip.append(
    `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets>` +
      `<sheet name="${xmlText(sheetName(name))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    { name: 'xl/workbook.xml' },
  );
  zip.append(WORKBOOK_RELS, { name: 'xl/_rels/workbook.xml.rels' });
  zip.append(STYLES, { name: 'xl/styles.xml' });
  const sheet = new PassThrough();
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });

  const letters = columns.map((_, i) => columnLetters(i));
  const dates = columns.map((c) => c.date);
  let rowNumber = 0;
  let pending = '';

  const flush = async (): Promise<void> => {
    if (failure) throw failure;
    const text = pending;
    pending = '';
    sheet.write(text);
    await drained(sheet, destination);
  };
  const line = (values: XlsxValue[]) => {
    rowNumber++;
    let xml = `<row r="${rowNumber}">`;
    for (let i = 0; i < values.length && i < letters.length; i++)
      xml += cell(`${letters[i]}${rowNumber}`, values[i], dates[i]);
    pending += `${xml}</row>`;
  };

  const width = options.width ?? 18;
  pending =
    `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}">` +
    (columns.length
      ? `<cols><col min="1" max="${columns.length}" width="${width}" customWidth="1"/></cols>`
      : '') +
    '<sheetData>';
  line(columns.map((c) => c.header));

  return {
    async row(values) {
      line(values);
      // a few rows gathered into one write: a write per row costs the stream more than the row
      if (pending.length >= 16_384) await flush();
    },
    async end() {
      pending += '</sheetData></worksheet>';
      await flush();
      sheet.end();
      await zip.finalize();
      if (failure) throw failure;
    },
    abort() {
      sheet.destroy();
      zip.abort();
    },
  };
}

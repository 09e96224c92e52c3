/**
 * CSV as RFC 4180 describes it: fields separated by commas, records by CRLF; a field holding a comma, a
 * quote, CR or LF is quoted, and a quote inside is doubled. Exports start with a UTF-8 byte-order mark so
 * that Excel reads Chinese text as UTF-8.
 */
export const UTF8_BOM = '\uFEFF';
import { msg } from '../../../../shared/messages';
import { AppError } from '../../lib/app-error';

/** A text that a spreadsheet would run as a formula: `=`, `+`, `-`, `@`, tab or CR first, after any apostrophes. */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;

/**
 * A cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR at the start) is written
 * with a leading apostrophe (OWASP "CSV injection"); numbers are left as they are. A text that already starts
 * with apostrophes before one of them gets one more, so that `undefuse` gives every text back as it was.
 */
export function defuse(text: string): string {
  return FORMULA_LIKE.test(text) ? `'${text}` : text;
}

/**
 * A cell as read from an imported sheet, CSV or XLSX alike: the apostrophe `defuse` wrote (or a person typed, or a
 * spreadsheet kept when it saved the CSV as XLSX) before a formula-like text is removed, one apostrophe only. A
 * spreadsheet that keeps it as a `quotePrefix` style instead gives the text without it: nothing to remove.
 */
export function undefuse(cell: string): string {
  return cell.startsWith("'") && FORMULA_LIKE.test(cell) ? cell.slice(1) : cell;
}

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? defuse(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * Parses CSV text into records (arrays of fields). Accepts CRLF or LF line ends and a leading BOM; a quote
 * that is not closed is an error naming its line.
 */
export function parseCsv(input: string): string[][] {
  const text = input.startsWith(UTF8_BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let quoteLine = 0;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endRecord();
      line++;
      i++;
    } else if (c === '\n' || c === '\r') {
      endRecord();
      line++;
    } else field += c;
    i++;
  }
  if (quoted) throw AppError.field('validation', 'file', msg('csvQuoteOpen', { line: quoteLine }));
  if (field !== '' || record.length) endRecord();
  return records;
}

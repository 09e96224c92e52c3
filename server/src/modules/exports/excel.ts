import type ExcelJS from 'exceljs';

let loaded: typeof ExcelJS | undefined;

/**
 * exceljs, loaded by the first spreadsheet read or written rather than at start: it is about a third of the
 * server's module load (0.3 s of 1.2 s in a test file), and most requests never touch a spreadsheet.
 */
export function excel(): typeof ExcelJS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('exceljs') as typeof ExcelJS);
}

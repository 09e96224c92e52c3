import type { Knex } from 'knex';
import { MESSAGES } from '../../../../shared/errors';
import { ZHolidayCreate } from '../../../../shared/schemas/holidays';
import type { RequestContext } from '../../http/context';
import { fieldErrors } from '../../http/validate';
import { AppError, type FieldErrors } from '../../lib/app-error';
import { auditService } from '../audit/audit.service';
import type { ImportFile } from '../exports/import-upload';
import { readTable } from '../exports/table-reader';
import { holidaysRepository } from './holidays.repository';
import { FIELD_MESSAGES, fieldMessage } from '../../../../shared/messages';

const MAX_ROWS = 1000;
const FIELDS = ['date', 'name_en', 'name_zh'] as const;

/** Header cells each column is known by: the field names and the export's headers in both languages. */
const HEADERS: Record<(typeof FIELDS)[number], string[]> = {
  date: ['date', '日期'],
  name_en: ['name_en', 'english name', 'name (english)', '英文名稱'],
  name_zh: ['name_zh', 'chinese name', 'name (chinese)', '中文名稱'],
};

const normalise = (header: string) =>
  header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();

/**
 * Imports a year's public holidays from CSV or XLSX: every row is checked first (a real date, both names,
 * a date neither repeated in the file nor already stored); one bad row refuses the whole file, naming every
 * bad row by its number, and nothing is written. A good file is written in one transaction, one audit row per
 * holiday, so a failure half-way (or a killed process) leaves nothing behind.
 */
export function createHolidaysImport(db: Knex) {
  return async function importHolidays(
    file: ImportFile,
    ctx: RequestContext,
  ): Promise<{ imported: number; years: number[] }> {
    const table = await readTable(file.path, file.extension, MAX_ROWS);
    const columns = FIELDS.map((field) =>
      table.header.map(normalise).findIndex((h) => HEADERS[field].includes(h)),
    );
    const missing = FIELDS.filter((_, i) => columns[i] < 0);
    if (missing.length) {
      throw AppError.field(
        'validation',
        'file',
        fieldMessage('importColumns', { columns: missing.join(', ') }),
      );
    }
    if (!table.rows.length) throw AppError.field('validation', 'file', FIELD_MESSAGES.importEmpty);

    const errors: FieldErrors = {};
    const add = (row: number, field: string, message: string) => {
      (errors[`rows.${row}.${field}`] ??= []).push(fieldMessage('importRow', { row, message }));
    };
    const good: { row: number; data: { date: string; name_en: string; name_zh: string } }[] = [];
    const seen = new Map<string, number>();
    for (const { row, cells } of table.rows) {
      const input = Object.fromEntries(FIELDS.map((f, i) => [f, cells[columns[i]] ?? '']));
      const parsed = ZHolidayCreate.safeParse(input);
      if (!parsed.success) {
        for (const [field, messages] of Object.entries(fieldErrors(parsed.error))) {
          for (const m of messages) add(row, field, m);
        }
        continue;
      }
      const first = seen.get(parsed.data.date);
      if (first !== undefined) {
        add(row, 'date', fieldMessage('importDateTwice', { date: parsed.data.date, row: first }));
        continue;
      }
      seen.set(parsed.data.date, row);
      good.push({ row, data: parsed.data });
    }

    return db.transaction(async (trx) => {
      const stored = await holidaysRepository.existingDates(
        trx,
        good.map((g) => g.data.date),
      );
      for (const g of good) {
        if (stored.has(g.data.date))
          add(
            g.row,
            'date',
            fieldMessage('importDateStored', { date: g.data.date, message: MESSAGES.duplicate }),
          );
      }
      const bad = new Set(Object.keys(errors).map((key) => key.split('.')[1]));
      if (bad.size) {
        const sorted = Object.fromEntries(
          Object.entries(errors).sort(([a], [b]) => Number(a.split('.')[1]) - Number(b.split('.')[1])),
        );
        throw new AppError('validation', fieldMessage('importRowsBad', { count: bad.size }), {
          errors: sorted,
        });
      }
      for (const g of good) {
        const row = await holidaysRepository.insert(trx, g.data, ctx.actor.id);
        await auditService.record(trx, ctx, {
          action: 'create',
          entity: 'holiday',
          entityId: row.id as number,
          before: null,
          after: row,
        });
      }
      await auditService.record(trx, ctx, {
        action: 'import',
        entity: 'holiday',
        detail: { file: file.originalName, rows: good.length },
      });
      const years = [...new Set(good.map((g) => Number(g.data.date.slice(0, 4))))].sort();
      return { imported: good.length, years };
    });
  };
}

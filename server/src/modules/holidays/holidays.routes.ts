import type { Knex } from 'knex';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { importUpload, removeImportFile } from '../exports/import-upload';
import { createHolidaysImport } from './holidays.import';

/** `POST /api/holidays/import` (multipart, field `file`): the holiday list itself is the generic resource. */
export function registerHolidayImportRoute(api: ApiRouter, db: Knex): void {
  const importHolidays = createHolidaysImport(db);
  api.add({
    method: 'post',
    path: '/holidays/import',
    access: 'staff',
    permission: 'settings.create',
    before: [importUpload(db)],
    handler: async (req, res) => {
      const file = req.importFile;
      if (!file) throw AppError.field('validation', 'file', 'Choose a CSV or XLSX file to import.');
      try {
        res.status(201).json(await importHolidays(file, contextOf(req)));
      } finally {
        await removeImportFile(file.path);
      }
    },
  });
}

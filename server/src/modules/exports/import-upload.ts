import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import multer from 'multer';
import { AppError } from '../../lib/app-error';
import { readSettings } from '../settings/settings.service';
import { msg } from '../../../../shared/messages';

export const IMPORT_EXTENSIONS = ['csv', 'xlsx'] as const;
export type ImportExtension = (typeof IMPORT_EXTENSIONS)[number];

export interface ImportFile {
  path: string;
  extension: ImportExtension;
  originalName: string;
}

/**
 * Where an import's file waits while it is read: a folder of this process's own, so that what one process (an
 * instance, a test worker) finds there is its own uploads' only.
 */
export const IMPORT_TMP_DIR = path.join(os.tmpdir(), 'sa-imports', String(process.pid));

/**
 * The one file of an import (`multipart/form-data`, field `file`), streamed to a temporary file on disk
 * (never held in memory), at most `max_upload_mb` (5 MB); no other field or file is accepted. The file's
 * name is the server's; the client's is kept only to read its extension. `req.importFile` holds it; the
 * handler removes it with `removeImportFile` when done.
 */
export function importUpload(db: Knex): RequestHandler {
  return async (req, res, next) => {
    const { max_upload_mb: maxMb } = await readSettings(db);
    fs.mkdirSync(IMPORT_TMP_DIR, { recursive: true });
    const upload = multer({
      dest: IMPORT_TMP_DIR,
      limits: { fileSize: maxMb * 1024 * 1024, files: 1, fields: 0, parts: 1, headerPairs: 20 },
    }).single('file');
    upload(req, res, (err: unknown) => {
      if (err) return next(translate(err, maxMb));
      const file = req.file;
      if (!file) return next(AppError.field('validation', 'file', 'importChoose'));
      const extension = path.extname(file.originalname).slice(1).toLowerCase();
      if (file.originalname.includes('\0') || !(IMPORT_EXTENSIONS as readonly string[]).includes(extension)) {
        void removeImportFile(file.path);
        return next(AppError.field('validation', 'file', 'importTypes'));
      }
      req.importFile = {
        path: file.path,
        extension: extension as ImportExtension,
        originalName: file.originalname,
      };
      next();
    });
  };
}

function translate(err: unknown, maxMb: number): AppError {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') {
      return new AppError('payload_too_large', msg('fileLargerThan', { max: maxMb }));
    }
    return AppError.field('validation', 'file', 'uploadOneFile');
  }
  // busboy refuses control bytes (a NUL …) in a part's headers, where the file name is
  if (err instanceof Error && /malformed part header/i.test(err.message)) {
    return AppError.field('validation', 'file', 'fileBadName');
  }
  // no boundary, a form cut short, a client gone
  if (
    err instanceof Error &&
    /multipart|boundary|unexpected end of form|request aborted/i.test(err.message)
  ) {
    return AppError.field('validation', 'file', 'uploadMultipart');
  }
  return err instanceof AppError ? err : new AppError('internal');
}

export async function removeImportFile(filePath: string): Promise<void> {
  await fs.promises.rm(filePath, { force: true });
}

declare module 'express-serve-static-core' {
  interface Request {
    importFile?: ImportFile;
  }
}

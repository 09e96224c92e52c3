import crypto from 'node:crypto';
import fs from 'node:fs';
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import multer from 'multer';
import { UPLOAD_EXTENSIONS, type UploadExtension } from '../../../../shared/files';
import { msg } from '../../../../shared/messages';
import { AppError } from '../../lib/app-error';
import { readSettings } from '../settings/settings.service';
import { checkUploadName, inspectUpload, sanitiseFileName } from './file-types';
import type { FileStorage } from './file-storage';

/** One upload after its checks: still a temporary file, not yet stored nor counted against the quota. */
export interface ReceivedUpload {
  tempPath: string;
  /** the client's name, sanitised (kept for the download's file name only) */
  originalName: string;
  extension: UploadExtension;
  mimeType: string;
  size: number;
  sha256: string;
  /** the text fields sent with the file (only the ones the route allows) */
  fields: Record<string, string>;
}

export interface UploadOptions {
  /** the extensions this route takes; every allowed type by default */
  extensions?: readonly UploadExtension[];
  /** text fields the route reads besides the file (e.g. `owner_type`, `owner_id`); none by default */
  fields?: readonly string[];
}

/**
 * `multipart/form-data` with one file in the field `file`, streamed to disk under `UPLOAD_DIR/.tmp` (never
 * held in memory: multer's disk storage) and limited to `max_upload_mb` (413 beyond), one file, the route's
 * fields and nothing else. Then the name and the content are checked (file-types.ts). `req.upload` holds the
 * result; the temporary file is removed on any failure here, and `discardUpload` removes it after the handler.
 */
export function fileUpload(db: Knex, storage: FileStorage, options: UploadOptions = {}): RequestHandler {
  const extensions = options.extensions ?? UPLOAD_EXTENSIONS;
  const fieldNames = options.fields ?? [];
  const diskStorage = multer.diskStorage({
    destination: storage.tmpDir,
    filename: (_req, _file, cb) => cb(null, `${crypto.randomBytes(16).toString('hex')}.part`),
  });
  return async (req, res, next) => {
    const { max_upload_mb: maxMb } = await readSettings(db);
    await fs.promises.mkdir(storage.tmpDir, { recursive: true });
    const upload = multer({
      storage: diskStorage,
      // file names are sent as UTF-8 by browsers (Chinese names arrive intact)
      defParamCharset: 'utf8',
      limits: {
        fileSize: maxMb * 1024 * 1024,
        files: 1,
        fields: fieldNames.length,
        parts: fieldNames.length + 1,
        fieldNameSize: 50,
        fieldSize: 1024,
        headerPairs: 20,
      },
      // refuse a bad name before a byte is written
      fileFilter: (_req, file, cb) => {
        try {
          checkUploadName(file.originalname, extensions);
          cb(null, true);
        } catch (err) {
          cb(err as Error);
        }
      },
    }).single('file');

    upload(req, res, (err: unknown) => {
      if (err) {
        if (req.file?.path) void removeQuietly(req.file.path);
        return next(translate(err, maxMb));
      }
      void accept().then(next, async (error: unknown) => {
        if (req.file?.path) await removeQuietly(req.file.path);
        next(error);
      });
    });

    async function accept(): Promise<void> {
      const file = req.file;
      if (!file) throw AppError.field('validation', 'file', 'fileChoose');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries(body)) {
        if (!fieldNames.includes(key) || typeof value !== 'string') {
          throw AppError.field('validation', 'file', 'uploadOneFile');
        }
        fields[key] = value;
      }
      const extension = checkUploadName(file.originalname, extensions);
      const inspection = await inspectUpload(file.path, extension);
      req.upload = {
        tempPath: file.path,
        originalName: sanitiseFileName(file.originalname, extension),
        extension,
        mimeType: inspection.mimeType,
        size: inspection.size,
        sha256: inspection.sha256,
        fields,
      };
    }
  };
}

function translate(err: unknown, maxMb: number): AppError {
  if (err instanceof AppError) return err;
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
  if (
    err instanceof Error &&
    /multipart|boundary|unexpected end of form|request aborted/i.test(err.message)
  ) {
    return AppError.field('validation', 'file', 'uploadMultipart');
  }
  return new AppError('internal');
}

async function removeQuietly(filePath: string): Promise<void> {
  await fs.promises.rm(filePath, { force: true }).catch(() => undefined);
}

/** Removes what is left of an upload's temporary file (nothing once it has been stored). */
export async function discardUpload(upload: ReceivedUpload | undefined): Promise<void> {
  if (upload) await removeQuietly(upload.tempPath);
}

declare module 'express-serve-static-core' {
  interface Request {
    upload?: ReceivedUpload;
  }
}

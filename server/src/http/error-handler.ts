import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '../lib/app-error';
import { logger } from '../lib/logger';
import { MESSAGES, type ErrorBody } from '../../../shared/errors';

/** A unique-index violation that slipped past the service check (a race): still the duplicate answer. */
function isUniqueViolation(err: any): boolean {
  return err?.code === 'ER_DUP_ENTRY' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A row naming a parent that does not exist (a check that slipped): the input's fault, not the server's. */
function isMissingParent(err: any): boolean {
  return err?.code === 'ER_NO_REFERENCED_ROW_2' || err?.code === 'ER_NO_REFERENCED_ROW';
}

function isForeignKeyViolation(err: any): boolean {
  return (
    err?.code === 'ER_ROW_IS_REFERENCED_2' ||
    err?.code === 'ER_ROW_IS_REFERENCED' ||
    err?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/**
 * An error of the JSON body parser as the answer it deserves. Every one is about the body sent: a body that is
 * not JSON, too large, in a charset or encoding the server does not read, or that could not be read at all
 * (aborted, a length that does not match, a gzip stream that fails to inflate — zlib's errors carry no type).
 */
export function bodyReadError(err: any): AppError {
  if (err instanceof AppError) return err;
  if (err?.type === 'entity.parse.failed') return new AppError('validation', 'invalidJson');
  if (err?.type === 'entity.too.large') return new AppError('payload_too_large');
  if (err?.type === 'charset.unsupported' || err?.type === 'encoding.unsupported') {
    return new AppError('unsupported_media_type');
  }
  return new AppError('validation', 'bodyUnreadable');
}

function toAppError(err: any): AppError | null {
  if (err instanceof AppError) return err;
  if (isUniqueViolation(err)) return new AppError('duplicate');
  if (isMissingParent(err)) return new AppError('validation');
  if (isForeignKeyViolation(err)) return new AppError('referenced');
  // body-parser's errors carry a type; multer's file limit a code
  if (typeof err?.type === 'string' && /^(entity|request|stream|charset|encoding)\./.test(err.type)) {
    return bodyReadError(err);
  }
  if (err?.code === 'LIMIT_FILE_SIZE') return new AppError('payload_too_large');
  // a path that cannot be decoded names no route
  if (err instanceof URIError || (err?.status === 400 && /decode param/i.test(String(err?.message)))) {
    return new AppError('not_found');
  }
  return null;
}

export const notFoundApi: RequestHandler = () => {
  throw new AppError('not_found');
};

/** The one place errors become responses, and the one place they are logged. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const appError = toAppError(err);
  if (!appError) {
    logger.error('unhandled error', {
      method: req.method,
      path: req.originalUrl,
      error: err?.stack ?? String(err),
    });
    if (res.headersSent) return;
    const body: ErrorBody = { message: MESSAGES.server, code: 'internal', message_key: 'server' };
    res.status(500).json(body);
    return;
  }
  if (appError.status >= 500) logger.error(appError.message, { code: appError.code });
  else
    logger.info('request refused', { status: appError.status, code: appError.code, path: req.originalUrl });
  if (res.headersSent) return;
  if (appError.retryAfterSeconds) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  res.status(appError.status).json(appError.toBody());
};

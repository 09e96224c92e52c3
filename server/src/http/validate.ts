import type { RequestHandler } from 'express';
import { z } from 'zod';
import { FIELD_MESSAGES, installZodMessages } from '../../../shared/messages';
import { AppError, type FieldErrors } from '../lib/app-error';

// zod's own messages become catalogued ones, which the client shows in the user's language
installZodMessages();

export interface RequestSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/** The parsed, typed parts of a request, kept apart from Express's own `req.query` (read-only in Express 5). */
export interface Parsed {
  params: any;
  query: any;
  body: any;
}

declare module 'express-serve-static-core' {
  interface Request {
    parsed: Parsed;
  }
}

/** zod issues → `{field: [messages]}`; unknown keys are named one by one. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    (errors[field] ??= []).push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), FIELD_MESSAGES.notAllowed);
    } else {
      add(issue.path.join('.') || '_', issue.message);
    }
  }
  return errors;
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('validation', undefined, { errors: fieldErrors(result.error) });
  return result.data;
}

/** One validator for params, query and body; the parsed values land in `req.parsed`. */
export function validate(schemas: RequestSchemas): RequestHandler {
  return (req, _res, next) => {
    const errors: FieldErrors = {};
    const parsed: Parsed = { params: req.params, query: req.query, body: req.body };
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const result = schema.safeParse(part === 'body' ? (req.body ?? {}) : req[part]);
      if (result.success) parsed[part] = result.data;
      else Object.assign(errors, fieldErrors(result.error));
    }
    if (Object.keys(errors).length) throw new AppError('validation', firstMessage(errors), { errors });
    req.parsed = parsed;
    next();
  };
}

function firstMessage(errors: FieldErrors): string {
  const first = Object.values(errors)[0]?.[0];
  return first ?? 'The given data was invalid.';
}

export const ZIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

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

/**
 * An object keyed by what a client sent: no prototype, so that a field named `__proto__`, `constructor` or
 * `toString` is a field like any other (it is JSON-serialised as one) instead of reaching Object.prototype.
 */
export function fieldErrorMap(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

/** zod issues → `{field: [messages]}`; unknown keys are named one by one. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors = fieldErrorMap();
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

/**
 * Characters no name or text of this application holds: C0 controls but tab and line breaks (NUL first of all)
 * and DEL, and the bidirectional controls (Trojan-Source style overrides and isolates, LRM/RLM/ALM) that make a
 * text read differently from what it is.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|\p{Bidi_Control}/u;

/** The paths of every string in `value` (and every key) that holds such a character. */
export function controlCharacterPaths(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (found.length >= 20) return found;
  if (typeof value === 'string') {
    if (CONTROL.test(value)) found.push(path.join('.') || '_');
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => controlCharacterPaths(item, [...path, String(i)], found));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (CONTROL.test(key)) found.push([...path, key].join('.'));
      else controlCharacterPaths(item, [...path, key], found);
    }
  }
  return found;
}

/** One validator for params, query and body; the parsed values land in `req.parsed`. */
export function validate(schemas: RequestSchemas): RequestHandler {
  return (req, _res, next) => {
    const errors = fieldErrorMap();
    const parsed: Parsed = { params: req.params, query: req.query, body: req.body };
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const value = part === 'body' ? (req.body ?? {}) : req[part];
      const hostile = controlCharacterPaths(value);
      if (hostile.length) {
        for (const field of hostile) (errors[field] ??= []).push(FIELD_MESSAGES.textControl);
        continue;
      }
      const result = schema.safeParse(value);
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

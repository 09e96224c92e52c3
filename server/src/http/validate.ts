import express, { type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { installZodMessages, msg, zodMessageRef, type MessageRef } from '../../../shared/messages';
import { AppError, fieldMap, type FieldMessages } from '../lib/app-error';
import { bodyReadError } from './error-handler';

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
export function fieldErrorMap(): FieldMessages {
  return fieldMap<MessageRef[]>();
}

/** zod issues → `{field: [catalogued messages]}`; unknown keys are named one by one. */
export function fieldErrors(error: z.ZodError): FieldMessages {
  const errors = fieldErrorMap();
  const add = (field: string, message: MessageRef) => {
    (errors[field] ??= []).push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key].join('.'), { key: 'notAllowed' });
    } else {
      add(issue.path.join('.') || '_', zodMessageRef(issue as never));
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

/** Where a walk through a request body stops: at most this many paths reported. */
const MAX_REPORTED = 20;

/**
 * Every array and object of `value` with its path, parents first, without recursion (a body nested 10,000
 * levels deep is walked like a flat one); a path is built only for what is reported.
 */
function* containers(value: unknown): Generator<{ node: object; path: () => string[]; depth: number }> {
  interface Item {
    node: object;
    parent: Item | null;
    key: string;
    depth: number;
  }
  const pathOf = (item: Item): string[] => {
    const path: string[] = [];
    for (let at: Item | null = item; at?.parent; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  if (!value || typeof value !== 'object') return;
  const stack: Item[] = [{ node: value, parent: null, key: '', depth: 1 }];
  while (stack.length) {
    const item = stack.pop()!;
    yield { node: item.node, path: () => pathOf(item), depth: item.depth };
    for (const [key, child] of Object.entries(item.node)) {
      if (child && typeof child === 'object')
        stack.push({ node: child, parent: item, key, depth: item.depth + 1 });
    }
  }
}

/** The paths of every string in `value` (and every key) that holds such a character. */
export function controlCharacterPaths(value: unknown): string[] {
  if (typeof value === 'string') return CONTROL.test(value) ? ['_'] : [];
  const found: string[] = [];
  for (const { node, path } of containers(value)) {
    for (const [key, item] of Object.entries(node)) {
      if (CONTROL.test(key) || (typeof item === 'string' && CONTROL.test(item)))
        found.push([...path(), key].join('.'));
      if (found.length >= MAX_REPORTED) return found;
    }
  }
  return found;
}

/** Deeper than any body of this application (a list of objects in an object is 3 levels). */
export const MAX_BODY_DEPTH = 32;

/**
 * Names that are members of every object (`__proto__`, `constructor`, `toString`, `hasOwnProperty` …) and
 * `prototype`: as keys of a body they can only be an attack — on code that merges the body into an object, or
 * that turns a value into text (`String(value)` calls an own `toString`).
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
]);

/**
 * A parsed JSON body no route should see: nested deeper than `MAX_BODY_DEPTH`, or holding a prototype key at any
 * depth. Checked once, before anything reads the body (throttle keys, validation), in a single walk.
 */
export function bodyShapeErrors(body: unknown): FieldMessages | null {
  const errors = fieldErrorMap();
  for (const { node, path, depth } of containers(body)) {
    if (depth > MAX_BODY_DEPTH) {
      errors._ = [msg('bodyTooDeep', { max: MAX_BODY_DEPTH })];
      return errors;
    }
    for (const key of Object.keys(node)) {
      if (!PROTOTYPE_KEYS.has(key)) continue;
      (errors[[...path(), key].join('.')] ??= []).push(msg('keyNotAllowed', { key }));
      if (Object.keys(errors).length >= MAX_REPORTED) return errors;
    }
  }
  return Object.keys(errors).length ? errors : null;
}

/** The content encodings the JSON parser inflates; anything else (br, zstd, compress …) is refused, not read. */
const JSON_ENCODINGS: ReadonlySet<string> = new Set(['identity', 'gzip', 'deflate']);

/** The `charset` parameter of a Content-Type header, or null when it names none. */
function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : null;
}

/**
 * A body the server will not read: 415 for a content encoding other than gzip/deflate on JSON (none at all on
 * other types, which nothing inflates), a JSON charset other than UTF-8 (RFC 8259 §8.1; the parser would decode
 * UTF-16 or UTF-7 on its own) and a Content-Type that cannot be read.
 */
function unreadableBody(req: Request): AppError | null {
  if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined)
    return null;
  let json: boolean;
  try {
    json = Boolean(req.is('application/json'));
  } catch {
    return new AppError('unsupported_media_type');
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && !(json && JSON_ENCODINGS.has(encoding))) {
    return new AppError('unsupported_media_type');
  }
  const charset = json ? charsetOf(req.headers['content-type']) : null;
  if (charset !== null && charset.toLowerCase() !== 'utf-8') return new AppError('unsupported_media_type');
  return null;
}

/**
 * The JSON body parser of `/api` (express.json with `options`), hardened: bodies it should not read are refused
 * first (`unreadableBody`), each of its errors becomes the 4xx it deserves (`bodyReadError`: all are about the
 * body sent), and a parsed body nested too deep or holding a prototype key is refused before any code reads it.
 */
export function readJsonBody(options: { limit: string }): RequestHandler {
  const parseJson = express.json(options);
  return (req, res, next) => {
    const refused = unreadableBody(req);
    if (refused) return next(refused);
    const parsed = (err?: unknown) => {
      if (err !== undefined) return next(bodyReadError(err));
      const errors = bodyShapeErrors(req.body);
      if (errors) return next(new AppError('validation', firstMessage(errors), { errors }));
      next();
    };
    try {
      parseJson(req, res, parsed);
    } catch (err) {
      // reading the Content-Type header's parameters (`application/json; charset`) is the one step that throws,
      // before a byte of the body is read
      if (!(err instanceof TypeError)) throw err;
      next(new AppError('unsupported_media_type'));
    }
  };
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
        for (const field of hostile) (errors[field] ??= []).push({ key: 'textControl' });
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

/** The first field error, as the message of the whole answer (the spec's "The given data was invalid." if none). */
function firstMessage(errors: FieldMessages): MessageRef {
  return Object.values(errors)[0]?.[0] ?? { key: 'validation' };
}

export const ZIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

import i18next from 'i18next';
import type { ErrorBody } from '../../../shared/errors';
import { mapHttpError, type ErrorAction } from './error-mapping';
import { progressEvents } from './progress';

/**
 * The one HTTP client of the SPA: RTK Query's base query and the route loaders both go through `http()`.
 * Same origin, credentials sent, the CSRF header on state-changing requests, a start and a finish
 * progress event per request, and the spec's error handling (§8) applied before the caller sees a failure.
 */

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryParams = Record<string, QueryValue>;

export interface HttpOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  params?: QueryParams;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `file`: a download, answered as a `DownloadedFile` (its bytes and the name the server gave it) */
  responseType?: 'json' | 'blob' | 'text' | 'file';
  /**
   * a download's bytes as they arrive (`responseType: 'file'`): how many so far, and how many in all when the server
   * said so (a streamed export does not)
   */
  onProgress?: (received: number, total: number | null) => void;
  /** Apply the spec §8 navigation for 401/403/404/500/no response. Off for the heartbeat. */
  handleErrors?: boolean;
}

export class HttpError extends Error {
  constructor(
    /** HTTP status, or null when no response arrived. */
    readonly status: number | null,
    readonly body: ErrorBody | null,
    /** True when the app already acted on it (navigated); the caller should just stop. */
    readonly handled: boolean,
    readonly aborted = false,
  ) {
    super(body?.message ?? (status === null ? 'No response' : `HTTP ${status}`));
    this.name = 'HttpError';
  }
}

type ErrorActionHandler = (action: Exclude<ErrorAction, { type: 'caller' }>, error: HttpError) => void;

let onErrorAction: ErrorActionHandler = () => {};
let csrfToken: Promise<string> | null = null;

/** The app tells the client how to navigate and sign out (see app/bootstrap.ts). */
export function configureHttp(handlers: { onErrorAction: ErrorActionHandler }): void {
  onErrorAction = handlers.onErrorAction;
}

/** The session id changes at login, 2FA completion and logout: the token bound to it must be re-fetched. */
export function resetCsrfToken(): void {
  csrfToken = null;
}

export function buildUrl(url: string, params?: QueryParams): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
    else search.append(key, String(value));
  }
  const qs = search.toString();
  if (!qs) return url;
  return url + (url.includes('?') ? '&' : '?') + qs;
}

async function fetchWithProgress(url: string, init: RequestInit): Promise<Response> {
  progressEvents.emit('start');
  try {
    return await fetch(url, { credentials: 'same-origin', ...init });
  } finally {
    progressEvents.emit('finish');
  }
}

/** A downloaded file: its bytes and the name its `Content-Disposition` gave (null without one). */
export interface DownloadedFile {
  blob: Blob;
  name: string | null;
}

/** `attachment; filename="report-student-2026-11-28.xlsx"` → the name. */
export function fileNameOf(disposition: string | null): string | null {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return match ? match[1] : null;
}

/** A download read chunk by chunk as it arrives, each chunk told to `onProgress`. */
async function readFile(response: Response, onProgress: HttpOptions['onProgress']): Promise<DownloadedFile> {
  const name = fileNameOf(response.headers.get('content-disposition'));
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const type = response.headers.get('content-type') ?? '';
  const reader = response.body?.getReader();
  if (!reader) {
    const blob = await response.blob();
    onProgress?.(blob.size, total);
    return { blob, name };
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress?.(received, total);
  }
  return { blob: new Blob(chunks as BlobPart[], { type }), name };
}

async function readBody(
  response: Response,
  responseType: HttpOptions['responseType'],
  onProgress?: HttpOptions['onProgress'],
): Promise<unknown> {
  if (response.status === 204) return undefined;
  if (responseType === 'file') return readFile(response, onProgress);
  if (responseType === 'blob') return response.blob();
  const text = await response.text();
  if (responseType === 'text') return text;
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function getCsrfToken(): Promise<string> {
  if (!csrfToken) {
    const pending = fetchWithProgress('/api/csrf-token', { headers: { Accept: 'application/json' } })
      .then(async (response) => {
        // the refusal's body says why (`https_required`: sign-in over plain HTTP), for the sign-in page to show
        if (!response.ok)
          throw new HttpError(
            response.status,
            errorBody(await readBody(response, 'json').catch(() => null)),
            false,
          );
        const body = (await response.json()) as { token: string };
        return body.token;
      })
      .catch((error: unknown) => {
        csrfToken = null;
        throw error;
      });
    csrfToken = pending;
  }
  return csrfToken;
}

function errorBody(body: unknown): ErrorBody | null {
  if (body && typeof body === 'object' && typeof (body as ErrorBody).message === 'string')
    return body as ErrorBody;
  return null;
}

async function send(url: string, options: HttpOptions, method: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // the server names lookups and writes messages in the screen's language, not the account's
  if (i18next.language && !headers['Accept-Language'])
    headers['Accept-Language'] = i18next.language === 'zh_HK' ? 'zh-HK' : i18next.language;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData || options.body instanceof Blob) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = await getCsrfToken();
  return fetchWithProgress(buildUrl(url, options.params), { method, headers, body, signal: options.signal });
}

function fail(error: HttpError, handleErrors: boolean): never {
  if (!handleErrors || error.aborted) throw error;
  const action = mapHttpError(error.status, error.body);
  if (action.type === 'caller') throw error;
  const handled = new HttpError(error.status, error.body, true);
  onErrorAction(action, handled);
  throw handled;
}

export async function http<T = unknown>(url: string, options: HttpOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const handleErrors = options.handleErrors ?? true;
  let response: Response;
  try {
    response = await send(url, options, method);
    if (response.status === 403 && method !== 'GET') {
      const body = errorBody(await readBody(response.clone(), 'json'));
      if (body?.code === 'csrf') {
        // The token went stale (new session): fetch a fresh one and try once more.
        resetCsrfToken();
        response = await send(url, options, method);
      }
    }
  } catch (error) {
    if (error instanceof HttpError) fail(error, handleErrors);
    const aborted =
      options.signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
    fail(new HttpError(null, null, false, aborted), handleErrors);
  }
  const data = await readBody(
    response,
    response.ok ? options.responseType : 'json',
    options.onProgress,
  ).catch(() => {
    // the caller stopped reading (a download cancelled): no answer, as a request aborted before one
    if (options.signal?.aborted) throw new HttpError(null, null, false, true);
    // a download broken off half way: no file (the caller says so)
    if (options.responseType === 'file' && response.ok) throw new HttpError(null, null, false);
    return undefined;
  });
  if (!response.ok) fail(new HttpError(response.status, errorBody(data), false), handleErrors);
  return data as T;
}

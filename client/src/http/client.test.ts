import { fakeResponse, installFetch } from '../test/http-fakes';
import {
  buildUrl,
  configureHttp,
  fileNameOf,
  http,
  HttpError,
  resetCsrfToken,
  type DownloadedFile,
} from './client';
import { progressEvents, type ProgressEvent } from './progress';

const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('the HTTP client', () => {
  const actions: unknown[] = [];
  beforeEach(() => {
    actions.length = 0;
    resetCsrfToken();
    configureHttp({ onErrorAction: (action) => actions.push(action) });
  });

  it('sends same-origin credentials and answers the parsed JSON', async () => {
    const calls = installFetch({ 'GET /api/areas': fakeResponse(200, [{ id: 1 }]) });
    await expect(
      http('/api/areas', { params: { q: 'kow loon', page: 2, empty: undefined } }),
    ).resolves.toEqual([{ id: 1 }]);
    expect(calls[0].url).toBe('/api/areas?q=kow+loon&page=2');
    expect(calls[0].init.credentials).toBe('same-origin');
    expect(headersOf(calls[0].init)['X-CSRF-Token']).toBeUndefined();
  });

  it('puts the CSRF token on state-changing requests, fetching it once, and again after a reset', async () => {
    let issued = 0;
    const calls = installFetch({
      'GET /api/csrf-token': () => fakeResponse(200, { token: `t${++issued}` }),
      'POST /api/login': fakeResponse(200, { two_factor: true }),
      'DELETE /api/areas/1': fakeResponse(204),
    });
    await http('/api/login', { method: 'POST', body: { email: 'a@b.c' } });
    await http('/api/areas/1', { method: 'DELETE' });
    expect(calls.map((c) => `${c.init.method ?? 'GET'} ${c.url}`)).toEqual([
      'GET /api/csrf-token',
      'POST /api/login',
      'DELETE /api/areas/1',
    ]);
    expect(headersOf(calls[1].init)['X-CSRF-Token']).toBe('t1');
    expect(headersOf(calls[1].init)['Content-Type']).toBe('application/json');
    expect(calls[1].init.body).toBe('{"email":"a@b.c"}');
    expect(headersOf(calls[2].init)['X-CSRF-Token']).toBe('t1');

    resetCsrfToken(); // the session id changed (login, 2FA, logout)
    await http('/api/logout', { method: 'POST' }).catch(() => undefined);
    expect(calls.filter((c) => c.url === '/api/csrf-token')).toHaveLength(2);
  });

  it('after a 403 csrf answer fetches a fresh token and retries once', async () => {
    let issued = 0;
    let attempts = 0;
    installFetch({
      'GET /api/csrf-token': () => fakeResponse(200, { token: `t${++issued}` }),
      'POST /api/logout': (call) => {
        attempts += 1;
        return headersOf(call.init)['X-CSRF-Token'] === 't2'
          ? fakeResponse(204)
          : fakeResponse(403, { message: 'CSRF token mismatch.', code: 'csrf' });
      },
    });
    await expect(http('/api/logout', { method: 'POST' })).resolves.toBeUndefined();
    expect(attempts).toBe(2);
    expect(actions).toEqual([]);
  });

  it('emits one start and one finish per request, also when it fails', async () => {
    const events: ProgressEvent[] = [];
    const stop = progressEvents.subscribe((e) => events.push(e));
    installFetch({ 'GET /api/ok': fakeResponse(200, {}), 'GET /api/down': new TypeError('Failed to fetch') });
    await http('/api/ok');
    await http('/api/down').catch(() => undefined);
    stop();
    expect(events).toEqual(['start', 'finish', 'start', 'finish']);
  });

  it.each([
    [401, { message: 'Unauthenticated.', code: 'unauthenticated' }, '/login', true],
    [
      401,
      { message: 'Your session has expired, please log in again.', code: 'session_timeout', timeout: true },
      '/login?timeout=1',
      true,
    ],
    [403, { message: 'Forbidden', code: 'forbidden' }, '/error-403', false],
    [404, { message: 'Not Found', code: 'not_found' }, '/error-404', false],
    [500, { message: 'Server Error' }, '/error-500', false],
  ])('a %p answer navigates (%#) and tells the caller it was handled', async (status, body, to, signOut) => {
    installFetch({ 'GET /api/thing': fakeResponse(status, body) });
    const error = await http('/api/thing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status, handled: true });
    expect(actions).toEqual([expect.objectContaining({ type: 'navigate', to, signOut })]);
  });

  it('no response at all goes to /error-no-connection', async () => {
    installFetch({ 'GET /api/thing': new TypeError('Failed to fetch') });
    await expect(http('/api/thing')).rejects.toMatchObject({ status: null, handled: true });
    expect(actions).toEqual([expect.objectContaining({ to: '/error-no-connection' })]);
  });

  it('other failures go back to the caller with the body, untouched', async () => {
    const body = {
      message: 'The given data was invalid.',
      code: 'validation',
      errors: { email: ['Invalid email address'] },
    };
    installFetch({
      'POST /api/thing': fakeResponse(422, body),
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    });
    await expect(http('/api/thing', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 422,
      handled: false,
      body,
    });
    expect(actions).toEqual([]);
  });

  it('with handleErrors off (the heartbeat) nothing navigates', async () => {
    installFetch({ 'GET /api/heartbeat': new TypeError('Failed to fetch') });
    await expect(http('/api/heartbeat', { handleErrors: false })).rejects.toMatchObject({
      status: null,
      handled: false,
    });
    expect(actions).toEqual([]);
  });

  it('an aborted request (a cancelled navigation) is not a lost connection', async () => {
    const controller = new AbortController();
    installFetch({
      'GET /api/slow': () => {
        controller.abort();
        return new DOMException('aborted', 'AbortError');
      },
    });
    await expect(http('/api/slow', { signal: controller.signal })).rejects.toMatchObject({
      aborted: true,
      handled: false,
    });
    expect(actions).toEqual([]);
  });

  it('builds query strings with repeated keys and keeps an existing query', () => {
    expect(buildUrl('/api/x?tab=basic', { ids: [1, 2], q: null })).toBe('/api/x?tab=basic&ids=1&ids=2');
    expect(buildUrl('/api/x', {})).toBe('/api/x');
  });

  /** A streamed download: the chunks arrive one by one (each `read` waits for `gate` when given). */
  function streamed(chunks: string[], headers: Record<string, string>, gate?: () => Promise<void>) {
    const bytes = chunks.map((c) => new TextEncoder().encode(c));
    let i = 0;
    const response = fakeResponse(200, undefined, headers) as unknown as Record<string, unknown>;
    response.body = {
      getReader: () => ({
        read: async () => {
          await gate?.();
          return i < bytes.length ? { done: false, value: bytes[i++] } : { done: true, value: undefined };
        },
      }),
    };
    return response as never;
  }

  it('reads a download chunk by chunk, telling its progress, with the name the server gave it', async () => {
    installFetch({
      'GET /api/reports/x': streamed(['ab', 'cde', 'f'], {
        'content-type': 'text/csv',
        'content-disposition': 'attachment; filename="report-x-2030-01-02.csv"',
      }),
    });
    const seen: [number, number | null][] = [];
    const file = await http<DownloadedFile>('/api/reports/x', {
      responseType: 'file',
      onProgress: (received, total) => seen.push([received, total]),
    });
    expect(seen).toEqual([
      [2, null],
      [5, null],
      [6, null],
    ]);
    expect(file.name).toBe('report-x-2030-01-02.csv');
    expect([file.blob.size, file.blob.type]).toEqual([6, 'text/csv']);
    expect(fileNameOf('attachment; filename=plain.pdf')).toBe('plain.pdf');
  });

  it('a download cancelled half way answers as aborted, and nothing navigates', async () => {
    const controller = new AbortController();
    let reads = 0;
    installFetch({
      'GET /api/reports/x': streamed(['ab', 'cd', 'ef'], {}, async () => {
        if (++reads === 2) {
          controller.abort();
          throw new DOMException('aborted', 'AbortError');
        }
      }),
    });
    const seen: number[] = [];
    await expect(
      http('/api/reports/x', {
        responseType: 'file',
        signal: controller.signal,
        onProgress: (received) => seen.push(received),
      }),
    ).rejects.toMatchObject({ aborted: true, handled: false });
    expect(seen).toEqual([2]);
    expect(actions).toEqual([]);
  });
});

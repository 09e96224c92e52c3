/** A minimal fetch Response for tests (jsdom has no fetch). */
export interface FakeResponse {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
  blob(): Promise<Blob>;
  clone(): FakeResponse;
}

export function fakeResponse(
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): FakeResponse {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const all: Record<string, string> = {
    ...(body !== undefined && typeof body !== 'string'
      ? { 'content-type': 'application/json; charset=utf-8' }
      : {}),
    ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const make = (): FakeResponse => ({
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name) => all[name.toLowerCase()] ?? null },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    blob: async () => new Blob([text]),
    clone: make,
  });
  return make();
}

export interface FetchCall {
  url: string;
  init: RequestInit;
}

/**
 * Install a fake `fetch` answering by "METHOD /path" (query string ignored for the lookup). A handler may
 * be a response, a function of the call, or an Error to simulate no response. Returns the recorded calls.
 */
export function installFetch(
  routes: Record<string, FakeResponse | Error | ((call: FetchCall) => FakeResponse | Error)>,
): FetchCall[] {
  const calls: FetchCall[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const call = { url, init };
    calls.push(call);
    const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected fetch ${key}`);
    const result = typeof handler === 'function' ? handler(call) : handler;
    if (result instanceof Error) throw result;
    return result as unknown as Response;
  }) as typeof fetch;
  return calls;
}

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import inject from 'light-my-request';
import { FIELD_MESSAGES } from '../../../shared/messages';
import { OPTION_KEYS } from '../../../shared/schemas/options';
import type { RegisteredRoute } from '../../src/http/api-router';
import {
  Client,
  createBranch,
  createStudent,
  createTestApp,
  createUser,
  PORTAL_HOST,
  STAFF_HOST,
  type TestApp,
} from '../harness';

// light-my-request's own `cookie` is ESM only (jest runs CommonJS here); it serves only the `cookies` option,
// which this test does not use (the session cookie goes in the Cookie header)
jest.mock('../../../node_modules/light-my-request/node_modules/cookie/dist/index.js', () => ({
  stringifySetCookie: () => {
    throw new Error('the cookies option is not used here');
  },
}));

/**
 * Hostile request bodies (quality §35, §16; api.md "Errors"): every registered write route gets 1,000
 * deterministic pseudo-random bodies — prototype keys, deep nesting, NUL/bidi/lone-surrogate characters,
 * huge strings, wrong types, invalid JSON, empty bodies, wrong content types, unsupported charsets and
 * content encodings, a gzip bomb — sent by an admin (the strongest caller, so they pass authorisation), and to
 * the portal's routes by a signed-in student on the portal host (the only caller they authorise).
 * Every answer must be a 4xx or a 2xx: 0 answers of 500, no 5xx at all. The test prints the count.
 *
 * Requests are injected into the app (light-my-request: no socket) one after the other. Bodies that could act on
 * the caller itself are kept harmless: a settings change a valid body makes is undone at once, record 1 of each
 * resource is not the caller's, and a session that ends is signed in again (the count is printed).
 * The suite sends 100 bodies per route (every kind of body, in about 15 s); `npm run test:hostile` sends the
 * 1,000 per route of quality §35, as CI does on MariaDB + Redis. The routes are shared out between two test files
 * (`hostile-input-1` and `-2`, each its own app and database), which Jest runs side by side: each prints its half.
 */

const BODIES_PER_ROUTE = Number(process.env.HOSTILE_BODIES ?? 100);
const SEED = 0x5eed_0035;
/** express.json's limit in app.ts ('1mb') */
const JSON_LIMIT = 1024 * 1024;
/** routes that end the caller's own session whatever the body: not fuzzed */
const SESSION_ENDING = new Set(['post /logout']);
/**
 * Routes that take no body and act on the caller whatever is sent — delete its own account, start a new 2FA
 * enrolment (drawing a QR code, some 150 ms each) — are sent their bodies by an admin without a recent password
 * confirmation: the body is still read and checked, and the route answers 423 instead of acting.
 */
const UNCONFIRMED_ONLY = new Set(['delete /user', 'post /user/two-factor-authentication']);
const HOSTILE_IP = '10.35.0.1';

/** mulberry32: small, seeded, deterministic */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function hashString(s: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16_777_619);
  return h >>> 0;
}

class Rng {
  constructor(readonly next: () => number) {}
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

// ---- JSON written by hand, so that `__proto__` is an own key and -0 and 1e309 keep their text ----

/** a JSON text inserted as it is */
class Raw {
  constructor(readonly text: string) {}
}
type Value = Raw | Obj | string | number | boolean | null | Value[] | { [key: string]: Value };
type Entries = [string, Value][];
/** an object as ordered entries: any key, `__proto__` and duplicates included */
class Obj {
  constructor(readonly entries: Entries) {}
}

function json(value: Value): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Obj)
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(json).join(',')}]`;
  if (value !== null && typeof value === 'object') return json(new Obj(Object.entries(value)));
  return JSON.stringify(value);
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const CONTROL_TEXT = [
  'a\u0000b',
  '\u0000',
  'evil\u202Etxt.exe',
  '\u2066isolate\u2069',
  'x\u200Fy',
  '\u061Cx',
  'bell\u0007',
  'del\u007F',
  '\u001B[31mred',
];
const LONE_SURROGATES = [new Raw('"\\ud800"'), new Raw('"a\\udfffb"'), new Raw('"\\udc00\\ud800"')];
const ODD_TEXT = [
  '',
  ' ',
  '\u3000',
  '0',
  '-0',
  '1e309',
  'NaN',
  'null',
  'true',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '{seq:99}',
  '{branch}{yyyy}{mm}{seq:10}{seq:4}',
  '{{x}}',
  'ﬁ İ ß ǅ',
  '😀'.repeat(60),
  '字'.repeat(250),
  'x'.repeat(5001),
  'Ａ@ｅｘａｍｐｌｅ．ｃｏｍ',
  'admin@example.com',
  'a@b',
  `${'x'.repeat(200)}@example.com`,
  'HKD',
  'hkd',
  'en',
  'zh_HK',
  'all',
  'branch',
  'users.view',
  'Secret123',
  '123456',
  'a'.repeat(64),
];
const DATES = [
  '2025-02-29',
  '2024-02-29',
  '0000-00-00',
  '0000-01-01',
  '9999-12-31',
  '10000-01-01',
  '-000001-01-01',
  '2025-13-01',
  '2025-1-1',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59-14:00',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:59:59.999-23:59',
  '2030-01-01T00:00:00+23:59',
  '2025-06-01T00:00:00+25:00',
];
const NUMBERS: Value[] = [
  0,
  1,
  -1,
  0.5,
  2_147_483_647,
  2_147_483_648,
  4_294_967_296,
  9_007_199_254_740_991,
  new Raw('9007199254740993'),
  new Raw('-0'),
  new Raw('1e309'),
  new Raw('-1e309'),
  new Raw('1e-400'),
  new Raw('123456789012345678901234567890'),
  1e308,
  -1e308,
  new Raw('1.0'),
  new Raw('1E2'),
];

/** values of every type, and hostile ones */
function hostileValue(rng: Rng, depth = 0): Value {
  switch (rng.int(depth > 1 ? 9 : 11)) {
    case 0:
      return rng.pick(NUMBERS);
    case 1:
      return rng.pick([null, true, false]);
    case 2:
      return rng.pick(ODD_TEXT);
    case 3:
      return rng.pick(CONTROL_TEXT);
    case 4:
      return rng.pick(LONE_SURROGATES);
    case 5:
      return rng.pick(DATES);
    case 6:
      return `${rng.pick(ODD_TEXT)}${rng.pick(CONTROL_TEXT)}`;
    case 7:
      return 'y'.repeat(rng.pick([191, 192, 200, 201, 255, 256, 500, 501, 5000, 65_536, 200_001]));
    case 8:
      return rng.pick([[], {}, [null], [1, 'a', true], ['users.view', 'users.view']] as Value[]);
    case 9:
      return Array.from({ length: rng.between(1, 4) }, () => hostileValue(rng, depth + 1));
    default:
      return new Obj(
        Array.from({ length: rng.between(1, 3) }, () => [hostileKey(rng), hostileValue(rng, depth + 1)]),
      );
  }
}

function hostileKey(rng: Rng): string {
  switch (rng.int(5)) {
    case 0:
    case 1:
      return rng.pick(PROTO_KEYS);
    case 2:
      return rng.pick([
        'na\u0000me',
        '\u202Ename',
        'is_admin\u200F',
        '',
        ' ',
        '\ud800',
        'a.b',
        '0',
        '__defineGetter__',
      ]);
    case 3:
      return rng.pick([
        'is_admin',
        'branch_id',
        'status',
        'approved_by',
        'id',
        'created_by',
        'role',
        'password_hash',
      ]);
    default:
      return `k${rng.int(1000)}`;
  }
}

function deep(rng: Rng, depth: number): string {
  switch (rng.int(4)) {
    case 0:
      return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    case 1:
      return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    case 2:
      return `{"__proto__":${'{"__proto__":'.repeat(depth)}{}${'}'.repeat(depth)}}`;
    default:
      return `{"name":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`;
  }
}

/** one request's body and headers (the method, URL, cookie and CSRF token are added by the sender) */
interface Shot {
  kind: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** the status this body must get whatever the route */
  expect?: number;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const GZIP_BOMB = zlib.gzipSync(Buffer.alloc(24 * 1024 * 1024, 0x20), { level: 9 });

/** The fields the route's schema names (see `learn`) and a valid body to mutate, when the test knows one. */
interface RouteFacts {
  fields: string[];
  base?: Record<string, Value>;
}

function withField(rng: Rng, facts: RouteFacts): Obj {
  const entries: Entries = Object.entries(facts.base ?? {});
  const field = facts.fields.length && rng.chance(0.85) ? rng.pick(facts.fields) : hostileKey(rng);
  const value = hostileValue(rng);
  const at = entries.findIndex(([k]) => k === field);
  if (at >= 0) entries[at] = [field, value];
  else entries.push([field, value]);
  return new Obj(entries);
}

type Maker = (rng: Rng, facts: RouteFacts) => Shot;

const CSV = 'date,name_en,name_zh\r\n2032-01-01,Hostile,敵意\r\n';
const PNG_HEADER = '\x89PNG\r\n\x1a\n';

/** Multipart forms, whole and broken: to JSON routes (ignored there) and to the upload and import routes. */
function multipart(rng: Rng): Shot {
  const part = (disposition: string, content: string, extra = '') =>
    `--XyZ\r\nContent-Disposition: form-data; ${disposition}\r\n${extra}\r\n${content}\r\n`;
  const file = (name: string, content = CSV) => part(`name="file"; filename="${name}"`, content);
  const [type, payload] = rng.pick<[string, string]>([
    ['multipart/form-data; boundary=XyZ', `${file('holidays.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', `${file('photo.png', `${PNG_HEADER}garbage`)}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', `${file('a\u0000.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', `${file('../../../etc/passwd.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', `${file('\u202Evsc.exe')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', file('cut-short.csv').slice(0, -4)],
    [
      'multipart/form-data; boundary=XyZ',
      `${part('name="__proto__[polluted]"', 'yes')}${file('a.csv')}--XyZ--\r\n`,
    ],
    [
      'multipart/form-data; boundary=XyZ',
      `${part('name="constructor[prototype][polluted]"', 'yes')}--XyZ--\r\n`,
    ],
    ['multipart/form-data; boundary=XyZ', `${part('name="a[99999999]"', 'x')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', `${file('a.csv')}${file('b.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ', `--XyZ\r\n\r\nno disposition\r\n--XyZ--\r\n`],
    [
      'multipart/form-data; boundary=XyZ',
      `${part('name="file"; filename="h.csv"', CSV, 'X-A: 1\r\n'.repeat(30))}--XyZ--\r\n`,
    ],
    ['multipart/form-data; boundary=XyZ', 'no boundary in here'],
    ['multipart/form-data; boundary=XyZ', ''],
    ['multipart/form-data', `${file('a.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=', `${file('a.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary', `${file('a.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary="XyZ', `${file('a.csv')}--XyZ--\r\n`],
    ['multipart/mixed; boundary=XyZ', `${file('a.csv')}--XyZ--\r\n`],
    ['multipart/form-data; boundary=XyZ; charset=utf-16', `${file('a.csv')}--XyZ--\r\n`],
  ]);
  return { kind: 'multipart', headers: { 'content-type': type }, payload: Buffer.from(payload, 'utf8') };
}

/** the kinds, each with its weight among the 1,000 bodies of a route */
const KINDS: [number, string, Maker][] = [
  [
    14,
    'prototype keys',
    (rng, facts) => {
      const key = rng.pick(PROTO_KEYS);
      const entries: Entries = Object.entries(facts.base ?? {});
      const inner = rng.pick<Value>([
        new Obj([['x', 1]]),
        new Obj([['isAdmin', true]]),
        { polluted: 'yes' },
        rng.pick(PROTO_KEYS),
        null,
        [],
        1,
      ]);
      if (rng.chance(0.5)) entries.unshift([key, inner]);
      else if (facts.fields.length) {
        entries.push([rng.pick(facts.fields), new Obj([[key, inner]])]);
      } else entries.push(['data', new Obj([[key, inner]])]);
      return { kind: 'prototype keys', headers: JSON_TYPE, payload: json(new Obj(entries)) };
    },
  ],
  [
    16,
    'wrong types',
    (rng, facts) => ({ kind: 'wrong types', headers: JSON_TYPE, payload: json(withField(rng, facts)) }),
  ],
  [
    8,
    'control characters',
    (rng, facts) => {
      const entries: Entries = Object.entries(facts.base ?? {});
      const text = rng.pick<Value>([...CONTROL_TEXT, ...LONE_SURROGATES]);
      if (rng.chance(0.3)) entries.push([rng.pick(['na\u0000me', '\u202Ename', '\ud800', 'a\u2066']), text]);
      else entries.push([facts.fields.length ? rng.pick(facts.fields) : 'name', text]);
      // a later duplicate key wins in JSON.parse: the hostile value replaces the valid one
      return { kind: 'control characters', headers: JSON_TYPE, payload: json(new Obj(entries)) };
    },
  ],
  [
    6,
    'random json',
    (rng) => ({
      kind: 'random json',
      headers: JSON_TYPE,
      payload: json(
        rng.chance(0.8)
          ? new Obj(Array.from({ length: rng.between(0, 6) }, () => [hostileKey(rng), hostileValue(rng)]))
          : Array.from({ length: rng.between(0, 3) }, () => hostileValue(rng)),
      ),
    }),
  ],
  [
    6,
    'deep nesting',
    (rng) => ({ kind: 'deep nesting', headers: JSON_TYPE, payload: deep(rng, rng.between(1_000, 10_000)) }),
  ],
  [
    8,
    'invalid json',
    (rng) => ({
      kind: 'invalid json',
      headers: JSON_TYPE,
      payload: rng.pick([
        '{',
        '}',
        '{"a":}',
        "{'a':1}",
        '{"a":1,}',
        '[1,]',
        'NaN',
        'null',
        'true',
        '123',
        '"text"',
        '\ufeff{}',
        '{"a":1}garbage',
        '{"a":"\\u12"}',
        '{"a":"unterminated',
        '{"a":"raw\u0001control"}',
        '{"a":1e309e1}',
        '{"__proto__":}',
        '{"a":[1,2}',
        '\u0000',
        ' ',
        '{"a":\u0000}',
        `{"a":"${'\\'.repeat(11)}"}`,
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]),
        Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
        Buffer.from([0xed, 0xa0, 0x80]),
      ]),
    }),
  ],
  [
    6,
    'empty body',
    (rng) =>
      rng.pick<Shot>([
        { kind: 'empty body', headers: {} },
        { kind: 'empty body', headers: JSON_TYPE },
        { kind: 'empty body', headers: JSON_TYPE, payload: '' },
        { kind: 'empty body', headers: JSON_TYPE, payload: '{}' },
        { kind: 'empty body', headers: JSON_TYPE, payload: '[]' },
        {
          kind: 'empty body',
          headers: { 'content-type': 'application/json', 'content-length': '0' },
          payload: '',
        },
      ]),
  ],
  [
    8,
    'wrong content type',
    (rng, facts) => {
      const body = json(withField(rng, facts));
      return rng.pick<Shot>([
        { kind: 'wrong content type', headers: { 'content-type': 'text/plain' }, payload: body },
        {
          kind: 'wrong content type',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'name=x&__proto__[x]=1&constructor[prototype][y]=1&a[b][c][d]=1',
        },
        multipart(rng),
        { kind: 'wrong content type', headers: { 'content-type': 'multipart/form-data' }, payload: body },
        { kind: 'wrong content type', headers: { 'content-type': 'application/xml' }, payload: '<a>1</a>' },
        {
          kind: 'wrong content type',
          headers: { 'content-type': 'application/vnd.api+json' },
          payload: body,
        },
        { kind: 'wrong content type', headers: { 'content-type': 'APPLICATION/JSON' }, payload: body },
        {
          kind: 'wrong content type',
          headers: { 'content-type': 'application/json; charset' },
          payload: body,
        },
        { kind: 'wrong content type', headers: { 'content-type': 'application/json;;' }, payload: body },
        { kind: 'wrong content type', headers: { 'content-type': 'application/json; a="' }, payload: body },
        { kind: 'wrong content type', headers: { 'content-type': 'application/' }, payload: body },
        { kind: 'wrong content type', headers: { 'content-type': '*/*' }, payload: body },
        {
          kind: 'wrong content type',
          headers: { 'content-type': 'application/json, text/plain' },
          payload: body,
        },
        { kind: 'wrong content type', headers: { 'content-type': '' }, payload: body },
        { kind: 'wrong content type', headers: {}, payload: body },
      ]);
    },
  ],
  [
    6,
    'unsupported charset',
    (rng) => {
      const charset = rng.pick([
        'utf-16',
        'UTF-16LE',
        'utf-16be',
        'utf-32',
        'utf-7',
        'latin1',
        'iso-8859-1',
        'big5',
        'x-unknown',
        'utf8',
      ]);
      return {
        kind: 'unsupported charset',
        headers: { 'content-type': `application/json; charset=${charset}` },
        payload: charset.toLowerCase().startsWith('utf-16')
          ? Buffer.from('{"name":"x"}', 'utf16le')
          : '{"name":"x"}',
        expect: 415,
      };
    },
  ],
  [
    2,
    'utf-8 charset',
    (rng, facts) => ({
      kind: 'utf-8 charset',
      headers: { 'content-type': `application/json; charset=${rng.pick(['utf-8', 'UTF-8', '"utf-8"'])}` },
      payload: json(withField(rng, facts)),
    }),
  ],
  [
    8,
    'content encoding',
    (rng, facts) => {
      const body = json(withField(rng, facts));
      return rng.pick<Shot>([
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
          payload: 'not gzip at all',
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
          payload: zlib.gzipSync(body).subarray(0, 12),
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
          payload: zlib.gzipSync(body),
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'deflate' },
          payload: 'garbage',
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'br' },
          payload: zlib.brotliCompressSync(body),
          expect: 415,
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'br' },
          payload: 'garbage',
          expect: 415,
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'zstd' },
          payload: body,
          expect: 415,
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'compress' },
          payload: body,
          expect: 415,
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'x-unknown' },
          payload: body,
          expect: 415,
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'gzip, br' },
          payload: zlib.gzipSync(body),
          expect: 415,
        },
        {
          kind: 'content encoding',
          headers: { ...JSON_TYPE, 'content-encoding': 'identity' },
          payload: body,
        },
      ]);
    },
  ],
  [3, 'multipart', (rng) => multipart(rng)],
  [
    4,
    'content length',
    (rng, facts) => {
      const body = json(withField(rng, facts));
      return {
        kind: 'content length',
        headers: {
          ...JSON_TYPE,
          'content-length': String(rng.chance(0.5) ? body.length + 7 : Math.max(0, body.length - 3)),
        },
        payload: body,
      };
    },
  ],
  [
    2,
    'large string',
    (rng, facts) => {
      const entries: Entries = Object.entries(facts.base ?? {});
      entries.push([
        facts.fields.length ? rng.pick(facts.fields) : 'name',
        'z'.repeat(rng.between(10_000, 120_000)),
      ]);
      return { kind: 'large string', headers: JSON_TYPE, payload: json(new Obj(entries)) };
    },
  ],
];

/** Bodies every route gets, whatever the draw: the biggest ones, once or twice each. */
function fixedShots(rng: Rng, facts: RouteFacts): Shot[] {
  const field = facts.fields[0] ?? 'name';
  const fill = (total: number, char: string) => {
    const frame = `{${JSON.stringify(field)}:""}`.length;
    return `{${JSON.stringify(field)}:"${char.repeat(total - frame)}"}`;
  };
  return [
    { kind: 'huge string', headers: JSON_TYPE, payload: fill(JSON_LIMIT, 'h') },
    { kind: 'huge string', headers: JSON_TYPE, payload: fill(JSON_LIMIT - 1000, '字') }, // 3 bytes each, over
    { kind: 'huge string', headers: JSON_TYPE, payload: fill(JSON_LIMIT + 1, 'h'), expect: 413 },
    {
      kind: 'gzip bomb',
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      payload: GZIP_BOMB,
      expect: 413,
    },
    { kind: 'deep nesting', headers: JSON_TYPE, payload: `${'['.repeat(10_000)}${']'.repeat(10_000)}` },
    { kind: 'deep nesting', headers: JSON_TYPE, payload: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` },
    { kind: 'prototype keys', headers: JSON_TYPE, payload: '{"__proto__":{"x":1}}' },
    {
      kind: 'unsupported charset',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      payload: Buffer.from('{}', 'utf16le'),
      expect: 415,
    },
    {
      kind: 'content encoding',
      headers: { ...JSON_TYPE, 'content-encoding': 'br' },
      payload: zlib.brotliCompressSync('{}'),
      expect: 415,
    },
    ...(facts.base ? [{ kind: 'valid base', headers: JSON_TYPE, payload: json(facts.base) }] : []),
    { kind: 'wrong types', headers: JSON_TYPE, payload: json(withField(rng, facts)) },
  ];
}

function shotsFor(route: string, facts: RouteFacts): Shot[] {
  const rng = new Rng(prng(SEED ^ hashString(route)));
  const shots = fixedShots(rng, facts);
  const total = KINDS.reduce((sum, [weight]) => sum + weight, 0);
  while (shots.length < BODIES_PER_ROUTE) {
    let roll = rng.int(total);
    const kind = KINDS.find(([weight]) => (roll -= weight) < 0) ?? KINDS[0];
    shots.push(kind[2](rng, facts));
  }
  return shots;
}

/** Valid bodies of the resources (record 1 of each exists): mutated one field at a time, they reach the services. */
const BASES: Record<string, Record<string, Value>> = {
  '/holidays': { date: '2031-05-01', name_en: 'Labour Day', name_zh: '勞動節' },
  '/areas': { name_en: 'Kowloon', name_zh: '九龍' },
  '/companies': { code: 'HCO', name_en: 'Hostile Co', name_zh: '公司' },
  '/branches': { company_id: 1, code: 'HB', name_en: 'Hostile branch', name_zh: '分行' },
  '/roles': { name: 'hostile role', data_scope: 'branch', permissions: ['users.view'] },
  '/users': {
    name: 'Hostile User',
    email: 'hostile-user@example.com',
    password: 'Hostile123',
    password_confirmation: 'Hostile123',
  },
  '/order-terms': { title_en: 'Terms', title_zh: '條款', content_en: '<p>x</p>', content_zh: '<p>x</p>' },
  '/refund-terms': { title_en: 'Terms', title_zh: '條款', content_en: '<p>x</p>', content_zh: '<p>x</p>' },
  '/options/:key': { value: 'HOSTILE', label_en: 'Hostile', label_zh: '敵意' },
  '/options/:key/order': { ids: [1] },
  '/user/api-tokens': { name: 'hostile token', abilities: ['users.view'] },
  '/user/profile': { name: 'Hostile Admin' },
  '/settings': { max_upload_mb: 5 },
  '/settings/accounts': { require_two_factor: false, registration_enabled: false, features: {} },
  '/settings/smtp/test': { to: 'nobody@example.com' },
  '/forgot-password': { email: 'nobody@example.com' },
  '/email/verify': { id: 1, expires: 1_900_000_000, signature: 'a'.repeat(64) },
  '/reset-password': {
    token: 'x',
    email: 'nobody@example.com',
    password: 'Hostile123',
    password_confirmation: 'Hostile123',
  },
};

function baseFor(path: string): Record<string, Value> | undefined {
  return BASES[path] ?? BASES[path.replace(/\/:id$/, '')];
}

const concrete = (path: string) =>
  `/api${path.replace(/:([a-z_]+)/g, (_whole, name: string) => (name === 'key' ? OPTION_KEYS[0] : '1'))}`;

// ---- the callers ----

interface Caller {
  label: string;
  email: string;
  password: string;
  /** confirms its password after signing in, so that routes needing a recent confirmation read the body */
  confirm: boolean;
  cookie: string;
  token: string;
  /** the host it signs in and sends on (the portal's for a student; the back-office's by default) */
  host?: string;
}

let t: TestApp;
const password = 'Hostile123';
const admin: Caller = { label: 'admin', email: '', password, confirm: true, cookie: '', token: '' };
const unconfirmedAdmin: Caller = { ...admin, label: 'admin (unconfirmed)', confirm: false };
/** the portal's routes (`access: 'student'`) are a signed-in student's, on the portal host: no admin reaches them */
const student: Caller = {
  label: 'student',
  email: '',
  password,
  confirm: false,
  cookie: '',
  token: '',
  host: PORTAL_HOST,
};

async function signIn(caller: Caller): Promise<void> {
  const client = new Client(t.app, caller.host);
  const res = await client.login(caller.email, caller.password);
  if (res.status !== 200) {
    throw new Error(`${caller.label} could not sign in: ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (caller.confirm)
    await client.post('/api/user/confirm-password', { password: caller.password }).expect(200);
  caller.cookie = `sa_session=${client.cookie()}`;
  caller.token = client.token;
}

/** One request, injected (no socket), from `ip` (the app trusts the loopback proxy's X-Forwarded-For). */
function fire(caller: Caller, method: string, url: string, shot: Shot, ip = HOSTILE_IP) {
  return inject(t.app as never, {
    method: method.toUpperCase() as 'POST',
    url,
    headers: {
      host: caller.host ?? STAFF_HOST,
      cookie: caller.cookie,
      'x-csrf-token': caller.token,
      'x-forwarded-for': ip,
      ...shot.headers,
    },
    ...(shot.payload === undefined ? {} : { payload: shot.payload }),
  });
}

function codeOf(payload: string): string | undefined {
  try {
    return JSON.parse(payload)?.code;
  } catch {
    return undefined;
  }
}

let settingsSnapshot: Record<string, unknown>[] = [];

/** Settings a valid random body changed (2FA required, a feature off, an SMTP host …) go back as they were. */
async function restoreSettings(): Promise<void> {
  await t.db.transaction(async (trx) => {
    await trx('settings').delete();
    if (settingsSnapshot.length) await trx('settings').insert(settingsSnapshot);
  });
}

/** Own properties of the built-in prototypes, by identity: any pollution or replacement shows. */
function builtIns(): Map<string, unknown> {
  const all = new Map<string, unknown>();
  for (const [name, proto] of Object.entries({
    Object: Object.prototype,
    Array: Array.prototype,
    Function,
  })) {
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      all.set(`${name}.${String(key)}`, d.value ?? d.get);
    }
  }
  all.set('Function.prototype', Function.prototype);
  return all;
}
const BUILT_INS = builtIns();

/**
 * The suite, for the routes whose place in the registered list is `index` modulo `of` (the other checks run with
 * the first share only).
 */
export function hostileSuite(shard: { index: number; of: number }): void {
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    // record 1 of users, roles, companies and branches is not an admin's: changing or deleting it harms no caller
    await createUser(t.db, { email: 'record-one@example.com' });
    await createBranch(t.db, 'ONE');
    admin.email = (await createUser(t.db, { is_admin: true, password })).email;
    unconfirmedAdmin.email = (await createUser(t.db, { is_admin: true, password })).email;
    await signIn(admin);
    await signIn(unconfirmedAdmin);
    // student 1 is not the portal caller: staff routes fuzzed at `/students/1/…` never end the caller's session
    await createStudent(t.db);
    student.email = (await createStudent(t.db, { password })).email;
    await signIn(student);
    // record 1 of the other resources
    for (const path of [
      '/holidays',
      '/areas',
      '/order-terms',
      '/refund-terms',
      `/options/${OPTION_KEYS[0]}`,
    ]) {
      const res = await fire(admin, 'post', `/api${path}`, {
        kind: 'setup',
        headers: JSON_TYPE,
        payload: json(baseFor(path) ?? BASES['/options/:key']),
      });
      expect(res.statusCode).toBe(201);
    }
    settingsSnapshot = await t.db('settings').select('*');
    SCHEMA_FIELDS = await schemaFieldNames();
  }, 120_000);
  afterAll(() => t.close());

  // the checks that are not per route run with the first share
  const first = shard.index === 0 ? it : it.skip;
  describe(`hostile request bodies (quality §35), routes ${shard.index + 1} of every ${shard.of}`, () => {
    const post = (url: string, headers: Record<string, string>, payload?: string | Buffer) =>
      fire(admin, 'post', url, { kind: 'named', headers, payload });

    first('refuses prototype keys with 422 and leaves Object.prototype alone', async () => {
      const res = await post('/api/holidays', JSON_TYPE, '{"__proto__":{"x":1}}');
      expect(res.statusCode).toBe(422);
      const body = JSON.parse(res.payload);
      expect(body.code).toBe('validation');
      expect(Object.keys(body.errors)).toEqual(['__proto__']);
      for (const payload of [
        '{"constructor":{"prototype":{"x":1}}}',
        '{"toString":1}',
        '{"date":"2031-06-01","name_en":"a","name_zh":"b","hasOwnProperty":"x"}',
        '{"name_en":{"valueOf":1}}',
        '[{"__proto__":{"x":1}}]',
      ]) {
        expect({ payload, status: (await post('/api/holidays', JSON_TYPE, payload)).statusCode }).toEqual({
          payload,
          status: 422,
        });
      }
      // an own `toString` once reached the login throttle's key (`String(email)`) before validation
      const login = await post('/api/login', JSON_TYPE, '{"email":{"toString":{"x":1}},"password":"x"}');
      expect(login.statusCode).toBe(422);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    first(
      'refuses unsupported charsets and content encodings with 415, unreadable ones with 422',
      async () => {
        const refused = async (headers: Record<string, string>, payload: string | Buffer, status: number) => {
          const res = await post('/api/holidays', headers, payload);
          expect({ headers, status: res.statusCode }).toEqual({ headers, status });
          if (status === 415) expect(codeOf(res.payload)).toBe('unsupported_media_type');
        };
        await refused(
          { 'content-type': 'application/json; charset=utf-16' },
          Buffer.from('{}', 'utf16le'),
          415,
        );
        await refused({ 'content-type': 'application/json; charset=latin1' }, '{}', 415);
        await refused({ 'content-type': 'application/json; charset=utf-7' }, '{}', 415);
        await refused({ ...JSON_TYPE, 'content-encoding': 'br' }, zlib.brotliCompressSync('{}'), 415);
        await refused({ ...JSON_TYPE, 'content-encoding': 'zstd' }, '{}', 415);
        await refused({ ...JSON_TYPE, 'content-encoding': 'x-unknown' }, '{}', 415);
        await refused({ 'content-type': 'text/plain', 'content-encoding': 'gzip' }, zlib.gzipSync('{}'), 415);
        await refused({ ...JSON_TYPE, 'content-encoding': 'gzip' }, 'not gzip', 422);
        await refused({ ...JSON_TYPE, 'content-encoding': 'gzip' }, GZIP_BOMB, 413);
        await refused({ 'content-type': 'application/json; charset=UTF-8' }, '{}', 422); // read, then validated
        const gzip = await post(
          '/api/holidays',
          { ...JSON_TYPE, 'content-encoding': 'gzip' },
          zlib.gzipSync(json(BASES['/holidays'])),
        );
        expect(gzip.statusCode).toBe(422); // inflated and read: the date of record 1 again is a duplicate
        expect(codeOf(gzip.payload)).toBe('duplicate');
      },
    );

    first('refuses bodies nested 10,000 deep and bodies over the limit', async () => {
      for (const payload of [
        `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
        `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
        `{"name_en":${'['.repeat(1_000)}"x"${']'.repeat(1_000)}}`,
      ]) {
        const res = await post('/api/holidays', JSON_TYPE, payload);
        expect(res.statusCode).toBe(422);
      }
      const over = `{"name_en":"${'h'.repeat(JSON_LIMIT)}"}`;
      expect((await post('/api/holidays', JSON_TYPE, over)).statusCode).toBe(413);
    });

    first('refuses NUL, bidi controls and lone surrogates where they do not belong', async () => {
      const body = (name: string) =>
        json(
          new Obj([
            ['date', '2031-07-01'],
            ['name_en', name],
            ['name_zh', '字'],
          ]),
        );
      for (const name of ['a\u0000b', 'evil\u202Etxt', '\u2066x\u2069']) {
        const res = await post('/api/holidays', JSON_TYPE, body(name));
        expect(res.statusCode).toBe(422);
        expect(JSON.parse(res.payload).errors.name_en).toEqual([FIELD_MESSAGES.textControl]);
      }
      const key = await post('/api/holidays', JSON_TYPE, '{"na\\u0000me":1}');
      expect(key.statusCode).toBe(422);
      // a lone surrogate is stored as U+FFFD by the UTF-8 encoder, never a 500
      const lone = await post('/api/holidays', JSON_TYPE, body('x').replace('"字"', '"\\ud800"'));
      expect(lone.statusCode).toBeLessThan(500);
    });

    first('refuses an API token expiry past the last instant a DATETIME column holds', async () => {
      // 9999-12-31T23:59:59-14:00 is in the year 10000 in UTC: MySQL refused it with a 500
      const token = (expires_at: string) =>
        post('/api/user/api-tokens', JSON_TYPE, json({ name: 'far future', abilities: [], expires_at }));
      const far = await token('9999-12-31T23:59:59-14:00');
      expect(far.statusCode).toBe(422);
      expect(Object.keys(JSON.parse(far.payload).errors)).toEqual(['expires_at']);
      expect((await token('9999-12-31T23:59:59Z')).statusCode).toBe(201);
    });

    it(`answers ${BODIES_PER_ROUTE} hostile bodies per write route with 4xx (or 2xx), never 500`, async () => {
      const routes = t.api.routes
        .filter((r) => r.method !== 'get' && !SESSION_ENDING.has(`${r.method} ${r.path}`))
        .filter((_r, i) => i % shard.of === shard.index);
      expect(routes.length).toBeGreaterThan(10);

      const statuses = new Map<number, number>();
      const serverErrors: string[] = [];
      const wrongStatus: string[] = [];
      let requests = 0;
      let signIns = 0;
      const started = Date.now();
      for (const route of routes) {
        const key = `${route.method} ${route.path}`;
        const url = concrete(route.path);
        const caller =
          route.access === 'student' ? student : UNCONFIRMED_ONLY.has(key) ? unconfirmedAdmin : admin;
        const facts = await learn(route, caller);
        const shots = shotsFor(key, facts);
        for (let i = 0; i < shots.length; i++) {
          const shot = shots[i];
          // a public route (sign-in, password reset …) throttles per address: each body comes from another one
          const ip = route.access === 'public' ? `10.36.${i >> 8}.${i & 255}` : HOSTILE_IP;
          let res = await fire(caller, route.method, url, shot, ip);
          if (res.statusCode === 401 || (res.statusCode === 403 && codeOf(res.payload) === 'csrf')) {
            // the session ended (a body ended it): sign in again and send the same body
            signIns++;
            await signIn(caller);
            res = await fire(caller, route.method, url, shot, ip);
          }
          if (
            (res.statusCode < 300 && route.path.startsWith('/settings')) ||
            (res.statusCode === 403 && codeOf(res.payload) === 'two_factor_required')
          ) {
            await restoreSettings();
          }
          requests++;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const sample = () =>
            `${key} [${shot.kind}] ${JSON.stringify(shot.headers)} ${String(shot.payload ?? '').slice(0, 160)}` +
            ` → ${res.statusCode} ${res.payload.slice(0, 200)}`;
          if (res.statusCode >= 500) serverErrors.push(sample());
          if (shot.expect && res.statusCode !== shot.expect)
            wrongStatus.push(`expected ${shot.expect}: ${sample()}`);
        }
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);

      const summary = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(', ');
      console.log(
        `hostile input (share ${shard.index + 1} of ${shard.of}): ${routes.length} write routes × ${BODIES_PER_ROUTE} bodies = ${requests} requests, ` +
          `${statuses.get(500) ?? 0} answers of 500 (statuses: ${summary}; ${signIns} sign-ins again; ${seconds} s)` +
          (serverErrors.length
            ? `\n5xx answers:\n${[...new Set(serverErrors)].slice(0, 40).join('\n')}`
            : '') +
          (wrongStatus.length
            ? `\nunexpected statuses:\n${[...new Set(wrongStatus)].slice(0, 40).join('\n')}`
            : ''),
      );
      expect(requests).toBe(routes.length * BODIES_PER_ROUTE);
      expect(statuses.get(500) ?? 0).toBe(0);
      expect(serverErrors).toEqual([]);
      expect(wrongStatus).toEqual([]);
      for (const status of statuses.keys()) expect(status >= 200 && status < 500).toBe(true);

      // the process is not polluted, and the admin still works
      expect(({} as Record<string, unknown>).x).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(builtIns()).toEqual(BUILT_INS);
      const me = await fire(admin, 'get', '/api/user', { kind: 'read', headers: {} });
      expect(me.statusCode).toBe(200);
      expect(JSON.parse(me.payload).user.email).toBe(admin.email);
    }, 900_000);
  });
}

/** Every field name the shared schemas declare (objects, and the members of unions). */
async function schemaFieldNames(): Promise<string[]> {
  const dir = path.join(__dirname, '../../../shared/schemas');
  const names = new Set<string>();
  const collect = (schema: unknown) => {
    const s = schema as { shape?: Record<string, unknown>; options?: unknown[] } | null;
    if (s?.shape && typeof s.shape === 'object') for (const key of Object.keys(s.shape)) names.add(key);
    if (Array.isArray(s?.options)) s.options.forEach(collect);
  };
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    Object.values(await import(path.join(dir, file))).forEach(collect);
  }
  return [...names].sort();
}

let SCHEMA_FIELDS: string[] = [];

/**
 * The fields a route's schema names, so that hostile values reach them (and, through a valid base, the
 * service): the required ones from its 422 to `{}`, and those among every shared schema's fields that it does
 * not call unknown when each is sent a value no schema takes (`[[]]`).
 */
async function learn(route: RegisteredRoute, caller: Caller): Promise<RouteFacts> {
  const base = baseFor(route.path);
  const fields = new Set(Object.keys(base ?? {}));
  const url = concrete(route.path);
  for (const probe of [{}, Object.fromEntries(SCHEMA_FIELDS.map((name) => [name, [[]]]))]) {
    const res = await fire(caller, route.method, url, {
      kind: 'probe',
      headers: JSON_TYPE,
      payload: json(probe),
    });
    if (route.path.startsWith('/settings') && res.statusCode < 300) await restoreSettings();
    const errors: Record<string, string[]> = (res.statusCode === 422 && JSON.parse(res.payload).errors) || {};
    for (const [field, messages] of Object.entries(errors)) {
      if (field !== '_' && !messages.includes(FIELD_MESSAGES.notAllowed)) fields.add(field.split('.')[0]);
    }
  }
  return { fields: [...fields], base };
}

/**
 * The list and export benchmark of issue 11 ("Figures"): the real app on MariaDB with Redis sessions against a
 * raw `node:http` + `mysql2` server answering the same JSON for the same list query. Prints figures and the
 * targets beside them ("MISSED" where one is not met); asserts nothing, and never stops at a missed target.
 *
 *   npm run bench                 MariaDB 127.0.0.1:3306 (root, no password), Redis 127.0.0.1:6379
 *   BENCH_KEEP=1 npm run bench    keeps the 1,000,000-row database `bench` for the next run
 *
 * Environment: BENCH_MYSQL (mysql://root@127.0.0.1:3306), BENCH_REDIS (redis://127.0.0.1:6379/0),
 * BENCH_SECONDS (5 per run), BENCH_ROUNDS (3), BENCH_ROWS (1000000), BENCH_PROFILE (a directory: the app
 * process writes a V8 CPU profile there).
 *
 * Each server runs in a child process of its own (this script forks itself), so that the load generator
 * (autocannon, 50 connections, in this process) does not share an event loop with the server it measures.
 * Runs alternate app / raw, and the median of the rounds is printed.
 * - small table: `bench_small` with 50 companies (created and dropped on every run);
 * - exports: the same database grown to 25,000 and then 100,000 companies;
 * - large table: `bench` with 1,000,000 companies (dropped at the end unless BENCH_KEEP=1).
 * The raw server counts the table once at start (the cheapest server one could write); the app counts as it
 * does. The count's amortised cost is the SQL time of the app's count queries divided by its list requests.
 */
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import knex, { type Knex } from 'knex';

const MYSQL = (process.env.BENCH_MYSQL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const REDIS = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379/0';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BIG_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const KEEP = process.env.BENCH_KEEP === '1';
const CONNECTIONS = 50;
const PER_PAGE = 20;
const LIST = `/api/companies?page=1&per_page=${PER_PAGE}&sort=code`;
const REDIS_PREFIX = 'sabench:';
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-admin-123' };

// ---------------------------------------------------------------------------------------------------------------
// autocannon has no type declarations: the part used here

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Cannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  timeout?: number;
}) => Promise<CannonResult>;
const autocannon = createRequire(__filename)('autocannon') as Cannon;

// ---------------------------------------------------------------------------------------------------------------
// child processes: the app and the raw server

type Reply = { type: string; [key: string]: unknown };

function databaseUrl(name: string): string {
  return `${MYSQL}/${name}`;
}

/** Peak RSS of this process since the last reset, sampled every 10 ms. */
function rssSampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  timer.unref();
  return {
    reset: () => (peak = process.memoryUsage().rss),
    peak: () => Math.max(peak, process.memoryUsage().rss),
  };
}

async function serveApp(database: string): Promise<void> {
  const { loadConfig } = await import('../server/src/config');
  const { createApp } = await import('../server/src/app');
  const { createDb } = await import('../server/src/db/knex');
  const { configureLogger } = await import('../server/src/lib/logger');
  const { FIXTURE_DIST } = await import('../server/test/harness');
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl(database),
    REDIS_URL: REDIS,
    SESSION_SECRET: process.env.BENCH_SESSION_SECRET!,
    APP_KEY: process.env.BENCH_APP_KEY!,
    BCRYPT_COST: '10',
    // behind a TLS-terminating proxy on this host, as in production (the session cookie is Secure)
    TRUST_PROXY: 'loopback',
  });
  configureLogger(config.logLevel, config.isProduction);
  const db = createDb(config.databaseUrl, { statementTimeoutMs: config.statementTimeoutMs });
  const redis = new Redis(config.redisUrl!, { maxRetriesPerRequest: 3 });
  const { app } = createApp({ config, db, redis, redisPrefix: REDIS_PREFIX, clientDist: FIXTURE_DIST });

  // the SQL time of count queries, and the list requests they serve
  const stats = { lists: 0, counts: 0, countMs: 0, queries: 0 };
  const started = new Map<string, bigint>();
  db.on('query', (q: { __knexQueryUid?: string; sql: string }) => {
    stats.queries++;
    if (q.__knexQueryUid && /\bcount\s*\(/i.test(q.sql))
      started.set(q.__knexQueryUid, process.hrtime.bigint());
  });
  const ended = (_r: unknown, q: { __knexQueryUid?: string }) => {
    const at = q?.__knexQueryUid ? started.get(q.__knexQueryUid) : undefined;
    if (at === undefined) return;
    started.delete(q.__knexQueryUid!);
    stats.counts++;
    stats.countMs += Number(process.hrtime.bigint() - at) / 1e6;
  };
  db.on('query-response', ended);
  db.on('query-error', (_e: unknown, q: { __knexQueryUid?: string }) => ended(null, q));

  const rss = rssSampler();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/api/companies') && !req.url.includes('format=')) {
      stats.lists++;
    }
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (m: Reply) => {
    if (m.type === 'stats') process.send!({ type: 'stats', ...stats, peakRss: rss.peak() });
    if (m.type === 'reset') {
      Object.assign(stats, { lists: 0, counts: 0, countMs: 0, queries: 0 });
      rss.reset();
      process.send!({ type: 'reset', rss: process.memoryUsage().rss });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

/** Column → value as the app's JSON shows it, from the first item the app answered. */
type Convert = (value: unknown) => unknown;
function converterFor(sample: unknown): Convert {
  if (typeof sample === 'boolean') return (v) => (v === null ? null : Boolean(Number(v)));
  if (typeof sample === 'number') return (v) => (v === null ? null : Number(v));
  if (typeof sample === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(sample)) {
    return (v) => (typeof v === 'string' ? new Date(`${v.replace(' ', 'T')}Z`).toISOString() : v);
  }
  return (v) => v;
}

async function serveRaw(database: string): Promise<void> {
  const mysql = await import('mysql2/promise');
  const template = JSON.parse(process.env.BENCH_TEMPLATE!) as {
    items: Record<string, unknown>[];
    [key: string]: unknown;
  };
  const url = new URL(databaseUrl(database));
  const pool = mysql.createPool({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
    connectionLimit: 10,
    dateStrings: true,
    charset: 'utf8mb4',
  });
  const [columnRows] = await pool.query(
    'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?',
    [database, 'companies'],
  );
  const columns = new Set((columnRows as { name: string }[]).map((r) => r.name));
  const first = template.items[0] ?? {};
  const keys = Object.keys(first);
  const selected = keys.filter((k) => columns.has(k));
  const converters = new Map(selected.map((k) => [k, converterFor(first[k])]));
  // what is not a column (a computed field) is answered as the app answered it for the first row
  const constants = keys.filter((k) => !columns.has(k));
  const envelope = Object.fromEntries(Object.entries(template).filter(([k]) => k !== 'items'));
  const select = `SELECT ${selected.map((c) => `\`${c}\``).join(', ')} FROM companies`;

  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://raw');
    if (req.method !== 'GET' || u.pathname !== '/api/companies') {
      res.writeHead(404).end();
      return;
    }
    const page = Math.max(1, Number(u.searchParams.get('page') ?? 1) || 1);
    const perPage = Math.min(100, Math.max(1, Number(u.searchParams.get('per_page') ?? 20) || 20));
    const sort = u.searchParams.get('sort') ?? 'code';
    const column = sort.replace(/^-/, '');
    if (!columns.has(column)) {
      res.writeHead(422).end();
      return;
    }
    const sql = `${select} ORDER BY \`${column}\` ${sort.startsWith('-') ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`;
    pool.query(sql, [perPage, (page - 1) * perPage]).then(
      ([rows]) => {
        const items = (rows as Record<string, unknown>[]).map((row) => {
          const item: Record<string, unknown> = {};
          for (const k of keys) item[k] = constants.includes(k) ? first[k] : converters.get(k)!(row[k]);
          return item;
        });
        // the app's key order, so that the bytes can be compared
        const answer: Record<string, unknown> = {};
        for (const k of Object.keys(template)) {
          answer[k] = k === 'items' ? items : k === 'page' ? page : k === 'per_page' ? perPage : envelope[k];
        }
        const body = JSON.stringify(answer);
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
      },
      (err: unknown) => {
        res.writeHead(500).end(String(err));
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (m: Reply) => {
    if (m.type === 'stats') process.send!({ type: 'stats', peakRss: process.memoryUsage().rss });
    if (m.type === 'reset') process.send!({ type: 'reset', rss: process.memoryUsage().rss });
  });
  process.on('disconnect', () => process.exit(0));
}

class Server {
  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static start(name: 'app' | 'raw', database: string, env: Record<string, string> = {}): Promise<Server> {
    // BENCH_PROFILE=<dir>: the app process writes a V8 CPU profile there (where its time per request goes)
    const profile = process.env.BENCH_PROFILE && name === 'app' ? process.env.BENCH_PROFILE : null;
    const child = fork(__filename, [`serve-${name}`, database], {
      env: { ...process.env, ...env },
      execArgv: [...process.execArgv, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const failed = (code: number | null) =>
        reject(new Error(`${name} server exited (${code}) before it was ready`));
      child.once('exit', failed);
      child.once('message', (m: Reply) => {
        child.off('exit', failed);
        resolve(new Server(name, child, Number(m.port)));
      });
    });
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  ask(type: 'stats' | 'reset'): Promise<Reply> {
    return new Promise((resolve) => {
      const on = (m: Reply) => {
        if (m.type !== type) return;
        this.child.off('message', on);
        resolve(m);
      };
      this.child.on('message', on);
      this.child.send({ type });
    });
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      // closing the IPC channel lets the child exit by itself (a CPU profile is written on a normal exit)
      if (this.child.connected) this.child.disconnect();
      else this.child.kill();
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP helpers

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
  bytes: number;
}

/** What the TLS-terminating proxy adds: the app sees an HTTPS request (the raw server ignores it). */
const PROXIED = { 'X-Forwarded-Proto': 'https' };

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function call(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown; keepBody?: boolean } = {},
): Promise<Answer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const data = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const req = http.request(
      `${base}${path}`,
      {
        method: opts.method ?? 'GET',
        agent,
        headers: {
          ...PROXIED,
          ...(data ? { 'Content-Type': 'application/json', 'Content-Length': String(data.length) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (opts.keepBody !== false) chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            bytes,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

function cookiesOf(answer: Answer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of answer.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    out[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return out;
}

/** Signs the admin in as a browser does: CSRF token, then the login; answers the session cookie. */
async function signIn(app: Server): Promise<string> {
  const first = await call(app.base, '/api/csrf-token');
  const jar = cookiesOf(first);
  const token = JSON.parse(first.body.toString()).token as string;
  const cookie = Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  const login = await call(app.base, '/api/login', {
    method: 'POST',
    headers: { Cookie: cookie, 'X-CSRF-Token': token },
    body: ADMIN,
  });
  if (login.status !== 200)
    throw new Error(`sign-in failed: ${login.status} ${login.body.toString().slice(0, 300)}`);
  const session = cookiesOf(login).sa_session;
  if (!session) throw new Error('sign-in set no session cookie');
  return `sa_session=${session}`;
}

// ---------------------------------------------------------------------------------------------------------------
// figures

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
    : NaN;
};
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : String(n));
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : String(n));
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n));
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const summary: string[] = [];
let errors = 0;

/** One line of a figure against its target; kept for the summary at the end. */
function target(label: string, value: string, ok: boolean, goal: string): void {
  const line = `${ok ? 'ok    ' : 'MISSED'}  ${label}: ${value} (target ${goal})`;
  console.log(`  ${line}`);
  summary.push(line);
}

function heading(text: string): void {
  console.log(`\n== ${text} ${'='.repeat(Math.max(0, 100 - text.length))}`);
}

async function section(name: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    errors++;
    const line = `ERROR   ${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    console.log(`  ${line}`);
    summary.push(line.split('\n')[0]);
  }
}

interface Run {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  total: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = CONNECTIONS,
) {
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { ...PROXIED, ...headers },
    timeout: 10,
  });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  } satisfies Run;
}

/** Rounds of app then raw, the same list URL; answers the medians. */
async function alternate(label: string, app: Server, raw: Server, cookie: string, path = LIST) {
  // warm both (connections, caches, JIT)
  await load(`${app.base}${path}`, { cookie }, 1);
  await load(`${raw.base}${path}`, {}, 1);
  await app.ask('reset');
  const runs: { app: Run[]; raw: Run[] } = { app: [], raw: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await load(`${app.base}${path}`, { cookie }, SECONDS);
    const r = await load(`${raw.base}${path}`, {}, SECONDS);
    runs.app.push(a);
    runs.raw.push(r);
    console.log(
      `  round ${round}: app ${int(a.rps)} req/s p99 ${a.p99} ms (errors ${a.errors}, timeouts ${a.timeouts}, non-2xx ${a.non2xx})` +
        ` | raw ${int(r.rps)} req/s p99 ${r.p99} ms (errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx})`,
    );
  }
  const m = (side: Run[], key: keyof Run) => median(side.map((x) => x[key]));
  const sum = (side: Run[], key: keyof Run) => side.reduce((s, x) => s + x[key], 0);
  const appRps = m(runs.app, 'rps');
  const rawRps = m(runs.raw, 'rps');
  const appP99 = m(runs.app, 'p99');
  const rawP99 = m(runs.raw, 'p99');
  console.log(
    `  median of ${ROUNDS}×${SECONDS} s, ${CONNECTIONS} connections: app ${int(appRps)} req/s, p99 ${appP99} ms; ` +
      `raw ${int(rawRps)} req/s, p99 ${rawP99} ms`,
  );
  const appErrors = sum(runs.app, 'errors') + sum(runs.app, 'non2xx');
  const appTimeouts = sum(runs.app, 'timeouts');
  console.log(
    `  app: ${int(sum(runs.app, 'total'))} requests, ${appErrors} errors/non-2xx, ${appTimeouts} timeouts; ` +
      `raw: ${int(sum(runs.raw, 'total'))} requests, ${sum(runs.raw, 'errors') + sum(runs.raw, 'non2xx')} errors/non-2xx, ` +
      `${sum(runs.raw, 'timeouts')} timeouts`,
  );
  const stats = await app.ask('stats');
  console.log(
    `  app: ${f2(Number(stats.queries) / Math.max(1, Number(stats.lists)))} SQL statements per list request ` +
      '(authentication included; the raw server runs 1)',
  );
  target(`${label}: requests/s app ÷ raw`, `${f2(appRps / rawRps)}×`, appRps / rawRps >= 0.6, '≥ 0.60×');
  target(
    `${label}: p99 app ÷ raw`,
    `${f2(appP99 / rawP99)}× (${appP99} vs ${rawP99} ms)`,
    appP99 <= 2 * rawP99,
    '≤ 2×',
  );
  target(
    `${label}: app errors and timeouts`,
    `${appErrors} errors, ${appTimeouts} timeouts`,
    !appErrors && !appTimeouts,
    '0',
  );
  return stats;
}

/** The app's and the raw server's JSON for the same list query, compared. */
async function sameJson(app: Server, raw: Server, cookie: string): Promise<void> {
  const a = await call(app.base, LIST, { headers: { cookie } });
  const r = await call(raw.base, LIST);
  const same = a.status === 200 && r.status === 200 && a.body.equals(r.body);
  console.log(
    `  same JSON for ${LIST}: ${same ? 'yes' : 'NO'} (app ${a.status} ${a.bytes} B, raw ${r.status} ${r.bytes} B)`,
  );
  if (!same) {
    console.log(`    app: ${a.body.toString().slice(0, 300)}`);
    console.log(`    raw: ${r.body.toString().slice(0, 300)}`);
  }
}

async function templateOf(app: Server, cookie: string): Promise<string> {
  const res = await call(app.base, LIST, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`GET ${LIST}: ${res.status} ${res.body.toString().slice(0, 300)}`);
  return res.body.toString();
}

/** Sequential requests: the median and p95 latency in ms. */
async function latency(app: Server, cookie: string, path: string, n: number) {
  await call(app.base, path, { headers: { cookie } });
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < n; i++) {
    const res = await call(app.base, path, { headers: { cookie } });
    status = res.status;
    times.push(res.ms);
  }
  return { median: median(times), p95: percentile(times, 95), status };
}

// ---------------------------------------------------------------------------------------------------------------
// data

function admin(): Knex {
  return knex({ client: 'mysql2', connection: { uri: `${MYSQL}/` } as Knex.MySql2ConnectionConfig });
}

async function dropDatabase(name: string): Promise<void> {
  const a = admin();
  await a.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  await a.destroy();
}

async function databaseExists(name: string): Promise<boolean> {
  const a = admin();
  const [rows] = await a.raw('SELECT schema_name FROM information_schema.schemata WHERE schema_name = ?', [
    name,
  ]);
  await a.destroy();
  return (rows as unknown[]).length > 0;
}

/** The database migrated (created when missing) and the bench admin in it. */
async function prepareDatabase(name: string, fresh: boolean): Promise<Knex> {
  const { createDb, migrateLatest } = await import('../server/src/db/knex');
  const { createUser } = await import('../server/test/harness');
  if (fresh) await dropDatabase(name);
  const a = admin();
  await a.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await a.destroy();
  const db = createDb(databaseUrl(name));
  await migrateLatest(db);
  if (!(await db('users').where({ email: ADMIN.email }).first('id'))) {
    await createUser(db, { ...ADMIN, is_admin: true });
  }
  return db;
}

async function companyCount(db: Knex): Promise<number> {
  const row = await db('companies').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Companies up to `rows` (C0000001, C0000002, …): INSERT … SELECT from MariaDB's sequence engine, else 10k-row inserts. */
async function fillCompanies(db: Knex, rows: number): Promise<void> {
  const { toDbDateTime } = await import('../server/src/lib/clock');
  const now = toDbDateTime();
  const have = await companyCount(db);
  if (have >= rows) return;
  const started = Date.now();
  const step = 100_000;
  try {
    for (let from = have + 1; from <= rows; from += step) {
      const to = Math.min(rows, from + step - 1);
      await db.raw(
        `INSERT INTO companies (code, name_en, name_zh, phone, email, is_active, created_at, updated_at)
         SELECT CONCAT('C', LPAD(seq, 7, '0')), CONCAT('Company ', seq), CONCAT('公司', seq),
                CONCAT('+852 ', LPAD(seq MOD 100000000, 8, '0')), CONCAT('c', seq, '@example.com'),
                seq MOD 10 <> 0, ?, ?
         FROM seq_${from}_to_${to}`,
        [now, now],
      );
    }
  } catch (err) {
    if (!/seq_/.test(String(err))) throw err;
    // no sequence engine: multi-row inserts
    const start = (await companyCount(db)) + 1;
    for (let from = start; from <= rows; from += 10_000) {
      const batch = [];
      for (let seq = from; seq < Math.min(rows + 1, from + 10_000); seq++) {
        batch.push({
          code: `C${String(seq).padStart(7, '0')}`,
          name_en: `Company ${seq}`,
          name_zh: `公司${seq}`,
          phone: `+852 ${String(seq % 100_000_000).padStart(8, '0')}`,
          email: `c${seq}@example.com`,
          is_active: seq % 10 !== 0,
          created_at: now,
          updated_at: now,
        });
      }
      await db('companies').insert(batch);
    }
  }
  await db.raw('ANALYZE TABLE companies');
  console.log(`  filled companies to ${int(rows)} rows in ${f1((Date.now() - started) / 1000)} s`);
}

// ---------------------------------------------------------------------------------------------------------------
// the phases

async function exportOnce(app: Server, cookie: string, format: 'csv' | 'xlsx') {
  const before = Number((await app.ask('reset')).rss);
  const res = await call(app.base, `/api/companies?format=${format}&sort=code`, {
    headers: { cookie },
    keepBody: format === 'csv',
  });
  const stats = await app.ask('stats');
  const rows =
    format === 'csv'
      ? res.body
          .toString()
          .split('\n')
          .filter((l) => l.trim()).length - 1
      : NaN;
  const peakRss = Number(stats.peakRss);
  return { ms: res.ms, bytes: res.bytes, status: res.status, rows, peakRss, growth: peakRss - before };
}

async function smallAndExports(secrets: Record<string, string>): Promise<void> {
  const db = await prepareDatabase('bench_small', true);
  const servers: Server[] = [];
  try {
    await fillCompanies(db, 50);
    const app = await Server.start('app', 'bench_small', secrets);
    servers.push(app);
    const cookie = await signIn(app);
    const raw = await Server.start('raw', 'bench_small', { BENCH_TEMPLATE: await templateOf(app, cookie) });
    servers.push(raw);

    heading('small table: 50 companies, GET /api/companies (page 1 of 20), 50 connections');
    await section('small table', async () => {
      await sameJson(app, raw, cookie);
      await alternate('small table', app, raw, cookie);
    });

    heading('export: 25,000 vs 100,000 companies (the app process: time to last byte, peak RSS)');
    const results: Record<string, Record<number, Awaited<ReturnType<typeof exportOnce>>>> = {
      csv: {},
      xlsx: {},
    };
    for (const rows of [25_000, 100_000]) {
      await fillCompanies(db, rows);
      for (const format of ['csv', 'xlsx'] as const) {
        await section(`export ${format} ${rows}`, async () => {
          const r = await exportOnce(app, cookie, format);
          results[format][rows] = r;
          console.log(
            `  ${format.padEnd(4)} ${int(rows).padStart(7)} rows: status ${r.status}, ${f1(r.ms)} ms, ${mib(r.bytes)}` +
              `${format === 'csv' ? `, ${int(r.rows)} data lines` : ''}, peak RSS ${mib(r.peakRss)} ` +
              `(+${mib(r.growth)} over the idle app)`,
          );
        });
      }
    }
    for (const format of ['csv', 'xlsx'] as const) {
      const small = results[format][25_000];
      const big = results[format][100_000];
      if (!small || !big) continue;
      console.log(
        `  ${format}: 25k ${f1(small.ms)} ms | 100k ${f1(big.ms)} ms → ×${f2(big.ms / small.ms)} time for ×4 rows` +
          ` (linear: ×4); peak RSS growth 25k +${mib(small.growth)} | 100k +${mib(big.growth)}`,
      );
    }
    const csv = results.csv[100_000];
    const xlsx = results.xlsx[100_000];
    if (csv)
      target(
        'CSV export of 100,000 rows',
        `${f1(csv.ms)} ms`,
        csv.ms <= 1000 && csv.status === 200,
        '≤ 1,000 ms',
      );
    if (xlsx) {
      target(
        'XLSX export of 100,000 rows',
        `${f1(xlsx.ms)} ms`,
        xlsx.ms <= 3000 && xlsx.status === 200,
        '≤ 3,000 ms',
      );
      target(
        'XLSX export of 100,000 rows, peak memory (RSS growth of the app process)',
        `+${mib(xlsx.growth)} (RSS ${mib(xlsx.peakRss)})`,
        xlsx.growth <= 200 * 1024 * 1024,
        '≤ 200 MiB',
      );
    }
    for (const format of ['csv', 'xlsx'] as const) {
      const small = results[format][25_000];
      const big = results[format][100_000];
      if (small && big) {
        const growth = big.ms / small.ms;
        target(
          `${format} export 25k → 100k time growth`,
          `×${f2(growth)}`,
          growth <= 5,
          '≈ ×4, linear (≤ ×5)',
        );
      }
    }

    heading("other users' list during an XLSX export of 100,000 rows (10 connections, page 1)");
    await section('list during export', async () => {
      const url = `${app.base}${LIST}`;
      await load(url, { cookie }, 1, 10);
      const quiet = await load(url, { cookie }, SECONDS, 10);
      let exporting = true;
      let exports = 0;
      const loop = (async () => {
        while (exporting) {
          await call(app.base, '/api/companies?format=xlsx&sort=code', {
            headers: { cookie },
            keepBody: false,
          });
          exports++;
        }
      })();
      await new Promise((r) => setTimeout(r, 200));
      const busy = await load(url, { cookie }, SECONDS, 10);
      exporting = false;
      await loop;
      console.log(`  without an export: ${int(quiet.rps)} req/s, p50 ${quiet.p50} ms, p99 ${quiet.p99} ms`);
      console.log(
        `  during exports:    ${int(busy.rps)} req/s, p50 ${busy.p50} ms, p99 ${busy.p99} ms (${exports} exports finished)`,
      );
      target(
        "other users' list p99 during an export ÷ without",
        `×${f2(busy.p99 / quiet.p99)}`,
        busy.p99 <= 2 * quiet.p99,
        '≤ ×2',
      );
    });
  } finally {
    for (const s of servers) await s.stop();
    await db.destroy();
    await dropDatabase('bench_small');
  }
}

async function large(secrets: Record<string, string>): Promise<void> {
  const reuse = KEEP && (await databaseExists('bench'));
  const db = await prepareDatabase('bench', !reuse);
  const servers: Server[] = [];
  try {
    heading(
      `large table: ${int(BIG_ROWS)} companies${reuse ? ' (database `bench` kept from an earlier run)' : ''}`,
    );
    await fillCompanies(db, BIG_ROWS);
    const rows = await companyCount(db);
    console.log(`  companies: ${int(rows)} rows`);
    const app = await Server.start('app', 'bench', secrets);
    servers.push(app);
    const cookie = await signIn(app);
    const raw = await Server.start('raw', 'bench', { BENCH_TEMPLATE: await templateOf(app, cookie) });
    servers.push(raw);
    await section('large: same JSON', () => sameJson(app, raw, cookie));

    await section('large: page latency', async () => {
      const lastPage = Math.ceil(rows / PER_PAGE);
      const first = await latency(app, cookie, LIST, 30);
      const last = await latency(
        app,
        cookie,
        `/api/companies?page=${lastPage}&per_page=${PER_PAGE}&sort=code`,
        10,
      );
      const lastDesc = await latency(
        app,
        cookie,
        `/api/companies?page=${lastPage}&per_page=${PER_PAGE}&sort=-name_en`,
        5,
      );
      console.log(
        `  page 1: median ${f1(first.median)} ms, p95 ${f1(first.p95)} ms (status ${first.status})`,
      );
      console.log(
        `  last page (${int(lastPage)}): median ${f1(last.median)} ms, p95 ${f1(last.p95)} ms (status ${last.status}); ` +
          `by -name_en: median ${f1(lastDesc.median)} ms (status ${lastDesc.status})`,
      );
      target(
        'page 1 at 1M rows (sequential, median)',
        `${f1(first.median)} ms`,
        first.median <= 20 && first.status === 200,
        '≤ 20 ms',
      );
      target(
        'last page ÷ page 1',
        `×${f2(last.median / first.median)} (${f1(last.median)} ms)`,
        last.median <= 2 * first.median && last.status === 200,
        '≤ ×2',
      );
    });

    await section('large: count', async () => {
      // a new search each time: the count of a filter never seen
      await app.ask('reset');
      const n = 5;
      for (let i = 0; i < n; i++) {
        await call(
          app.base,
          `/api/companies?page=1&per_page=${PER_PAGE}&q=${crypto.randomBytes(3).toString('hex')}`,
          {
            headers: { cookie },
          },
        );
      }
      const cold = await app.ask('stats');
      console.log(
        `  count of a new search (cold): ${f1(Number(cold.countMs) / Math.max(1, Number(cold.counts)))} ms per count query ` +
          `(${cold.counts} count queries for ${n} requests)`,
      );
    });

    heading(`large table: GET /api/companies (page 1 of 20) at ${int(rows)} rows, 50 connections`);
    await section('large: load', async () => {
      const s = await alternate(`${int(BIG_ROWS)} rows`, app, raw, cookie);
      const amortised = Number(s.countMs) / Math.max(1, Number(s.lists));
      console.log(
        `  the app's count queries during the load: ${s.counts} for ${int(Number(s.lists))} list requests, ` +
          `${f1(Number(s.countMs))} ms of SQL in all`,
      );
      target(
        "the list's count, amortised per list request",
        `${f2(amortised)} ms`,
        amortised <= 10,
        '≤ 10 ms',
      );
    });
  } finally {
    for (const s of servers) await s.stop();
    await db.destroy();
    if (!KEEP) await dropDatabase('bench');
    else console.log('\n  BENCH_KEEP=1: database `bench` kept for the next run');
  }
}

async function clearRedis(): Promise<void> {
  const redis = new Redis(REDIS, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `bench: MariaDB ${MYSQL}, Redis ${REDIS}; ${ROUNDS} rounds × ${SECONDS} s, app and raw alternating; ` +
      `node ${process.version}`,
  );
  const secrets = {
    BENCH_SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    BENCH_APP_KEY: `base64:${crypto.randomBytes(32).toString('base64')}`,
  };
  try {
    await section('small table and exports', () => smallAndExports(secrets));
    await section('large table', () => large(secrets));
  } finally {
    await clearRedis().catch(() => undefined);
    agent.destroy();
  }
  heading('summary');
  for (const line of summary) console.log(`  ${line}`);
  console.log(
    `\n  ${errors ? `${errors} section(s) failed` : 'every section ran'}; ${f1((Date.now() - started) / 1000)} s`,
  );
  if (errors) process.exitCode = 1;
}

const [mode, database] = process.argv.slice(2);
const run = mode === 'serve-app' ? serveApp(database) : mode === 'serve-raw' ? serveRaw(database) : main();
run.catch((err) => {
  console.error(err);
  process.exit(1);
});

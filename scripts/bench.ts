/**
 * The list, search, export and money benchmark of issues 11, 25 and 29 ("Figures", "Done when"): the real app on
 * MariaDB with Redis sessions against a raw `node:http` + `mysql2` server answering the same JSON for the same list
 * query, the students list at 200,000 students (page 1, searches, a filter, the last and middle pages), and the
 * dashboard, the money reports and their files at 100,000 invoices (scripts/bench-money.ts). Prints figures and the
 * targets beside them ("MISSED" where one is not met); asserts nothing, and never stops at a missed target.
 *
 *   npm run bench                 MariaDB 127.0.0.1:3306 (root, no password), Redis 127.0.0.1:6379
 *   BENCH_KEEP=1 npm run bench    keeps the databases `bench_keep`, `bench_students_keep` and `bench_money_keep`
 *                                 for the next run, which skips their fills
 *   BENCH_PARTS=students npm run bench    the students part only (parts: small, large, students, money)
 *
 * Environment: BENCH_MYSQL (mysql://root@127.0.0.1:3306), BENCH_REDIS (redis://127.0.0.1:6379/0),
 * BENCH_SECONDS (5 per run), BENCH_ROUNDS (4), BENCH_ROWS (1000000), BENCH_STUDENTS (200000), BENCH_SAMPLES (20
 * sequential requests per students case and per report page), BENCH_USERS (10 concurrent users), BENCH_PARTS
 * (small,large,students,money), BENCH_ORDERS (100000 invoices), BENCH_MONEY_STUDENTS (3000), BENCH_PROFILE (a
 * directory: the app process writes a V8 CPU profile there).
 *
 * Each server runs in a child process of its own (this script forks itself), so that the load generator
 * (autocannon, 50 connections, in this process) does not share an event loop with the server it measures.
 * Rounds alternate app and raw in ABBA order (app, raw, raw, app, …), and the median of the rounds is printed.
 * Memory is the app process's peak RSS read from outside it (`VmHWM` in /proc/<pid>/status, reset through
 * /proc/<pid>/clear_refs before each measure). The load average is printed at each heading: on a shared machine
 * the figures move with it.
 * - small table: `bench_small_<pid>` with 50 companies (created and dropped on every run);
 * - exports: the same database grown to 25,000 and then 100,000 companies;
 * - large table: `bench_<pid>` with 1,000,000 companies;
 * - students: `bench_students_<pid>` with 200,000 students filled by SQL and their search terms built by the
 *   backfill the migration runs;
 * - money (scripts/bench-money.ts, which uses this file's helpers): `bench_money_<pid>` filled by SQL with 100,000
 *   invoices and 1,000,000 invoice lines over the three years up to today, three branches, HKD and KRW, receipts
 *   approved, not approved and cancelled, the invoices' amounts and statuses as the app keeps them, a few thousand
 *   students (in about a minute); then `GET /api/dashboard/show` alone and at 10 users (p95 ≤ 200 ms) for the admin
 *   and a branch user, the invoices report's result page this month and over the three years (p95 ≤ 300 ms), the
 *   other money reports' pages (printed, no target), and XLSX files of 100,000 rows or more of the invoices and of
 *   the invoice lines (≤ 3 s, the app's peak RSS ≤ 200 MB), read back and their rows counted. The load average is
 *   printed beside each of its figures, and the app process's CPU time beside the dashboard's and the files'.
 * Every database name carries this run's pid (two runs never drop each other's), and is dropped at the end unless
 * BENCH_KEEP=1 (then `bench_keep`, `bench_students_keep` and `bench_money_keep`, reused by the next such run; the
 * money one is filled again only when an earlier fill did not finish). The raw server counts the
 * table once at start (the cheapest server one could write); the app counts as it does. The count's amortised cost
 * is the SQL time of the app's count queries divided by its list requests; the count of a search is measured on
 * search words never asked before that match students (a cold count that counts something).
 */
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Redis } from 'ioredis';
import knex, { type Knex } from 'knex';
import { bundle, SERVER_NODE_OPTIONS } from './build-server';

const MYSQL = (process.env.BENCH_MYSQL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const REDIS = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379/0';
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const BIG_ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 200_000);
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
export const USERS = Number(process.env.BENCH_USERS ?? 10);
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? 'small,large,students,money').split(',').map((p) => p.trim()),
);
export const KEEP = process.env.BENCH_KEEP === '1';
const CONNECTIONS = 50;
const PER_PAGE = 20;
const LIST = `/api/companies?page=1&per_page=${PER_PAGE}&sort=code`;
/** this run's own: two runs at once never share (or drop) a database or a Redis key */
const RUN = KEEP ? 'keep' : String(process.pid);
export const DATABASES = {
  small: `bench_small_${process.pid}`,
  large: `bench_${RUN}`,
  students: `bench_students_${RUN}`,
  money: `bench_money_${RUN}`,
};
/** the run's Redis keys: the app process is given its parent's, so that the run's end removes what the app wrote */
const REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? `sabench:${process.pid}:`;
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

/** A line of /proc/<pid>/status in bytes (`VmHWM`: the peak RSS since start or the last reset; `VmRSS`: now). */
function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)\s*kB/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}

/** The CPU time the process has used (user and system, all its threads: the garbage collector's too), in ms. */
function procCpuMs(pid: number): number {
  // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
/** Clock ticks a second (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/** Resets the process's peak RSS to its RSS now (`5` to /proc/<pid>/clear_refs), as measured from outside it. */
function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

async function serveApp(database: string): Promise<void> {
  const { loadConfig } = await import('../server/src/config');
  const { createApp } = await import('../server/src/app');
  const { createDb } = await import('../server/src/db/knex');
  const { configureLogger } = await import('../server/src/lib/logger');
  // the test fixture's client entries: this process runs from a bundle elsewhere (`appBundle`), so the path is the
  // repository's, given by the parent
  const clientDist = path.join(process.env.BENCH_ROOT!, 'server', 'test', 'fixtures', 'dist');
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
  const { app } = createApp({ config, db, redis, redisPrefix: REDIS_PREFIX, clientDist });

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

  const server = http.createServer((req, res) => {
    if (
      req.method === 'GET' &&
      req.url?.startsWith('/api/') &&
      /^\/api\/(companies|students)\b/.test(req.url)
    ) {
      if (!req.url.includes('format=')) stats.lists++;
    }
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (m: Reply) => {
    if (m.type === 'stats') process.send!({ type: 'stats', ...stats });
    if (m.type === 'reset') {
      Object.assign(stats, { lists: 0, counts: 0, countMs: 0, queries: 0 });
      process.send!({ type: 'reset' });
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
    if (m.type === 'stats') process.send!({ type: 'stats' });
    if (m.type === 'reset') process.send!({ type: 'reset' });
  });
  process.on('disconnect', () => process.exit(0));
}

const ROOT = path.resolve(__dirname, '..');
/** This script built as the servers run it (once per run) */
let appBundle: string | undefined;

export class Server {
  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static start(name: 'app' | 'raw', database: string, env: Record<string, string> = {}): Promise<Server> {
    // BENCH_PROFILE=<dir>: the app process writes a V8 CPU profile there (where its time per request goes)
    const profile = process.env.BENCH_PROFILE && name === 'app' ? process.env.BENCH_PROFILE : null;
    // the servers run compiled, as production runs the app (scripts/build-server.ts): no tsx in their process
    appBundle ??= bundle('scripts/bench.ts', path.join(ROOT, 'server', 'dist', 'bench.js'));
    const child = fork(appBundle, [`serve-${name}`, database], {
      env: { ...process.env, BENCH_REDIS_PREFIX: REDIS_PREFIX, BENCH_ROOT: ROOT, ...env },
      // the app with the options production gives it; the raw baseline as plain node
      execArgv: [
        ...(name === 'app' ? SERVER_NODE_OPTIONS : []),
        ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      ],
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

  /** The process's peak RSS since the last `resetPeak` (read from outside it). */
  peakRss(): number {
    return procStatus(this.child.pid!, 'VmHWM');
  }

  rss(): number {
    return procStatus(this.child.pid!, 'VmRSS');
  }

  /** The CPU time the process has used so far, in ms (read from outside it). */
  cpuMs(): number {
    return procCpuMs(this.child.pid!);
  }

  resetPeak(): void {
    resetPeakRss(this.child.pid!);
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

export function call(
  base: string,
  path: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    keepBody?: boolean;
    agent?: http.Agent;
  } = {},
): Promise<Answer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const data = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const req = http.request(
      `${base}${path}`,
      {
        method: opts.method ?? 'GET',
        agent: opts.agent ?? agent,
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

/** Signs a user in (the admin unless told) as a browser does: CSRF token, then the login; answers the session cookie. */
export async function signIn(
  app: Server,
  user: { email: string; password: string } = ADMIN,
): Promise<string> {
  const first = await call(app.base, '/api/csrf-token');
  const jar = cookiesOf(first);
  const token = JSON.parse(first.body.toString()).token as string;
  const cookie = Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  const login = await call(app.base, '/api/login', {
    method: 'POST',
    headers: { Cookie: cookie, 'X-CSRF-Token': token },
    body: user,
  });
  if (login.status !== 200)
    throw new Error(`sign-in failed: ${login.status} ${login.body.toString().slice(0, 300)}`);
  const session = cookiesOf(login).sa_session;
  if (!session) throw new Error('sign-in set no session cookie');
  return `sa_session=${session}`;
}

// ---------------------------------------------------------------------------------------------------------------
// figures

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
    : NaN;
};
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : String(n));
export const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : String(n));
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n));
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const summary: string[] = [];
let errors = 0;

/** One line of a figure against its target; kept for the summary at the end. */
export function target(label: string, value: string, ok: boolean, goal: string): void {
  const line = `${ok ? 'ok    ' : 'MISSED'}  ${label}: ${value} (target ${goal})`;
  console.log(`  ${line}`);
  summary.push(line);
}

/** The 1, 5 and 15 minute load averages and the cores: what else the machine was doing. */
export function loadAverage(): string {
  return `load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`;
}

export function heading(text: string): void {
  console.log(`\n== ${text} ${'='.repeat(Math.max(0, 100 - text.length))}`);
  console.log(`  (${loadAverage()})`);
}

export async function section(name: string, work: () => Promise<void>): Promise<void> {
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

/** Rounds of app and raw in ABBA order (app, raw, raw, app, …), the same list URL; answers the medians. */
async function alternate(label: string, app: Server, raw: Server, cookie: string, path = LIST) {
  // warm both (connections, caches, JIT)
  await load(`${app.base}${path}`, { cookie }, 1);
  await load(`${raw.base}${path}`, {}, 1);
  await app.ask('reset');
  const runs: { app: Run[]; raw: Run[] } = { app: [], raw: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    // ABBA: neither side always runs first (after the other's load, with the other's heat in the caches)
    const appFirst = round % 2 === 1;
    const first = appFirst
      ? await load(`${app.base}${path}`, { cookie }, SECONDS)
      : await load(`${raw.base}${path}`, {}, SECONDS);
    const second = appFirst
      ? await load(`${raw.base}${path}`, {}, SECONDS)
      : await load(`${app.base}${path}`, { cookie }, SECONDS);
    const a = appFirst ? first : second;
    const r = appFirst ? second : first;
    runs.app.push(a);
    runs.raw.push(r);
    console.log(
      `  round ${round} (${appFirst ? 'app, raw' : 'raw, app'}): app ${int(a.rps)} req/s p99 ${a.p99} ms (errors ${a.errors}, timeouts ${a.timeouts}, non-2xx ${a.non2xx})` +
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

export async function dropDatabase(name: string): Promise<void> {
  const a = admin();
  await a.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  await a.destroy();
}

export async function databaseExists(name: string): Promise<boolean> {
  const a = admin();
  const [rows] = await a.raw('SELECT schema_name FROM information_schema.schemata WHERE schema_name = ?', [
    name,
  ]);
  await a.destroy();
  return (rows as unknown[]).length > 0;
}

/** The database migrated (created when missing) and the bench admin in it. */
export async function prepareDatabase(name: string, fresh: boolean): Promise<Knex> {
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

/** The most memory an export may take: the app process's peak RSS (a modest container's memory). */
const EXPORT_PEAK_RSS = 512 * 1024 * 1024;

async function exportOnce(app: Server, cookie: string, format: 'csv' | 'xlsx') {
  const idle = app.rss();
  app.resetPeak();
  const res = await call(app.base, `/api/companies?format=${format}&sort=code`, {
    headers: { cookie },
    keepBody: format === 'csv',
  });
  const peakRss = app.peakRss();
  const rows =
    format === 'csv'
      ? res.body
          .toString()
          .split('\n')
          .filter((l) => l.trim()).length - 1
      : NaN;
  return { ms: res.ms, bytes: res.bytes, status: res.status, rows, peakRss, idle };
}

async function smallAndExports(secrets: Record<string, string>): Promise<void> {
  const db = await prepareDatabase(DATABASES.small, true);
  const servers: Server[] = [];
  try {
    await fillCompanies(db, 50);
    const app = await Server.start('app', DATABASES.small, secrets);
    servers.push(app);
    const cookie = await signIn(app);
    const raw = await Server.start('raw', DATABASES.small, {
      BENCH_TEMPLATE: await templateOf(app, cookie),
    });
    servers.push(raw);

    heading('small table: 50 companies, GET /api/companies (page 1 of 20), 50 connections');
    await section('small table', async () => {
      await sameJson(app, raw, cookie);
      await alternate('small table', app, raw, cookie);
    });

    heading(
      'export: 25,000 vs 100,000 companies (the app process: time to last byte, peak RSS read from outside)',
    );
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
              `(${mib(r.idle)} before it)`,
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
          ` (linear: ×4); peak RSS 25k ${mib(small.peakRss)} | 100k ${mib(big.peakRss)}`,
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
        'XLSX export of 100,000 rows, peak memory (peak RSS of the app process, VmHWM)',
        `${mib(xlsx.peakRss)} (${mib(xlsx.idle)} before it)`,
        xlsx.peakRss <= EXPORT_PEAK_RSS,
        `≤ ${mib(EXPORT_PEAK_RSS)}`,
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
    await dropDatabase(DATABASES.small);
  }
}

async function large(secrets: Record<string, string>): Promise<void> {
  const reuse = KEEP && (await databaseExists(DATABASES.large));
  const db = await prepareDatabase(DATABASES.large, !reuse);
  const servers: Server[] = [];
  try {
    heading(
      `large table: ${int(BIG_ROWS)} companies${reuse ? ` (database ${DATABASES.large} kept from an earlier run)` : ''}`,
    );
    await fillCompanies(db, BIG_ROWS);
    const rows = await companyCount(db);
    console.log(`  companies: ${int(rows)} rows`);
    const app = await Server.start('app', DATABASES.large, secrets);
    servers.push(app);
    const cookie = await signIn(app);
    const raw = await Server.start('raw', DATABASES.large, {
      BENCH_TEMPLATE: await templateOf(app, cookie),
    });
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
    if (!KEEP) await dropDatabase(DATABASES.large);
    else console.log(`\n  BENCH_KEEP=1: database ${DATABASES.large} kept for the next run`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// students: 200,000 of them, searched (issue 25, item 2)

/** Hong Kong surnames as the agency writes them: English, Chinese, Korean (the Korean reading). */
const SURNAMES: readonly (readonly [string, string, string])[] = [
  ['CHAN', '陳', '진'],
  ['WONG', '黃', '황'],
  ['LEE', '李', '이'],
  ['CHEUNG', '張', '장'],
  ['LAU', '劉', '류'],
  ['NG', '吳', '오'],
  ['HO', '何', '하'],
  ['LAM', '林', '임'],
  ['LEUNG', '梁', '양'],
  ['YIP', '葉', '엽'],
  ['TSANG', '曾', '증'],
  ['CHOW', '周', '주'],
  ['TANG', '鄧', '등'],
  ['KWOK', '郭', '곽'],
  ['CHU', '朱', '주'],
  ['MA', '馬', '마'],
  ['LO', '盧', '노'],
  ['FUNG', '馮', '풍'],
  ['KIM', '金', '김'],
  ['PARK', '朴', '박'],
  ['CHOI', '崔', '최'],
  ['YEUNG', '楊', '양'],
  ['TAM', '譚', '담'],
  ['SIU', '蕭', '소'],
];
/** Syllables of given names (two per student). */
const GIVEN: readonly (readonly [string, string, string])[] = [
  ['Tai', '大', '대'],
  ['Man', '文', '문'],
  ['Siu', '小', '소'],
  ['Ming', '明', '명'],
  ['Ka', '嘉', '가'],
  ['Yan', '欣', '흔'],
  ['Wing', '詠', '영'],
  ['Kei', '琪', '기'],
  ['Hoi', '凱', '개'],
  ['Chun', '俊', '준'],
  ['Wai', '偉', '위'],
  ['Kit', '傑', '걸'],
  ['Mei', '美', '미'],
  ['Ling', '玲', '령'],
  ['Chi', '志', '지'],
  ['Hin', '軒', '헌'],
  ['Yee', '儀', '의'],
  ['Sum', '心', '심'],
  ['Tsz', '梓', '재'],
  ['Lok', '樂', '락'],
  ['Hei', '希', '희'],
  ['Yu', '宇', '우'],
  ['Ho', '浩', '호'],
  ['Ying', '瑩', '형'],
  ['Kwan', '君', '군'],
  ['Fai', '輝', '휘'],
  ['Sze', '詩', '시'],
  ['On', '安', '안'],
];
export const BRANCH_CODES = ['HK1', 'KL1', 'NT1', 'MK1', 'TW1'];
const STUDENT_STATUSES = ['enquiry', 'active', 'applied', 'enrolled', 'completed', 'inactive'];
const STUDENT_SORTS = ['surname_en', '-surname_en', 'name_zh', '-created_at', 'given_name_en', 'student_no'];

async function studentCount(db: Knex): Promise<number> {
  const row = await db('students').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The company, the branches (five unless told), two consultants in each and three categories the students refer to. */
export async function studentReferences(db: Knex, branchCodes: readonly string[] = BRANCH_CODES) {
  const { toDbDateTime } = await import('../server/src/lib/clock');
  const { createUser } = await import('../server/test/harness');
  const { seedReference } = await import('../seeds');
  await seedReference(db);
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  let company = await db('companies').where({ code: 'BENCH' }).first('id');
  if (!company) {
    await db('companies').insert({ code: 'BENCH', name_en: 'Bench Ltd', name_zh: '測試有限公司', ...stamp });
    company = await db('companies').where({ code: 'BENCH' }).first('id');
  }
  const branches: number[] = [];
  for (const [i, code] of branchCodes.entries()) {
    let row = await db('branches').where({ code }).first('id');
    if (!row) {
      await db('branches').insert({
        company_id: company.id,
        code,
        name_en: `Branch ${code}`,
        name_zh: `分行${i + 1}`,
        ...stamp,
      });
      row = await db('branches').where({ code }).first('id');
    }
    branches.push(Number(row.id));
  }
  const consultants: number[] = [];
  for (const [i, branchId] of branches.entries()) {
    for (const n of [1, 2]) {
      const email = `consultant-${i + 1}-${n}@bench.example.com`;
      let row = await db('users').where({ email }).first('id');
      if (!row) {
        await createUser(db, { email, password: 'Bench-consultant-1' });
        row = await db('users').where({ email }).first('id');
        await db('users')
          .where({ id: row.id })
          .update({ branch_id: branchId, name: `Consultant ${i + 1}.${n}` });
      }
      consultants.push(Number(row.id));
    }
  }
  const categories: number[] = [];
  for (const [en, zh] of [
    ['General', '一般'],
    ['Scholarship', '獎學金'],
    ['Exchange', '交換生'],
  ]) {
    let row = await db('student_categories').where({ name_en: en }).first('id');
    if (!row) {
      await db('student_categories').insert({ name_en: en, name_zh: zh, color: '#1677ff', ...stamp });
      row = await db('student_categories').where({ name_en: en }).first('id');
    }
    categories.push(Number(row.id));
  }
  return { branches, consultants, categories };
}

/**
 * Students up to `rows`, by SQL (INSERT … SELECT from MariaDB's sequence engine, 50,000 a statement): English,
 * Chinese and Korean names from common Hong Kong surnames and given-name syllables, student numbers per branch and
 * year, passports, phones, e-mails, statuses, nationalities, categories and consultants; then their search terms,
 * built by the backfill the migration runs (server/src/db/search.ts `rebuild`).
 */
export async function fillStudents(
  db: Knex,
  rows: number,
  branchCodes: readonly string[] = BRANCH_CODES,
): Promise<void> {
  const { toDbDateTime } = await import('../server/src/lib/clock');
  const { declaredTermColumns, searchTerms } = await import('../server/src/db/search');
  const refs = await studentReferences(db, branchCodes);
  const have = await studentCount(db);
  if (have < rows) {
    const started = Date.now();
    const now = toDbDateTime();
    for (let from = have + 1; from <= rows; from += 50_000) {
      const to = Math.min(rows, from + 49_999);
      const bindings: unknown[] = [];
      const p = (value: unknown) => (bindings.push(value), '?');
      const elt = (index: string, values: readonly unknown[]) =>
        `ELT(${index}, ${values.map((v) => p(v)).join(', ')})`;
      const s = '1 + h MOD 24';
      const g1 = '1 + (h DIV 24) MOD 28';
      const g2 = '1 + (h DIV 672) MOD 28';
      const sql = `INSERT INTO students (student_no, branch_id, category_id, consultant_user_id, status, surname_en,
          given_name_en, name_zh, name_ko, gender, birth_date, nationality, passport_no, passport_expiry, phone, email,
          language, created_at, updated_at)
        SELECT CONCAT('STU-', ${elt('b', branchCodes)}, '-', 2024 + seq MOD 3, '-', LPAD(seq, 6, '0')),
          ${elt('b', refs.branches)},
          IF(h2 MOD 4 = 0, NULL, ${elt('1 + (h2 DIV 4) MOD 3', refs.categories)}),
          ${elt('1 + (b - 1) * 2 + (seq DIV 5) MOD 2', refs.consultants)},
          ${elt('1 + (h2 DIV 12) MOD 6', STUDENT_STATUSES)},
          ${elt(
            s,
            SURNAMES.map((n) => n[0]),
          )},
          CONCAT(${elt(
            g1,
            GIVEN.map((n) => n[0]),
          )}, ' ', ${elt(
            g2,
            GIVEN.map((n) => n[0]),
          )}),
          CONCAT(${elt(
            s,
            SURNAMES.map((n) => n[1]),
          )}, ${elt(
            g1,
            GIVEN.map((n) => n[1]),
          )}, ${elt(
            g2,
            GIVEN.map((n) => n[1]),
          )}),
          CONCAT(${elt(
            s,
            SURNAMES.map((n) => n[2]),
          )}, ${elt(
            g1,
            GIVEN.map((n) => n[2]),
          )}, ${elt(
            g2,
            GIVEN.map((n) => n[2]),
          )}),
          IF((h2 DIV 72) MOD 2 = 0, 'M', 'F'),
          DATE_SUB('2008-06-30', INTERVAL seq MOD 2500 DAY),
          ${elt('1 + seq MOD 10', ['HK', 'HK', 'HK', 'HK', 'HK', 'HK', 'HK', 'CN', 'KR', 'MO'])},
          CONCAT(${elt('1 + seq MOD 4', ['K', 'H', 'E', 'M'])}, LPAD((seq * 37) MOD 10000000, 7, '0')),
          DATE_ADD('2026-01-01', INTERVAL seq MOD 1500 DAY),
          CONCAT('+852 ', SUBSTR(d, 1, 4), ' ', SUBSTR(d, 5, 4)),
          LOWER(CONCAT(${elt(
            g1,
            GIVEN.map((n) => n[0]),
          )}, '.', ${elt(
            s,
            SURNAMES.map((n) => n[0]),
          )}, seq, '@',
            ${elt('1 + seq MOD 4', ['gmail.com', 'yahoo.com.hk', 'outlook.com', 'hotmail.com'])})),
          'zh_HK',
          DATE_SUB(${p(now)}, INTERVAL (${rows} - seq) * 5 MINUTE),
          DATE_SUB(${p(now)}, INTERVAL (${rows} - seq) * 5 MINUTE)
        FROM (SELECT seq, (seq * 2654435761) MOD 1000003 AS h, (seq * 40503) MOD 999983 AS h2,
                1 + seq MOD ${branchCodes.length} AS b,
                CONCAT(ELT(1 + seq MOD 3, '5', '6', '9'), LPAD((seq * 7919) MOD 10000000, 7, '0')) AS d
              FROM seq_${from}_to_${to}) AS x`;
      try {
        await db.raw(sql, bindings as never);
      } catch (err) {
        if (/seq_/.test(String(err)))
          throw new Error("the students' fill needs MariaDB's sequence engine", { cause: err });
        throw err;
      }
    }
    console.log(`  filled students to ${int(rows)} rows by SQL in ${f1((Date.now() - started) / 1000)} s`);
  }
  const termRow = await db('search_terms')
    .where({ entity: 'students' })
    .countDistinct({ n: 'record_id' })
    .first();
  if (Number(termRow?.n ?? 0) < rows) {
    const started = Date.now();
    const done = await searchTerms.rebuild(db, 'students', declaredTermColumns('students')!, 2_000);
    const terms = await db('search_terms').where({ entity: 'students' }).count({ n: '*' }).first();
    console.log(
      `  search terms of ${int(done)} students built by the migration's backfill in ${f1((Date.now() - started) / 1000)} s: ` +
        `${int(Number(terms?.n))} terms (${f1(Number(terms?.n) / done)} a student)`,
    );
  }
  await db.raw('ANALYZE TABLE students, search_terms');
}

/** The session's CSRF token (a write through the API needs it). */
async function csrfOf(app: Server, cookie: string): Promise<string> {
  const res = await call(app.base, '/api/csrf-token', { headers: { cookie } });
  return JSON.parse(res.body.toString()).token as string;
}

export interface BenchCase {
  name: string;
  /** the request's path; `i` counts the requests of this case (a new search word each time) */
  path: (i: number) => string;
  /**
   * a first visit: another user saves a student before each request one after another, and every second while 10
   * users ask (which drops the counts and each search word's kept records)
   */
  cold?: boolean;
}

/** `n` requests one after the other (each after `before`, untimed): their times. */
export async function sequentially(
  app: Server,
  cookie: string,
  c: BenchCase,
  n: number,
  from: number,
  drop: () => Promise<void>,
) {
  const times: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (c.cold) await drop();
    const res = await call(app.base, c.path(from + i), { headers: { cookie }, keepBody: false });
    statuses.add(res.status);
    times.push(res.ms);
  }
  return { times, statuses };
}

const usersAgent = new http.Agent({ keepAlive: true, maxSockets: USERS });

/** `USERS` users at once for `SECONDS`, each sending its next request when the last one answered. */
export async function concurrently(
  app: Server,
  cookie: string,
  c: BenchCase,
  from: number,
  drop: () => Promise<void>,
) {
  const times: number[] = [];
  let errors = 0;
  let next = from;
  const until = Date.now() + SECONDS * 1000;
  let dropping = c.cold;
  const dropper = (async () => {
    // a student saved every second: each save drops the counts, which the next request counts again
    while (dropping && Date.now() < until) {
      await drop();
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  await Promise.all(
    Array.from({ length: USERS }, async () => {
      while (Date.now() < until) {
        const res = await call(app.base, c.path(next++), {
          headers: { cookie },
          keepBody: false,
          agent: usersAgent,
        });
        if (res.status !== 200) errors++;
        times.push(res.ms);
      }
    }),
  );
  dropping = false;
  await dropper;
  return { times, errors, rps: times.length / SECONDS, next };
}

async function studentsPart(secrets: Record<string, string>): Promise<void> {
  const name = DATABASES.students;
  const reuse = KEEP && (await databaseExists(name));
  const db = await prepareDatabase(name, !reuse);
  const servers: Server[] = [];
  try {
    heading(
      `students: ${int(STUDENTS)} students${reuse ? ` (database ${name} kept from an earlier run)` : ''}`,
    );
    await fillStudents(db, STUDENTS);
    const total = await studentCount(db);
    const lastPage = Math.ceil(total / PER_PAGE);
    const middlePage = Math.ceil(lastPage / 2);
    // identifiers of students picked at random, as staff would type them
    const picked: Record<string, string | null>[] = await db('students')
      .whereIn(
        'id',
        Array.from({ length: 400 }, () => 1 + Math.floor(Math.random() * total)),
      )
      .select('id', 'student_no', 'passport_no', 'phone', 'email');
    const identifiers = picked.flatMap((row, i) => {
      const phone = String(row.phone ?? '')
        .replace(/^\+852 /, '')
        .replace(/\D/g, '');
      const choices = [
        String(row.student_no),
        String(row.passport_no).slice(0, 6),
        phone,
        String(row.email).split('@')[0],
      ];
      return [choices[i % choices.length]];
    });
    // names: a surname and a given-name syllable, in English, Chinese or Korean, shuffled
    const names: string[] = [];
    for (const [en, zh] of SURNAMES)
      for (const [given, givenZh, givenKo] of GIVEN)
        names.push(
          `${en.toLowerCase()} ${given.toLowerCase()}`,
          `${zh}${givenZh}`,
          `${givenKo}${givenKo === '문' ? '대' : '문'}`,
        );
    names.sort(() => Math.random() - 0.5);
    // for the count's figure: surnames alone (about 8,000 students each: more than a search reads by id, so they
    // are counted), never asked before it
    const countWords = [
      ...SURNAMES.slice(10, 15).map(([en]) => en.toLowerCase()),
      ...SURNAMES.slice(15, 20).map(([, zh]) => zh),
    ];
    const bid = (i: number) => 1 + (i % BRANCH_CODES.length);

    const app = await Server.start('app', name, secrets);
    servers.push(app);
    const cookie = await signIn(app);
    const token = await csrfOf(app, cookie);
    const branchIds = (await db('branches').whereIn('code', BRANCH_CODES).orderBy('code').pluck('id')).map(
      Number,
    );
    const [someone] = picked;
    let saves = 0;
    const drop = async () => {
      const res = await call(app.base, `/api/students/${someone.id}`, {
        method: 'PUT',
        headers: { cookie, 'X-CSRF-Token': token },
        body: { remark: `bench save ${++saves}` },
        keepBody: false,
      });
      if (res.status !== 200) throw new Error(`a student's save answered ${res.status}`);
    };
    app.resetPeak();

    await section('students: the count of a new search', async () => {
      await app.ask('reset');
      const totals: string[] = [];
      for (const q of countWords) {
        const res = await call(app.base, `/api/students?per_page=${PER_PAGE}&q=${encodeURIComponent(q)}`, {
          headers: { cookie },
        });
        const body = JSON.parse(res.body.toString());
        totals.push(`${int(body.total)}${body.total_capped ? '+' : ''}`);
      }
      const stats = await app.ask('stats');
      const perCount = Number(stats.countMs) / Math.max(1, Number(stats.counts));
      console.log(
        `  ${countWords.length} searches never asked before (${countWords.join(', ')}), matching ${totals.join(', ')} ` +
          `students: ${stats.counts} count queries, ${f2(perCount)} ms of SQL per count (a search matching at most ` +
          '2,000 students needs none: its total is the number of its matches, read with them)',
      );
      target(
        'the count of a new search that matches (SQL per count)',
        `${f2(perCount)} ms`,
        perCount <= 50 && Number(stats.counts) > 0,
        '≤ 50 ms',
      );
    });

    const cases: BenchCase[] = [
      { name: 'page 1', path: () => `/api/students?page=1&per_page=${PER_PAGE}` },
      {
        name: 'a name search',
        path: (i) => `/api/students?per_page=${PER_PAGE}&q=${encodeURIComponent(names[i % names.length])}`,
      },
      {
        // the same kind of names after another user saved a student: each word's records read again
        name: 'a name search after a save',
        path: (i) =>
          `/api/students?per_page=${PER_PAGE}&q=${encodeURIComponent(names[(i * 7 + 13) % names.length])}`,
        cold: true,
      },
      {
        name: 'an identifier search',
        path: (i) =>
          `/api/students?per_page=${PER_PAGE}&q=${encodeURIComponent(identifiers[i % identifiers.length])}`,
      },
      {
        name: 'a search matching nothing',
        path: () => `/api/students?per_page=${PER_PAGE}&q=zq${crypto.randomBytes(4).toString('hex')}`,
      },
      {
        name: 'a filter + sort',
        path: (i) =>
          `/api/students?per_page=${PER_PAGE}&status=${STUDENT_STATUSES[i % STUDENT_STATUSES.length]}` +
          `&branch_id=${branchIds[bid(i * 7) - 1]}&sort=${STUDENT_SORTS[(i * 5) % STUDENT_SORTS.length]}`,
      },
      {
        name: 'the last page, first visit',
        path: () => `/api/students?page=${lastPage}&per_page=${PER_PAGE}`,
        cold: true,
      },
      {
        name: 'the middle page, first visit',
        path: () => `/api/students?page=${middlePage}&per_page=${PER_PAGE}`,
        cold: true,
      },
    ];

    heading(
      `students: ${int(total)} rows, each case ${SAMPLES} requests one after another (ABBA), then ${USERS} users at once for ${SECONDS} s`,
    );
    await section('students: cases', async () => {
      // the statements of a page 1 once its count and names are kept (a page of a list in use)
      await call(app.base, cases[0].path(0), { headers: { cookie } });
      await app.ask('reset');
      for (let i = 0; i < 10; i++) await call(app.base, cases[0].path(0), { headers: { cookie } });
      const warm = await app.ask('stats');
      console.log(
        `  SQL statements per page 1 request, warm: ${f2(Number(warm.queries) / Math.max(1, Number(warm.lists)))} ` +
          '(authentication and names from their caches)',
      );
      // warm the app (connections, JIT) on other requests than the cases'
      for (let i = 0; i < 5; i++)
        await call(app.base, `/api/students?page=2&per_page=${PER_PAGE}`, { headers: { cookie } });
      const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
      const statuses = new Map<string, Set<number>>(cases.map((c) => [c.name, new Set()]));
      const counters = new Map<string, number>(cases.map((c) => [c.name, 0]));
      // ABBA: the cases in order for half the samples, then in reverse
      const half = Math.ceil(SAMPLES / 2);
      for (const order of [cases, [...cases].reverse()]) {
        for (const c of order) {
          const r = await sequentially(app, cookie, c, half, counters.get(c.name)!, drop);
          counters.set(c.name, counters.get(c.name)! + half);
          times.get(c.name)!.push(...r.times);
          r.statuses.forEach((st) => statuses.get(c.name)!.add(st));
        }
      }
      for (const c of cases) {
        const ts = times.get(c.name)!;
        const m = median(ts);
        const st = [...statuses.get(c.name)!];
        console.log(
          `  ${c.name.padEnd(30)} alone: median ${f1(m)} ms, p95 ${f1(percentile(ts, 95))} ms, max ${f1(Math.max(...ts))} ms (status ${st.join(', ')})`,
        );
        target(
          `students, ${c.name}, alone (median of ${ts.length})`,
          `${f1(m)} ms`,
          m <= 50 && st.every((x) => x === 200),
          '≤ 50 ms',
        );
      }
      for (const c of cases) {
        const r = await concurrently(app, cookie, c, counters.get(c.name)!, drop);
        counters.set(c.name, r.next);
        const p99 = percentile(r.times, 99);
        console.log(
          `  ${c.name.padEnd(30)} ${USERS} users: ${int(r.rps)} req/s, p50 ${f1(percentile(r.times, 50))} ms, p99 ${f1(p99)} ms, ` +
            `${r.errors} errors of ${int(r.times.length)}${c.cold ? ' (a student saved every second)' : ''}`,
        );
        target(
          `students, ${c.name}, p99 at ${USERS} users`,
          `${f1(p99)} ms`,
          p99 <= 200 && r.errors === 0,
          '≤ 200 ms',
        );
      }
    });
    console.log(
      `  the app process's peak RSS during the students part: ${mib(app.peakRss())} (read from outside, VmHWM)`,
    );
  } finally {
    for (const s of servers) await s.stop();
    await db.destroy();
    if (!KEEP) await dropDatabase(name);
    else console.log(`\n  BENCH_KEEP=1: database ${name} kept for the next run`);
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
    `bench: MariaDB ${MYSQL}, Redis ${REDIS}; ${ROUNDS} rounds × ${SECONDS} s, app and raw alternating (ABBA); ` +
      `node ${process.version}; parts ${[...PARTS].join(', ')}; databases ${Object.values(DATABASES).join(', ')}`,
  );
  console.log(`  ${loadAverage()}`);
  const secrets = {
    BENCH_SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    BENCH_APP_KEY: `base64:${crypto.randomBytes(32).toString('base64')}`,
  };
  try {
    if (PARTS.has('small')) await section('small table and exports', () => smallAndExports(secrets));
    if (PARTS.has('large')) await section('large table', () => large(secrets));
    if (PARTS.has('students')) await section('students', () => studentsPart(secrets));
    if (PARTS.has('money'))
      await section('money', async () => (await import('./bench-money')).moneyPart(secrets));
  } finally {
    await clearRedis().catch(() => undefined);
    agent.destroy();
    usersAgent.destroy();
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

/**
 * The README's production path, as a new agency follows it: the server started with NODE_ENV=production on an
 * empty database (SQLite file; with TEST_DATABASE_URL, a MariaDB database reached through compose's separate
 * DB_* settings as a user whose password holds `/`, `@`, `+` and `=`), reference data seeded at start, the first
 * administrator made by `npm run admin:create` (as a real child process, and its function), and a sign-in
 * through the HTTP API carrying the headers Caddy sets. Then: a forged X-Forwarded-For from an address that is
 * not the proxy, the trusted-LAN mode, and docker/compose.yaml and docker/.env.example checked against the
 * config schema.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { CONFIG_VARIABLES, loadConfig } from '../src/config';
import { createDb, migrateLatest } from '../src/db/knex';
import { configurePasswords } from '../src/lib/passwords';
import { ADMIN_ROLE_NAME, createFirstAdmin, FirstAdminError } from '../src/cli/first-admin';
import { PERMISSIONS } from '../../shared/permissions';
import { buildServer, SERVER_NODE_OPTIONS } from '../../scripts/build-server';
import { Client, createTestApp, createUser, onMysql, type TestApp } from './harness';

const ROOT = path.resolve(__dirname, '../..');
const KEY = `base64:${Buffer.alloc(32, 9).toString('base64')}`;
/** what compose passes as DB_PASSWORD, and what a URL pasted together would break on */
const HARD_PASSWORD = 's3cret/pa@ss+abc/def=';
const ADMIN = { name: 'First Admin', email: 'owner@agency.test', password: 'Owner-pass1' };
const STAFF_HOST = 'admin.agency.test';

// child processes compile TypeScript on start: give them room on a busy 2-core machine
jest.setTimeout(120_000);

/** The environment a production container gets, without anything of the test runner's own. */
function productionEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: '0',
    SESSION_SECRET: 'p'.repeat(48),
    APP_KEY: KEY,
    BCRYPT_COST: '10',
    LOG_LEVEL: 'info',
    APP_URL: `https://${STAFF_HOST}`,
    PORTAL_HOST: `student.${STAFF_HOST}`,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...extra,
  };
}

interface Started {
  port: number;
  output: () => string;
  /** the output's lines, each parsed as the JSON line production logs (a line that is not JSON fails) */
  lines: () => Record<string, unknown>[];
  stop: () => Promise<void>;
}

/** A production log line: JSON, or an error naming the line that is not. */
function jsonLine(line: string): Record<string, unknown> {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`not a JSON log line: ${line}`);
  }
}

let built: string | undefined;

/**
 * `node --heap-growing-percent=50 server/dist/main.js` (the server built from this checkout), as the image's CMD runs it; resolves once it
 * listens. In production the banner is a JSON line naming the port (`{"message":"Study-abroad admin is running at
 * …","port":…}`).
 */
function startServer(env: NodeJS.ProcessEnv): Promise<Started> {
  built ??= buildServer();
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, built], { cwd: ROOT, env });
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const lines = () =>
    output
      .split('\n')
      .filter((line) => line.trim())
      .map(jsonLine);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)[,}].*$/m.exec(output);
      // the lines logged right after listening (the admin hint) come in the same tick or the next
      if (match)
        setTimeout(() => resolve({ port: Number(match[1]), output: () => output, lines, stop }), 300);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

/** `npm run admin:create -- …` without a terminal, as a script (or `docker compose exec -T`) runs it. */
function adminCreate(
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // the README's very command: the package.json script, through npm
  const child: ChildProcess = spawn('npm', ['run', '--silent', 'admin:create', '--', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

interface Reply {
  status: number;
  cookies: string[];
  body: unknown;
}

/** One request over a real socket from 127.0.0.1, with the headers a browser and the proxy would send. */
function call(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: object,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        headers: {
          Host: STAFF_HOST,
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cookies: res.headers['set-cookie'] ?? [],
            body: text ? (JSON.parse(text) as unknown) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs in as a browser does (token, then login with the token's cookie), returning the cookies set. */
async function signIn(
  port: number,
  proxyHeaders: Record<string, string>,
): Promise<{ csrf: Reply; login: Reply; user: Reply }> {
  const csrf = await call(port, 'GET', '/api/csrf-token', proxyHeaders);
  const csrfCookie = csrf.cookies.map((c) => c.split(';')[0]).join('; ');
  // refused (403 https_required), the token call gives none: the sign-in is sent with a made-up one
  const token = (csrf.body as { token?: string }).token ?? 'no-token';
  const login = await call(
    port,
    'POST',
    '/api/login',
    { ...proxyHeaders, Cookie: csrfCookie, 'X-CSRF-Token': token },
    { email: ADMIN.email, password: ADMIN.password },
  );
  const session = login.cookies.map((c) => c.split(';')[0]).join('; ');
  const user = await call(port, 'GET', '/api/user', { ...proxyHeaders, Cookie: session });
  return { csrf, login, user };
}

/** A fresh database for a child server: a SQLite file, or (TEST_DATABASE_URL) a MariaDB database and a user. */
async function freshProductionDatabase(): Promise<{
  env: Record<string, string>;
  db: Knex;
  drop: () => Promise<void>;
}> {
  const name = `sa_install_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  if (onMysql) {
    const base = new URL(process.env.TEST_DATABASE_URL!);
    const root = knex({
      client: 'mysql2',
      connection: { uri: `${base.protocol}//${base.username ? `${base.username}@` : ''}${base.host}/` },
    } as Knex.Config);
    await root.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const user = name.slice(0, 32);
    for (const host of ['%', 'localhost']) {
      await root.raw('CREATE USER ??@?? IDENTIFIED BY ?', [user, host, HARD_PASSWORD]);
      await root.raw(`GRANT ALL PRIVILEGES ON \`${name}\`.* TO ??@??`, [user, host]);
    }
    const env = {
      DB_HOST: base.hostname,
      DB_PORT: base.port || '3306',
      DB_USER: user,
      DB_PASSWORD: HARD_PASSWORD,
      DB_NAME: name,
    };
    const db = createDb(loadConfig(productionEnv(env)).databaseUrl);
    return {
      env,
      db,
      drop: async () => {
        await db.destroy();
        for (const host of ['%', 'localhost']) await root.raw('DROP USER IF EXISTS ??@??', [user, host]);
        await root.raw(`DROP DATABASE IF EXISTS \`${name}\``);
        await root.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sa-install-'));
  const url = `sqlite:${path.join(dir, `${name}.sqlite`)}`;
  const db = createDb(url);
  return {
    env: { DATABASE_URL: url },
    db,
    drop: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function count(db: Knex, table: string): Promise<number> {
  return Number((await db(table).count({ n: '*' }).first())?.n);
}

describe(`a production install on an empty ${onMysql ? 'MariaDB (DB_* settings)' : 'SQLite'} database`, () => {
  let database: Awaited<ReturnType<typeof freshProductionDatabase>>;
  let env: NodeJS.ProcessEnv;
  let server: Started | undefined;
  beforeAll(async () => {
    database = await freshProductionDatabase();
    // compose names Caddy by its address; here the proxy is this test, on loopback
    env = productionEnv({ ...database.env, TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.stop();
    await database.drop();
  });

  it('starts, seeds the reference data and says to create the first administrator', async () => {
    server = await startServer(env);
    expect(server.output()).toContain('No administrator exists yet');
    expect(server.output()).toContain('npm run admin:create');
    expect(server.output()).not.toContain('Demo sign-in');
    expect(await count(database.db, 'holidays')).toBeGreaterThan(0);
    expect(await count(database.db, 'areas')).toBeGreaterThan(0);
    expect(await count(database.db, 'options')).toBeGreaterThan(0);
    expect(await count(database.db, 'users')).toBe(0);
  });

  it('logs every start-up line as JSON, the banner naming APP_URL, the portal and the address it listens on', () => {
    const lines = server!.lines();
    const banner = lines.find((line) => String(line.message).includes('is running at'));
    expect(banner).toMatchObject({
      level: 'info',
      message: expect.stringContaining(
        `is running at https://${STAFF_HOST} (portal: https://student.${STAFF_HOST})`,
      ),
      url: `https://${STAFF_HOST}`,
      portal_url: `https://student.${STAFF_HOST}`,
      port: server!.port,
    });
    expect(lines.find((line) => String(line.message).startsWith('Database:'))).toMatchObject({
      database: onMysql ? 'mysql' : 'sqlite',
    });
    expect(lines.find((line) => line.level === 'warn')?.message).toContain('No administrator exists yet');
  });

  it('makes the first administrator with `admin:create`, and refuses, saying so, to make a second', async () => {
    const made = await adminCreate({ ...env, ADMIN_PASSWORD: ADMIN.password }, [
      '--name',
      ADMIN.name,
      '--email',
      ADMIN.email,
      '--language',
      'en',
      '--company',
      'Harbour Study Ltd',
    ]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`Administrator ${ADMIN.email} created`);
    const again = await adminCreate({ ...env, ADMIN_PASSWORD: 'Another-pass2' }, [
      '--name',
      'Second',
      '--email',
      'second@agency.test',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'An administrator already exists (owner@agency.test): nothing was changed',
    );
    expect(again.stderr).toContain('--force');
    expect(await count(database.db, 'users')).toBe(1);
    const company = await database.db('companies').first('name_en');
    expect(company?.name_en).toBe('Harbour Study Ltd');
  });

  it('signs the administrator in behind the TLS proxy, with Secure cookies and the client address it reports', async () => {
    const proxy = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.77' };
    const { csrf, login, user } = await signIn(server!.port, proxy);
    expect(csrf.cookies.join()).toMatch(/sa_csrf=.*Secure/);
    expect(login.status).toBe(200);
    expect(login.cookies.join()).toMatch(/sa_session=.*; .*Secure/);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ user: { email: ADMIN.email, is_admin: true } });
    const audit = await database.db('audit_logs').where({ action: 'login' }).first('ip');
    expect(audit?.ip).toBe('203.0.113.77');
  });

  it('over plain HTTP says that HTTPS is needed, sets no cookie, and logs why once', async () => {
    for (let i = 0; i < 3; i++) {
      const { csrf, login } = await signIn(server!.port, { 'X-Forwarded-For': '203.0.113.78' });
      for (const reply of [csrf, login]) {
        expect([reply.status, (reply.body as { code?: string }).code]).toEqual([403, 'https_required']);
        expect(reply.cookies).toEqual([]);
      }
    }
    const warnings = server!
      .lines()
      .filter((line) => line.level === 'warn' && String(line.message).includes('HTTPS'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ host: STAFF_HOST, path: '/api/csrf-token' });
  });
});

describe('the trusted-LAN mode (COOKIE_SECURE=false)', () => {
  let database: Awaited<ReturnType<typeof freshProductionDatabase>>;
  let server: Started | undefined;
  beforeAll(async () => {
    database = await freshProductionDatabase();
    configurePasswords(10);
    await migrateLatest(database.db);
    await createFirstAdmin(database.db, { ...ADMIN, language: 'en' });
  });
  afterAll(async () => {
    await server?.stop();
    await database.drop();
  });

  it('warns at start and sets the session cookie over plain HTTP', async () => {
    server = await startServer(productionEnv({ ...database.env, COOKIE_SECURE: 'false' }));
    expect(server.output()).toContain('COOKIE_SECURE=false');
    expect(server.output()).not.toContain('No administrator exists yet');
    const { csrf, login, user } = await signIn(server.port, {});
    expect(csrf.cookies.join()).not.toMatch(/Secure/);
    expect(login.status).toBe(200);
    expect(login.cookies.join()).toMatch(/sa_session=/);
    expect(login.cookies.join()).not.toMatch(/Secure/);
    expect(user.status).toBe(200);
  });
});

describe('HOST, and mail configured without a sender', () => {
  let database: Awaited<ReturnType<typeof freshProductionDatabase>>;
  let server: Started | undefined;
  beforeAll(async () => {
    database = await freshProductionDatabase();
  });
  afterAll(async () => {
    await server?.stop();
    await database.drop();
  });

  const heartbeat = (host: string, port: number) =>
    new Promise<number | string>((resolve) => {
      http
        .get({ host, port, path: '/api/heartbeat' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
    });

  it('listens only on HOST, and warns that mail stays off without SMTP_FROM', async () => {
    // 127.0.0.2 is loopback too on Linux: listening there alone, the server is not reached at 127.0.0.1
    server = await startServer(
      productionEnv({ ...database.env, HOST: '127.0.0.2', SMTP_HOST: 'smtp.agency.test' }),
    );
    const lines = server.lines();
    expect(lines.find((line) => String(line.message).includes('is running at'))).toMatchObject({
      message: expect.stringContaining(`listening on 127.0.0.2:${server.port}`),
      address: '127.0.0.2',
    });
    expect(await heartbeat('127.0.0.2', server.port)).toBe(200);
    expect(await heartbeat('127.0.0.1', server.port)).toBe('ECONNREFUSED');
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toContainEqual(
      expect.stringContaining('SMTP_HOST is set without SMTP_FROM'),
    );
  });
});

describe('createFirstAdmin (the function behind `admin:create`)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('checks the input by the account rules before anything is written', async () => {
    await expect(createFirstAdmin(t.db, { ...ADMIN, password: 'short' })).rejects.toThrow(
      'at least 8 characters',
    );
    await expect(createFirstAdmin(t.db, { ...ADMIN, email: 'not-an-email' })).rejects.toThrow(
      FirstAdminError,
    );
    expect(await count(t.db, 'users')).toBe(0);
  });

  it('makes the role with every permission, a company, a branch and a verified admin, audited as system', async () => {
    const result = await createFirstAdmin(t.db, {
      ...ADMIN,
      email: ' Owner@Agency.TEST ',
      companyName: 'Harbour Study Ltd',
      companyCode: 'HSL',
      branchName: 'Central',
      branchCode: 'CEN',
    });
    expect(result.created).toEqual({ role: true, company: true, branch: true });
    const role = await t.db('roles').where({ id: result.roleId }).first();
    expect(role).toMatchObject({ name: ADMIN_ROLE_NAME, data_scope: 'all' });
    expect(JSON.parse(role.permissions)).toEqual([...PERMISSIONS]);
    const user = await t.db('users').where({ id: result.userId }).first();
    expect(user).toMatchObject({ email: 'owner@agency.test', branch_id: result.branchId, language: 'zh_HK' });
    expect(Boolean(user.is_admin)).toBe(true);
    expect(user.email_verified_at).toBeTruthy();
    const audit = await t.db('audit_logs').orderBy('id').select('actor_type', 'action', 'entity', 'changes');
    expect(audit.map((a) => `${a.actor_type}:${a.action}:${a.entity}`)).toEqual([
      'system:create:role',
      'system:create:company',
      'system:create:branch',
      'system:create:user',
    ]);
    expect(audit.map((a) => a.changes).join()).not.toMatch(/password|\$2[aby]\$/);
    // the account signs in
    const c = new Client(t.app);
    await c.refreshToken();
    expect((await c.post('/api/login', { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
  });

  it('refuses a second run unless forced, then reuses the role, company and branch', async () => {
    const second = { name: 'Second', email: 'second@agency.test', password: 'Second-pass1' };
    await expect(createFirstAdmin(t.db, second)).rejects.toThrow(/already exists.*--force/s);
    const forced = await createFirstAdmin(t.db, second, { force: true });
    expect(forced.created).toEqual({ role: false, company: false, branch: false });
    await expect(createFirstAdmin(t.db, second, { force: true })).rejects.toThrow(
      'A user with the email second@agency.test already exists',
    );
  });
});

describe('X-Forwarded-For from an address that is not the proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    // compose's setting: only Caddy's address is trusted; this test connects from loopback
    t = await createTestApp({ TRUST_PROXY: '172.30.57.10' });
  });
  afterAll(() => t.close());

  it('does not change the throttle key, nor the address audited', async () => {
    const user = await createUser(t.db);
    const attempt = async (forged: string) => {
      const c = new Client(t.app);
      await c.refreshToken();
      return c
        .post('/api/login', { email: user.email, password: 'Wrong1234' })
        .set('X-Forwarded-For', forged)
        .set('X-Forwarded-Proto', 'https');
    };
    for (let i = 0; i < 5; i++) expect((await attempt(`198.51.100.${i}`)).status).toBe(422);
    expect((await attempt('198.51.100.200')).status).toBe(429);
    const ips = await t.db('audit_logs').where({ action: 'login_failed' }).distinct('ip');
    expect(ips.map((r) => r.ip)).toEqual([expect.stringMatching(/127\.0\.0\.1|::1/)]);
  });
});

/** compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}`, as docker compose fills them in. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (_, name: string, op?: string, arg?: string) => {
      const set = vars[name];
      if (set) return set;
      if (op === '?') throw new Error(`${name}: ${arg}`);
      return op === '-' ? (arg ?? '') : '';
    },
  );
}

/** docker/.env.example's settings, `NAME=value` lines (comments left out). */
function readEnvExample(): { text: string; values: Record<string, string> } {
  const text = fs.readFileSync(path.join(ROOT, 'docker/.env.example'), 'utf8');
  const values = Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
  return { text, values };
}

interface ComposeService {
  environment?: Record<string, string>;
  ports?: string[];
  restart?: string;
  healthcheck?: object;
  networks?: Record<string, { ipv4_address?: string }> | string[];
}

describe('docker/compose.yaml and docker/.env.example', () => {
  // js-yaml comes with jest (no types of its own); the compose file is plain YAML
  const yaml = createRequire(__filename)('js-yaml') as { safeLoad(text: string): unknown };
  const compose = yaml.safeLoad(fs.readFileSync(path.join(ROOT, 'docker/compose.yaml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };
  const app = compose.services.app;
  const example = readEnvExample();

  it('passes the app only settings its config knows, and documents every one of them', () => {
    const unknown = Object.keys(app.environment ?? {}).filter((k) => !CONFIG_VARIABLES.includes(k));
    expect(unknown).toEqual([]);
    const undocumented = CONFIG_VARIABLES.filter(
      (k) => !new RegExp(`(^|[\\s#])${k}=`, 'm').test(example.text),
    );
    expect(undocumented).toEqual([]);
    // the container listens on every interface of its own: Caddy reaches it over the edge network
    expect(app.environment?.HOST).toBe('0.0.0.0');
    for (const key of [
      'APP_URL',
      'LOG_LEVEL',
      'SESSION_IDLE_MINUTES',
      'SESSION_ABSOLUTE_MINUTES',
      'PASSWORD_CONFIRM_MINUTES',
      'UPLOAD_DIR',
      'PORTAL_HOST',
      'SMTP_HOST',
      'SMTP_FROM',
      'COOKIE_SECURE',
      'TRUST_PROXY',
    ]) {
      expect(app.environment).toHaveProperty(key);
    }
  });

  it('lists in .env.example every variable the compose file reads', () => {
    const raw = fs.readFileSync(path.join(ROOT, 'docker/compose.yaml'), 'utf8');
    const read = new Set([...raw.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]));
    expect([...read].filter((k) => !(k in example.values))).toEqual([]);
  });

  it('publishes only the TLS proxy, trusts exactly it, restarts and health-checks every service', () => {
    expect(app.ports).toBeUndefined();
    expect(compose.services.caddy.ports?.join()).toMatch(/:80.*:443/);
    const caddyNetworks = compose.services.caddy.networks as Record<string, { ipv4_address?: string }>;
    expect(app.environment?.TRUST_PROXY).toBe(caddyNetworks.edge.ipv4_address);
    for (const [name, service] of Object.entries(compose.services)) {
      expect([name, service.restart]).toEqual([name, 'unless-stopped']);
      expect([name, Boolean(service.healthcheck)]).toEqual([name, true]);
    }
  });

  it('gives a runnable production config with a password holding / @ + and =, the password intact', () => {
    const vars = {
      ...example.values,
      MYSQL_PASSWORD: HARD_PASSWORD,
      MYSQL_ROOT_PASSWORD: 'abc+def/ghi=',
      SESSION_SECRET: 'x'.repeat(48),
      APP_KEY: KEY,
    };
    const env = Object.fromEntries(
      Object.entries(app.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]),
    );
    const config = loadConfig(env);
    expect(config).toMatchObject({
      isProduction: true,
      databaseClient: 'mysql',
      cookieSecure: true,
      trustProxy: '172.30.57.10',
      appUrl: 'https://admin.example.com',
      portalHost: 'student.admin.example.com',
      uploadDir: '/app/uploads',
    });
    // mysql2 reads the URL back into the very password MySQL was given
    const parseUrl = (
      createRequire(__filename)(path.join(ROOT, 'node_modules/mysql2/lib/connection_config.js')) as {
        parseUrl(url: string): { user: string; password: string; host: string; database: string };
      }
    ).parseUrl;
    expect(parseUrl(config.databaseUrl)).toMatchObject({
      host: 'mysql',
      user: 'agency',
      password: HARD_PASSWORD,
      database: 'agency',
    });
  });

  it('takes the secrets as the README makes them', () => {
    const sh = (command: string) => execFileSync('bash', ['-c', command], { encoding: 'utf8' }).trim();
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://agency:pw@mysql:3306/agency',
      SESSION_SECRET: sh('openssl rand -base64 48'),
      APP_KEY: sh(`printf 'base64:%s\\n' "$(openssl rand -base64 32)"`),
    });
    expect(config.appKey).toHaveLength(32);
    const nodeKey = sh(
      `node -e "console.log('base64:'+require('crypto').randomBytes(32).toString('base64'))"`,
    );
    expect(loadConfig({ APP_KEY: nodeKey }).appKey).toHaveLength(32);
  });

  it('the image installs without npm project config npm is dropping, and keeps tsx for admin:create', () => {
    expect(fs.existsSync(path.join(ROOT, '.npmrc'))).toBe(false);
    expect(fs.readFileSync(path.join(ROOT, '.prebuild-installrc'), 'utf8')).toMatch(
      /^buildFromSource=true$/m,
    );
    const dockerfile = fs.readFileSync(path.join(ROOT, 'docker/Dockerfile'), 'utf8');
    expect(dockerfile).toContain('.prebuild-installrc');
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.dependencies.tsx).toBeDefined();
    expect(pkg.scripts['admin:create']).toBe('tsx server/src/cli/admin-create.ts');
    // the image runs the server built by `npm run build` (the one these tests start), not the sources under tsx
    expect(pkg.scripts.build).toContain('npm run build:server');
    // with the options these tests and the bench run it with (SERVER_NODE_OPTIONS), and so does the README's unit
    const command = ['node', ...SERVER_NODE_OPTIONS, 'server/dist/main.js'];
    const cmd = dockerfile.split('\n').filter((line) => line.startsWith('CMD '));
    expect(cmd.map((line) => JSON.parse(line.slice(4)) as unknown)).toEqual([command]);
    const execStart = fs
      .readFileSync(path.join(ROOT, 'README.md'), 'utf8')
      .split('\n')
      .filter((line) => line.trim().startsWith('ExecStart=') && line.includes('main.js'));
    expect(execStart.map((line) => line.trim())).toEqual([`ExecStart=/usr/bin/${command.join(' ')}`]);
  });

  it('runs the app twice behind Caddy, which balances between them and health-checks /readyz (issue 30)', () => {
    const app2 = compose.services.app2 as ComposeService & {
      depends_on?: object;
      healthcheck?: { test: string[] };
    };
    // one definition: the second instance has the first one's settings, volume and networks
    expect(app2).toEqual(app);
    const probe = (app as { healthcheck?: { test: string[] } }).healthcheck!.test.join(' ');
    expect(probe).toContain('/readyz');
    expect(fs.readFileSync(path.join(ROOT, 'docker/Dockerfile'), 'utf8')).toMatch(/HEALTHCHECK.*\/readyz/);
    const caddy = compose.services.caddy as { depends_on: Record<string, { condition: string }> };
    expect(caddy.depends_on).toEqual({
      app: { condition: 'service_healthy' },
      app2: { condition: 'service_healthy' },
    });
    const caddyBinary = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => fs.existsSync(p));
    if (!caddyBinary) {
      console.log('caddy is not installed here: the Caddyfile is not adapted (apt-get install caddy)');
      return;
    }
    // the JSON Caddy itself makes of the Caddyfile, with compose's settings
    const adapted = JSON.parse(
      execFileSync(caddyBinary, ['adapt', '--config', path.join(ROOT, 'docker/Caddyfile')], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: os.tmpdir(), DOMAIN: 'admin.example.com', SITE_SCHEME: 'https' },
      }),
    );
    const found: Record<string, any>[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if ((node as { handler?: string }).handler === 'reverse_proxy')
          found.push(node as Record<string, any>);
        Object.values(node).forEach(walk);
      }
    };
    walk(adapted);
    expect(found).toHaveLength(1);
    const proxy = found[0];
    expect(proxy.upstreams).toEqual([{ dial: 'app:3000' }, { dial: 'app2:3000' }]);
    expect(proxy.health_checks.active).toMatchObject({ uri: '/readyz', interval: 2e9 });
    expect(proxy.health_checks.passive.fail_duration).toBeGreaterThan(0);
    expect(proxy.load_balancing.try_duration).toBeGreaterThan(0);
    // a policy that finds the instance that is up in one pass (round_robin, in Caddy 2.6, may miss it: decision 0015)
    expect(proxy.load_balancing.selection_policy).toEqual({ policy: 'least_conn' });
    // the instances keep answering while /readyz says they stop for longer than Caddy takes to ask
    expect(loadConfig({}).shutdownDrainMs).toBeGreaterThan(proxy.health_checks.active.interval / 1e6);
  });

  it('Caddy compresses the API’s answers, and only them: the app sends its files compressed (issue 25)', () => {
    const caddyfile = fs.readFileSync(path.join(ROOT, 'docker/Caddyfile'), 'utf8').replace(/#.*$/gm, '');
    const api = /^\s*@(\w+)\s+path\s+\/api\/\*\s*$/m.exec(caddyfile);
    expect(api).not.toBeNull();
    expect(caddyfile).toMatch(new RegExp(`^\\s*encode\\s+@${api![1]}\\s+zstd\\s+gzip\\s*$`, 'm'));
    expect(caddyfile.match(/^\s*encode\b/gm)).toHaveLength(1);
  });
});

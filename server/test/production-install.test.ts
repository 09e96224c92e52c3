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
  stop: () => Promise<void>;
}

/** `node --import tsx server/src/main.ts`, as the image's CMD runs it; resolves once it listens. */
function startServer(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: ROOT, env });
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is running at http:\/\/localhost:(\d+)/.exec(output);
      // the lines logged right after listening (the admin hint) come in the same tick or the next
      if (match) setTimeout(() => resolve({ port: Number(match[1]), output: () => output, stop }), 300);
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
  const token = (csrf.body as { token: string }).token;
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

  it('keeps the session cookie to HTTPS: over plain HTTP no session is set', async () => {
    const { login } = await signIn(server!.port, { 'X-Forwarded-For': '203.0.113.78' });
    expect(login.cookies.join()).not.toMatch(/sa_session=/);
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
  });
});

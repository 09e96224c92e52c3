import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { Redis } from 'ioredis';
import knex, { type Knex } from 'knex';
import request from 'supertest';
import { createApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { createDb, migrateLatest } from '../src/db/knex';
import { searchTerms } from '../src/db/search';
import { toDbDateTime } from '../src/lib/clock';
import { configureLogger } from '../src/lib/logger';
import { copyTemplate } from './template-db';

let counter = 0;

/** `TEST_DATABASE_URL=mysql://root@127.0.0.1:3306` runs the suite on MySQL/MariaDB; SQLite otherwise. */
export const onMysql = Boolean(process.env.TEST_DATABASE_URL?.startsWith('mysql://'));
export const onRedis = Boolean(process.env.REDIS_URL);

/**
 * A database of its own for a test: a SQLite file, or a database on the MySQL server. Empty (nothing migrated), or
 * with `migrated` a copy of the run's migrated template (`template-db.ts`) when there is one.
 */
export async function freshDatabaseUrl(
  options: { migrated?: boolean } = {},
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  // unique across test files of one worker too (the module, and so the counter, is loaded anew per file)
  const name = `sa_test_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  if (onMysql) {
    const base = process.env.TEST_DATABASE_URL!.replace(/\/[^/]*$/, '');
    const admin = knex({ client: 'mysql2', connection: { uri: `${base}/` } as Knex.MySql2ConnectionConfig });
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.destroy();
    if (options.migrated) await copyTemplate(`${base}/${name}`);
    return {
      name,
      url: `${base}/${name}`,
      drop: async () => {
        const again = knex({
          client: 'mysql2',
          connection: { uri: `${base}/` } as Knex.MySql2ConnectionConfig,
        });
        await again.raw(`DROP DATABASE IF EXISTS \`${name}\``);
        await again.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sa-test-'));
  const url = `sqlite:${path.join(dir, `${name}.sqlite`)}`;
  if (options.migrated) await copyTemplate(url);
  return {
    name,
    url,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestApp {
  app: ReturnType<typeof createApp>['app'];
  api: ReturnType<typeof createApp>['api'];
  /** the app's after-reply work (mail): `await t.background.flush()` before looking for a mail */
  background: ReturnType<typeof createApp>['background'];
  /** serving or stopping (`lifecycle.stop()`, as SIGTERM does in main.ts) */
  lifecycle: ReturnType<typeof createApp>['lifecycle'];
  /** the mail reminders (main.ts schedules `runIfDue`; a test calls it) */
  reminders: ReturnType<typeof createApp>['reminders'];
  db: Knex;
  config: Config;
  redis?: Redis;
  /** this app's Redis keys begin with it (other test files share the Redis server at the same time) */
  redisPrefix: string;
  /** a second app on the same database and Redis, as after a restart or on another instance */
  restart(): TestApp;
  close(): Promise<void>;
}

export const FIXTURE_DIST = path.join(__dirname, 'fixtures', 'dist');

/** A real app on a fresh database (SQLite file, or a MySQL database of its own) and, when set, the real Redis. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await freshDatabaseUrl({ migrated: true });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // the app's own hashing, as cheap as the factories' (production refuses less than 10)
    BCRYPT_COST: '4',
    DATABASE_URL: database.url,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  configureLogger(config.logLevel, false);
  const db = createDb(config.databaseUrl);
  // nothing to do on a copy of the template: it stays, for a test run without one
  await migrateLatest(db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false }) : undefined;
  const prefix = `satest:${database.name}:`;
  const backgrounds: TestApp['background'][] = [];
  const build = (): TestApp => {
    const { app, api, background, lifecycle, reminders } = createApp({
      config,
      db,
      redis,
      redisPrefix: prefix,
      clientDist: FIXTURE_DIST,
    });
    backgrounds.push(background);
    return {
      app,
      api,
      background,
      lifecycle,
      reminders,
      db,
      config,
      redis,
      redisPrefix: prefix,
      restart: build,
      close,
    };
  };
  async function close(): Promise<void> {
    for (const background of backgrounds) await background.flush();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await db.destroy();
    await database.drop();
  }
  return build();
}

export const STAFF_HOST = 'office.localhost';
export const PORTAL_HOST = 'student.localhost';

/** One answer a `Client` got: what the contract suite holds to the API description (GET /api/openapi.json). */
export interface LoggedResponse {
  method: string;
  /** as requested: path and query */
  url: string;
  status: number;
  /** the Content-Type without parameters */
  type: string;
  body: unknown;
}

/** While `record` is set, every answer any `Client` gets is handed to it. */
export const responseLog: { record: ((response: LoggedResponse) => void) | null } = { record: null };

/** A supertest agent (keeps cookies) that sends one Host header and a CSRF token when it has one. */
export class Client {
  readonly agent: ReturnType<typeof request.agent>;
  token = '';

  constructor(
    app: TestApp['app'],
    readonly host: string = STAFF_HOST,
  ) {
    this.agent = request.agent(app);
  }

  get(url: string) {
    return logged('GET', url, this.agent.get(url).set('Host', this.host));
  }

  send(method: 'post' | 'put' | 'patch' | 'delete', url: string, body?: object) {
    const req = logged(method.toUpperCase(), url, this.agent[method](url).set('Host', this.host));
    if (this.token) req.set('X-CSRF-Token', this.token);
    return body ? req.send(body) : req;
  }

  post(url: string, body?: object) {
    return this.send('post', url, body);
  }
  put(url: string, body?: object) {
    return this.send('put', url, body);
  }
  delete(url: string) {
    return this.send('delete', url);
  }

  async refreshToken(): Promise<string> {
    const res = await this.get('/api/csrf-token').expect(200);
    this.token = res.body.token;
    return this.token;
  }

  /** The session cookie's value as the server last set it. */
  cookie(): string | undefined {
    const jar = (this.agent as any).jar;
    const all = jar.getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false });
    return all.find((c: { name: string }) => c.name === 'sa_session')?.value;
  }

  async login(email: string, password: string) {
    await this.refreshToken();
    const res = await this.post('/api/login', { email, password });
    await this.refreshToken();
    return res;
  }
}

function logged<T extends request.Test>(method: string, url: string, req: T): T {
  if (!responseLog.record) return req;
  req.on('response', (res: request.Response) => {
    responseLog.record?.({ method, url, status: res.status, type: res.type, body: res.body });
  });
  return req;
}

const FAST_COST = 4; // factories only: the app itself hashes with bcrypt cost 12

export async function createRole(
  db: Knex,
  permissions: string[],
  dataScope: 'all' | 'branch' = 'all',
): Promise<number> {
  const now = toDbDateTime();
  const [id] = await db('roles').insert({
    name: `role-${Math.random().toString(36).slice(2, 10)}`,
    data_scope: dataScope,
    permissions: JSON.stringify(permissions),
    created_at: now,
    updated_at: now,
  });
  return Number(id);
}

export async function createBranch(
  db: Knex,
  code = `B${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
): Promise<number> {
  const now = toDbDateTime();
  let company = await db('companies').first('id');
  if (!company) {
    const [cid] = await db('companies').insert({
      code: 'CO',
      name_en: 'Co',
      name_zh: '公司',
      created_at: now,
      updated_at: now,
    });
    company = { id: cid };
  }
  const [id] = await db('branches').insert({
    company_id: company.id,
    code,
    name_en: code,
    name_zh: code,
    created_at: now,
    updated_at: now,
  });
  return Number(id);
}

export interface UserOptions {
  email?: string;
  password?: string;
  permissions?: string[];
  is_admin?: boolean;
  is_active?: boolean;
}

export async function createUser(db: Knex, opts: UserOptions = {}) {
  const now = toDbDateTime();
  const email = opts.email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = opts.password ?? 'Secret123';
  const roleId = await createRole(db, opts.permissions ?? []);
  const [id] = await db('users').insert({
    name: 'Test User',
    email,
    password_hash: await bcrypt.hash(password, FAST_COST),
    role_id: roleId,
    is_admin: opts.is_admin ?? false,
    is_active: opts.is_active ?? true,
    language: 'en',
    created_at: now,
    updated_at: now,
  });
  return { id: Number(id), email, password, roleId };
}

export async function createStudent(db: Knex, opts: { email?: string; password?: string } = {}) {
  const now = toDbDateTime();
  const email = opts.email ?? `student-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = opts.password ?? 'Student123';
  const branchId = await createBranch(db);
  const [id] = await db('students').insert({
    student_no: `S-${Math.random().toString(36).slice(2, 10)}`,
    branch_id: branchId,
    surname_en: 'CHAN',
    given_name_en: 'Siu Ming',
    portal_email: email,
    portal_password_hash: await bcrypt.hash(password, FAST_COST),
    portal_enabled: true,
    created_at: now,
    updated_at: now,
  });
  // as the machinery's writes do: the student is found by a search
  await searchTerms.refreshDeclared(db, 'students', [Number(id)]);
  return { id: Number(id), email, password };
}

/**
 * A signed-in admin client, the commonest starting point. Its password is confirmed, as an admin does before
 * changing the mail, security or storage settings; a test of that confirmation signs in an admin of its own.
 */
export async function signedInAdmin(t: TestApp): Promise<Client> {
  const user = await createUser(t.db, { is_admin: true });
  const client = new Client(t.app);
  const res = await client.login(user.email, user.password);
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const confirmed = await client.post('/api/user/confirm-password', { password: user.password });
  if (confirmed.status !== 200) throw new Error(`admin password confirmation failed: ${confirmed.status}`);
  return client;
}

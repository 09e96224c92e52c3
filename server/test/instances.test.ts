/**
 * Two app instances on one database and one Redis obey a change at once (quality.md 29; decision 0013).
 *
 * 1. Two real instances — `node server/dist/main.js` twice, as two containers run it — on one
 *    MariaDB database and one Redis (MariaDB + Redis only: without Redis one instance serves). A change made
 *    through instance 1 is obeyed by instance 2 at the caller's very next request: an admin demoted, a user
 *    deactivated, a password set by an admin, a role emptied, a permission removed, a user moved to another
 *    branch, a student's portal access turned off, a list's count. Each case is printed. And 50 student creates
 *    at once, split across both, take 50 consecutive numbers (issue 30).
 * 2. Stopping one of two instances under load behind Caddy (issue 30): no request lost, no data lost.
 * 3. Fail closed: an app that cannot reach Redis uses no cached decision until it can again.
 *
 * The processes are started as production starts them (scripts/cluster-processes.ts, which `npm run cluster` uses).
 */
import net from 'node:net';
import { Redis } from 'ioredis';
import knex, { type Knex } from 'knex';
import request from 'supertest';
import {
  caddyBinary,
  freePort,
  startCaddy,
  startInstance,
  type Instance,
  type Proxy,
} from '../../scripts/cluster-processes';
import { createDb } from '../src/db/knex';
import { sha256 } from '../src/lib/crypto';
import { toDbDateTime } from '../src/lib/clock';
import { Browser } from './cluster-browser';
import {
  createBranch,
  createRole,
  createStudent,
  createTestApp,
  createUser,
  freshDatabaseUrl,
  onMysql,
  onRedis,
  PORTAL_HOST,
  STAFF_HOST,
  type TestApp,
} from './harness';

// two child processes start (and run migrations) at once: room on a busy 2-core machine
jest.setTimeout(180_000);

/** One instance as production starts it (main.ts), with a test's settings, answering once /readyz does. */
function testInstance(name: string, env: Record<string, string>): Promise<Instance> {
  return startInstance(name, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    BCRYPT_COST: '4',
    SEED_DEMO: 'false',
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...env,
  });
}

const twoInstances = onMysql && onRedis ? describe : describe.skip;

twoInstances('two instances on one MariaDB and one Redis', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let db: Knex;
  let one: Instance;
  let two: Instance;
  let admin: Browser;
  const prefix = `satest:inst${process.pid}${Date.now().toString(36)}:`;
  const lines: string[] = [];

  /** A signed-in staff member (signed in through instance 1: the session is the instances' shared one). */
  async function staff(permissions: string[], scope: 'all' | 'branch' = 'all', branchId?: number) {
    const user = await createUser(db, { permissions });
    const roleId = await createRole(db, permissions, scope);
    await db('users')
      .where({ id: user.id })
      .update({ role_id: roleId, branch_id: branchId ?? (await createBranch(db)) });
    const browser = new Browser();
    await browser.signIn(one, user.email, user.password);
    return { ...user, roleId, browser };
  }

  /**
   * `probe` on instance 2 answers `before` (twice: its cache is warm), `change` is made on instance 1, and the very
   * next `probe` on instance 2 answers `after`.
   */
  async function obeyed(
    what: string,
    probe: () => Promise<request.Response>,
    change: () => Promise<request.Response>,
    before: number,
    after: number,
  ): Promise<void> {
    expect((await probe()).status).toBe(before);
    expect((await probe()).status).toBe(before);
    const changed = await change();
    expect(changed.status).toBeLessThan(300);
    const next = (await probe()).status;
    lines.push(`  ${what}: on instance 2 ${before} before, ${next} on the very next request`);
    expect(next).toBe(after);
  }

  beforeAll(async () => {
    database = await freshDatabaseUrl({ migrated: true });
    db = createDb(database.url);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: prefix,
    };
    [one, two] = await Promise.all([testInstance('1', env), testInstance('2', env)]);
    const owner = await createUser(db, { is_admin: true });
    await db('users')
      .where({ id: owner.id })
      .update({ branch_id: await createBranch(db) });
    admin = new Browser();
    await admin.signIn(one, owner.email, owner.password);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    if (lines.length) console.log(`two instances, one database and Redis:\n${lines.join('\n')}`);
    const redis = new Redis(process.env.REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await db?.destroy();
    await database?.drop();
  });

  it('serves a session made on one instance on the other', async () => {
    const res = await admin.send(two, 'get', '/api/user');
    expect(res.status).toBe(200);
    lines.push('  a session signed in on instance 1 is served by instance 2');
  });

  it('an admin demoted on instance 1 is no admin on instance 2 at the next request', async () => {
    const demoted = await createUser(db, { is_admin: true });
    await db('users')
      .where({ id: demoted.id })
      .update({ branch_id: await createBranch(db) });
    const browser = new Browser();
    await browser.signIn(one, demoted.email, demoted.password);
    await obeyed(
      'admin demoted',
      () => browser.send(two, 'get', '/api/settings/smtp'),
      () => admin.send(one, 'put', `/api/users/${demoted.id}`, { is_admin: false }),
      200,
      403,
    );
  });

  it('a deactivated user is signed out on instance 2 at the next request', async () => {
    const user = await staff(['companies.view']);
    await obeyed(
      'user deactivated',
      () => user.browser.send(two, 'get', '/api/companies'),
      () => admin.send(one, 'put', `/api/users/${user.id}`, { is_active: false }),
      200,
      401,
    );
  });

  it('a password set by an admin ends the old session on instance 2 at the next request', async () => {
    const user = await staff(['companies.view']);
    await obeyed(
      'password set by an admin',
      () => user.browser.send(two, 'get', '/api/companies'),
      () =>
        admin.send(one, 'put', `/api/users/${user.id}`, {
          password: 'Another-pass9',
          password_confirmation: 'Another-pass9',
        }),
      200,
      401,
    );
  });

  it('a role emptied of permissions is obeyed on instance 2 at the next request', async () => {
    const user = await staff(['companies.view']);
    await obeyed(
      'role emptied',
      () => user.browser.send(two, 'get', '/api/companies'),
      () => admin.send(one, 'put', `/api/roles/${user.roleId}`, { permissions: [] }),
      200,
      403,
    );
  });

  it('a permission removed from a role is obeyed on instance 2, the others kept', async () => {
    const user = await staff(['companies.view', 'branches.view']);
    await obeyed(
      'permission removed',
      () => user.browser.send(two, 'get', '/api/companies'),
      () => admin.send(one, 'put', `/api/roles/${user.roleId}`, { permissions: ['branches.view'] }),
      200,
      403,
    );
    expect((await user.browser.send(two, 'get', '/api/branches')).status).toBe(200);
  });

  it('a user moved to another branch no longer sees the old branch’s student on instance 2', async () => {
    const home = await createBranch(db);
    const elsewhere = await createBranch(db);
    const user = await staff(['students.view'], 'branch', home);
    const now = toDbDateTime();
    const [studentId] = await db('students').insert({
      student_no: `TWIN-${Date.now()}`,
      branch_id: home,
      surname_en: 'LEE',
      given_name_en: 'Twin',
      created_at: now,
      updated_at: now,
    });
    await obeyed(
      'user moved to another branch',
      () => user.browser.send(two, 'get', `/api/students/${studentId}`),
      () => admin.send(one, 'put', `/api/users/${user.id}`, { branch_id: elsewhere }),
      200,
      404,
    );
  });

  it('a student whose portal access is turned off cannot write on instance 2', async () => {
    const student = await createStudent(db);
    const portal = new Browser(PORTAL_HOST);
    await portal.signIn(one, student.email, student.password);
    let n = 0;
    const write = () =>
      portal.send(two, 'post', '/api/family', { relationship: 'mother', name_en: `Mum ${++n}` });
    expect((await write()).status).toBe(201);
    expect((await write()).status).toBe(201);
    const off = await admin.send(one, 'put', `/api/students/${student.id}`, { portal_enabled: false });
    expect(off.status).toBe(200);
    const next = await write();
    lines.push(
      `  portal access turned off: a write on instance 2 201 before, ${next.status} (${next.body.code}) on the very next request`,
    );
    // signed out: the session is gone, so the write fails its CSRF check (403) before anything else
    expect([401, 403]).toContain(next.status);
    expect(
      Number((await db('student_family_members').where({ student_id: student.id }).count({ n: '*' }))[0].n),
    ).toBe(2);
    expect((await portal.send(two, 'get', '/api/student')).status).toBe(401);
  });

  it('50 parallel student creates split across both instances give 50 consecutive numbers', async () => {
    const code = `N${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const branchId = await createBranch(db, code);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.send(i % 2 ? two : one, 'post', '/api/students', {
          surname_en: 'TWIN',
          given_name_en: `Number ${i}`,
          branch_id: branchId,
        }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(201));
    const numbers = answers.map((res) => String(res.body.student_no)).sort();
    const sequence = numbers.map((n) => Number(/(\d+)$/.exec(n)![1]));
    lines.push(
      `  50 parallel student creates, 25 on each instance: ${new Set(numbers).size} numbers, ` +
        `${numbers[0]} … ${numbers[49]}, consecutive: ${sequence.every((n, i) => n === i + 1)}`,
    );
    expect(new Set(numbers).size).toBe(50);
    expect(sequence).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('a list’s count on instance 2 includes a record created on instance 1 at once', async () => {
    const tag = `Twin${Date.now().toString(36)}`;
    for (let i = 1; i <= 3; i++) {
      const res = await admin.send(one, 'post', '/api/companies', {
        code: `${tag}${i}`.toUpperCase(),
        name_en: `${tag} ${i}`,
        name_zh: '雙',
      });
      expect(res.status).toBe(201);
    }
    const count = async () =>
      (await admin.send(two, 'get', `/api/companies?per_page=2&q=${tag}`)).body.total as number;
    expect(await count()).toBe(3);
    expect(await count()).toBe(3);
    await admin.send(one, 'post', '/api/companies', {
      code: `${tag}4`.toUpperCase(),
      name_en: `${tag} 4`,
      name_zh: '雙',
    });
    const next = await count();
    lines.push(`  a list's count: 3 on instance 2 before, ${next} on the very next request after a 4th`);
    expect(next).toBe(4);
  });

  it('a name search on instance 2 finds a student created on instance 1 at once (each word’s records kept)', async () => {
    const word = `Kept${Date.now().toString(36)}`;
    const branchId = await createBranch(db, `K${Date.now().toString(36).slice(-5).toUpperCase()}`);
    const search = async () =>
      ((await admin.send(two, 'get', `/api/students?q=${word}%20first`)).body.total as number) ?? -1;
    const create = (given: string) =>
      admin.send(one, 'post', '/api/students', {
        surname_en: word,
        given_name_en: given,
        branch_id: branchId,
      });
    expect((await create('First One')).status).toBe(201);
    // asked twice: the second is answered from the words' records kept on instance 2
    expect(await search()).toBe(1);
    expect(await search()).toBe(1);
    expect((await create('First Two')).status).toBe(201);
    const next = await search();
    lines.push(
      `  a name search: 1 student on instance 2 before, ${next} on the very next request after a 2nd`,
    );
    expect(next).toBe(2);
  });

  it('keeps an idle connection open longer than a client does: the next request on it is answered', async () => {
    // Node's own default closed an idle connection after 5 s, and a request sent on it at that moment was lost
    // to a client that does not retry (a journey's API call failed with ECONNRESET)
    const socket = net.connect(one.port, '127.0.0.1');
    let closed = false;
    socket.on('close', () => (closed = true));
    const ask = () =>
      new Promise<string>((resolve, reject) => {
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString('latin1');
          if (/\r\n\r\n[\s\S]*\}/.test(text)) {
            socket.off('data', onData);
            resolve(text);
          }
        };
        socket.on('data', onData);
        socket.once('error', reject);
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      });
    expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    const idleMs = 6_000;
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const wasOpen = !closed;
    const second = wasOpen ? await ask() : '';
    socket.destroy();
    lines.push(
      `  an idle connection after ${idleMs / 1000} s: ${wasOpen ? 'still open, answered ' + second.slice(9, 12) : 'closed by the app'}`,
    );
    expect(wasOpen).toBe(true);
    expect(second).toMatch(/^HTTP\/1\.1 200/);
  });
});

/**
 * Stopping one of two instances under load (issue 30, "Done when"): Caddy (Debian's, with docker/Caddyfile) in front
 * of two instances on one MariaDB and Redis; 20 signed-in users each send requests one after another for 30 s —
 * every other one a create — and 10 s in, instance 2 is told to stop (SIGTERM, as `docker compose stop` does). Its
 * /readyz answers 503 at once and Caddy's health check takes it out; it keeps answering what it gets for its drain,
 * then closes. No request may fail, and every create answered 201 is a row (none lost, none twice). Printed as
 * requests sent / answered / failed. Without caddy on the machine the test is skipped, saying so.
 */
const underLoad = onMysql && onRedis ? describe : describe.skip;

underLoad('stopping one of two instances under load, behind Caddy', () => {
  const caddy = caddyBinary();
  const USERS = 20;
  const SECONDS = 30;
  const STOP_AFTER_SECONDS = 10;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let db: Knex;
  let one: Instance;
  let two: Instance;
  let proxy: Proxy;
  const prefix = `satest:load${process.pid}${Date.now().toString(36)}:`;

  beforeAll(async () => {
    if (!caddy) {
      console.log('caddy is not installed here (apt-get install caddy): the stop-under-load test is skipped');
      return;
    }
    database = await freshDatabaseUrl({ migrated: true });
    db = createDb(database.url);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: prefix,
      // the production default: Caddy asks /readyz every 2 s
      SHUTDOWN_DRAIN_SECONDS: '5',
    };
    [one, two] = await Promise.all([testInstance('1', env), testInstance('2', env)]);
    proxy = await startCaddy([`127.0.0.1:${one.port}`, `127.0.0.1:${two.port}`]);
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop(), proxy?.stop()]);
    const redis = new Redis(process.env.REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await db?.destroy();
    await database?.drop();
  });

  (caddy ? it : it.skip)(
    `${USERS} users for ${SECONDS} s lose no request and no data when one instance stops`,
    async () => {
      const branchId = await createBranch(db);
      const users = await Promise.all(
        Array.from({ length: USERS }, async () => {
          const user = await createUser(db, { permissions: ['companies.view', 'companies.create'] });
          await db('users').where({ id: user.id }).update({ branch_id: branchId });
          const browser = new Browser('localhost');
          await browser.signIn(proxy, user.email, user.password);
          return browser;
        }),
      );
      const tag = `L${Date.now().toString(36).slice(-4).toUpperCase()}`;
      const tally = { sent: 0, answered: 0, failed: 0, created: 0 };
      const failures: string[] = [];
      const until = Date.now() + SECONDS * 1000;
      let stopped: Promise<void> | null = null;
      const timer = setTimeout(() => {
        stopped = two.stop('SIGTERM');
      }, STOP_AFTER_SECONDS * 1000);
      await Promise.all(
        users.map(async (browser, u) => {
          for (let n = 1; Date.now() < until; n++) {
            const create = n % 2 === 1;
            tally.sent++;
            try {
              const res = create
                ? await browser.send(proxy, 'post', '/api/companies', {
                    code: `${tag}${u}X${n}`,
                    name_en: `Load ${u} ${n}`,
                    name_zh: '負載',
                  })
                : await browser.send(proxy, 'get', `/api/companies?per_page=5&q=${tag}`);
              if (res.status === (create ? 201 : 200)) {
                tally.answered++;
                if (create) tally.created++;
              } else {
                tally.failed++;
                failures.push(`${create ? 'POST' : 'GET'} ${res.status} ${JSON.stringify(res.body)}`);
              }
            } catch (err) {
              tally.failed++;
              failures.push(String((err as Error)?.message ?? err));
            }
          }
        }),
      );
      clearTimeout(timer);
      await stopped;
      const rows = Number(
        (await db('companies').where('code', 'like', `${tag}%`).count({ n: '*' }).first())?.n,
      );
      console.log(
        `stop under load: ${USERS} users for ${SECONDS} s through Caddy, instance 2 stopped (SIGTERM) at ` +
          `${STOP_AFTER_SECONDS} s: ${tally.sent} requests sent, ${tally.answered} answered, ${tally.failed} failed; ` +
          `${tally.created} creates answered 201, ${rows} rows in the database` +
          (failures.length ? `\n  ${failures.slice(0, 10).join('\n  ')}` : ''),
      );
      if (failures.length) {
        // what Caddy said about its upstreams meanwhile: which instance it took out, and why
        const said = proxy
          .output()
          .split('\n')
          .filter((line) => /"level":"(warn|error)"|unhealthy|health/i.test(line));
        console.log(`Caddy's warnings and errors:\n  ${said.slice(-40).join('\n  ')}`);
      }
      expect(two.child.exitCode).toBe(0);
      expect(tally.failed).toBe(0);
      expect(tally.answered).toBe(tally.sent);
      expect(rows).toBe(tally.created);
      // the other instance served on alone
      expect(one.child.exitCode).toBeNull();
    },
    180_000,
  );
});

/** A TCP relay to Redis that a test can cut and mend: the app's connection to Redis lost and found again. */
async function redisRelay(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const open = () =>
    new Promise<void>((resolve) => {
      if (server?.listening) return resolve();
      server = net.createServer((inbound) => {
        const outbound = net.connect(target.port, target.host);
        sockets.add(inbound).add(outbound);
        inbound.pipe(outbound).pipe(inbound);
        const drop = () => {
          inbound.destroy();
          outbound.destroy();
        };
        inbound.on('error', drop).on('close', drop);
        outbound.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await open();
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        server!.close(() => resolve());
        server = null;
      }),
    mend: open,
  };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const withRedis = onRedis ? describe : describe.skip;

withRedis('an instance that cannot reach Redis uses no cached decision', () => {
  let t: TestApp;
  let relay: Awaited<ReturnType<typeof redisRelay>>;
  /** another instance's writes: a connection of its own, which this process's caches do not watch */
  let elsewhere: Knex;

  beforeAll(async () => {
    const target = new URL(process.env.REDIS_URL!);
    relay = await redisRelay({ host: target.hostname, port: Number(target.port || 6379) });
    t = await createTestApp({ REDIS_URL: relay.url });
    const connection = t.config.databaseUrl.startsWith('mysql://')
      ? { client: 'mysql2', connection: { uri: t.config.databaseUrl } }
      : {
          client: 'better-sqlite3',
          connection: { filename: t.config.databaseUrl.slice('sqlite:'.length) },
          useNullAsDefault: true,
        };
    elsewhere = knex(connection as Knex.Config);
  });

  afterAll(async () => {
    await elsewhere.destroy();
    await relay.mend();
    await t.close();
    await relay.cut();
  });

  it('reads the database while Redis is away, and obeys the counters again once it is back', async () => {
    const user = await createUser(t.db, { permissions: ['companies.view'] });
    const plain = `twin-${Date.now()}`;
    const now = toDbDateTime();
    await t.db('api_tokens').insert({
      user_id: user.id,
      name: 'twin',
      token_hash: sha256(plain),
      abilities: JSON.stringify(['companies.view']),
      created_at: now,
      updated_at: now,
    });
    const get = () =>
      request(t.app).get('/api/companies').set('Host', STAFF_HOST).set('Authorization', `Bearer ${plain}`);
    const setPermissions = (permissions: string[]) =>
      elsewhere('roles')
        .where({ id: user.roleId })
        .update({ permissions: JSON.stringify(permissions) });

    await get().expect(200);
    await get().expect(200); // the user and role are cached now

    // Redis goes away; another instance empties the role, and cannot announce it
    await relay.cut();
    await until('the app to see Redis gone', () => t.redis!.status !== 'ready');
    await setPermissions([]);
    const whileAway = (await get()).status;
    expect(whileAway).toBe(403);

    // Redis is back: the counters are read again, and the caches used again
    await relay.mend();
    await until('the app to reconnect', () => t.redis!.status === 'ready');
    await setPermissions(['companies.view']);
    await get().expect(200);
    await get().expect(200);
    // another instance's announced change is obeyed at the next request
    await setPermissions([]);
    await t.redis!.hincrby(`${t.redisPrefix}changes`, 'roles', 1);
    const announced = (await get()).status;
    expect(announced).toBe(403);
    console.log(
      `Redis lost: a role emptied elsewhere answered ${whileAway} at the next request (cache not used); ` +
        `after reconnecting, an announced change answered ${announced} at the next request`,
    );
  });
});

import { toDbDateTime } from '../../src/lib/clock';
import {
  Client,
  createRole,
  createTestApp,
  createUser,
  onRedis,
  signedInAdmin,
  type TestApp,
} from '../harness';

/**
 * Authentication costs at most one SQL round trip per request (none with Redis sessions; the session row
 * itself with sessions kept in the database), and the in-process cache behind it never outlives a change:
 * a role's permissions, the active flag, the admin flag and a revoked browser session apply on the very next
 * request, whether the change came through the API or was written to the database directly.
 */

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  await admin.post('/api/companies', { code: 'RT1', name_en: 'Round Trip', name_zh: '往返' }).expect(201);
});

afterAll(async () => {
  await t.close();
});

/** The SQL statements one request runs, in order. */
async function queriesOf(send: () => PromiseLike<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  t.db.on('query', listener);
  try {
    await send();
  } finally {
    t.db.removeListener('query', listener);
  }
  return seen;
}

/** The statements run before the list handler's first query on `companies`. */
function beforeHandler(sql: string[]): string[] {
  const first = sql.findIndex((s) => /\bcompanies\b/i.test(s));
  expect(first).toBeGreaterThanOrEqual(0);
  return sql.slice(0, first);
}

async function staffWith(permissions: string[]): Promise<{ client: Client; id: number; roleId: number }> {
  const user = await createUser(t.db, { permissions });
  const client = new Client(t.app);
  expect((await client.login(user.email, user.password)).status).toBe(200);
  return { client, id: user.id, roleId: user.roleId };
}

describe('authentication in one round trip', () => {
  it('reads at most the session row before the handler of GET /api/companies, once warm', async () => {
    const { client } = await staffWith(['companies.view']);
    await client.get('/api/companies').expect(200); // warms the cache
    for (let i = 0; i < 3; i++) {
      const sql = await queriesOf(() => client.get('/api/companies').expect(200));
      const auth = beforeHandler(sql);
      expect(auth.length).toBeLessThanOrEqual(1);
      // with Redis sessions nothing at all; otherwise only the session store's own row
      if (onRedis) expect(auth).toEqual([]);
      else auth.forEach((s) => expect(s).toMatch(/\bsessions\b/));
    }
  });

  it('does the same for an admin, whose 2FA requirement is a cached setting', async () => {
    await admin.get('/api/companies').expect(200);
    const sql = await queriesOf(() => admin.get('/api/companies').expect(200));
    expect(beforeHandler(sql).length).toBeLessThanOrEqual(1);
  });
});

describe('the cache never outlives a change', () => {
  it('applies a role permission change made through the API on the very next request', async () => {
    const { client, roleId } = await staffWith(['companies.view']);
    await client.get('/api/companies').expect(200);
    await client.get('/api/companies').expect(200);
    await admin.put(`/api/roles/${roleId}`, { permissions: ['users.view'] }).expect(200);
    expect((await client.get('/api/companies')).status).toBe(403);
    await admin.put(`/api/roles/${roleId}`, { permissions: ['companies.view'] }).expect(200);
    await client.get('/api/companies').expect(200);
  });

  it('applies a deactivation made through the API on the very next request', async () => {
    const { client, id } = await staffWith(['companies.view']);
    await client.get('/api/companies').expect(200);
    await client.get('/api/companies').expect(200);
    await admin.put(`/api/users/${id}`, { is_active: false }).expect(200);
    expect((await client.get('/api/companies')).status).toBe(401);
  });

  it('applies writes made straight to the database: role, admin flag, active flag, session row', async () => {
    const { client, id, roleId } = await staffWith(['companies.view']);
    await client.get('/api/companies').expect(200);
    await client.get('/api/companies').expect(200);

    await t
      .db('roles')
      .where({ id: roleId })
      .update({ permissions: JSON.stringify([]) });
    expect((await client.get('/api/companies')).status).toBe(403);

    await t.db('users').where({ id }).update({ is_admin: true });
    await client.get('/api/companies').expect(200);
    await t.db('users').where({ id }).update({ is_admin: false });
    expect((await client.get('/api/companies')).status).toBe(403);

    const other = await createRole(t.db, ['companies.view']);
    await t.db('users').where({ id }).update({ role_id: other });
    await client.get('/api/companies').expect(200);

    // a change inside a transaction applies once it has committed
    await t.db.transaction(async (trx) => {
      await trx('users').where({ id }).update({ is_active: false });
    });
    expect((await client.get('/api/companies')).status).toBe(401);
  });

  it('ends a session whose browser-session row is removed, on the next request', async () => {
    const { client, id } = await staffWith(['companies.view']);
    await client.get('/api/companies').expect(200);
    await client.get('/api/companies').expect(200);
    await t.db('user_sessions').where({ user_id: id }).delete();
    expect((await client.get('/api/companies')).status).toBe(401);
  });

  it('applies the admins’ "require 2FA" setting on the next request', async () => {
    const { client } = await staffWith(['companies.view']);
    await client.get('/api/companies').expect(200);
    const now = toDbDateTime();
    await t
      .db('settings')
      .insert({ key: 'require_two_factor', value: 'true', created_at: now, updated_at: now });
    try {
      const res = await client.get('/api/companies');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('two_factor_required');
    } finally {
      await t.db('settings').where({ key: 'require_two_factor' }).delete();
    }
    await client.get('/api/companies').expect(200);
  });
});

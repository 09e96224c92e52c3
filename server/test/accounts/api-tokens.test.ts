import request from 'supertest';
import { clock } from '../../src/lib/clock';
import { sha256 } from '../../src/lib/crypto';
import {
  Client,
  STAFF_HOST,
  createBranch,
  createRole,
  createTestApp,
  createUser,
  type TestApp,
} from '../harness';
import { auditRows, confirmPassword, signedIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => clock.reset());

const bearer = (token: string) => ({
  get: (url: string) =>
    request(t.app).get(url).set('Host', STAFF_HOST).set('Authorization', `Bearer ${token}`),
  post: (url: string, body: object) =>
    request(t.app).post(url).set('Host', STAFF_HOST).set('Authorization', `Bearer ${token}`).send(body),
});

async function tokenFor(client: Client, password: string, abilities: string[], extra: object = {}) {
  await confirmPassword(client, password);
  const res = await client.post('/api/user/api-tokens', { name: 'script', abilities, ...extra });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { token: string; item: { id: number } };
}

describe('API tokens', () => {
  it('shows the token once and keeps only its SHA-256; creation needs a password confirmation', async () => {
    const { user, client } = await signedIn(t, { permissions: ['settings.view', 'settings.update'] });
    expect((await client.post('/api/user/api-tokens', { name: 'x', abilities: [] })).status).toBe(423);
    const created = await tokenFor(client, user.password, ['settings.view']);
    expect(created.token).toMatch(/^sa_/);
    const row = await t.db('api_tokens').where({ id: created.item.id }).first();
    expect(row.token_hash).toBe(sha256(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const list = await client.get('/api/user/api-tokens').expect(200);
    expect(list.body.items[0]).toMatchObject({
      id: created.item.id,
      name: 'script',
      abilities: ['settings.view'],
      last_used_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    expect(list.body.available_abilities).toEqual(['settings.view', 'settings.update']);
    const audit = await auditRows(t, { entity: 'api_token', entity_id: created.item.id });
    expect(String(audit[0].changes)).not.toContain(created.token);
  });

  it('refuses abilities the user does not hold or that do not exist', async () => {
    const { user, client } = await signedIn(t, { permissions: ['settings.view'] });
    await confirmPassword(client, user.password);
    const more = await client.post('/api/user/api-tokens', { name: 'x', abilities: ['users.delete'] });
    expect(more.status).toBe(422);
    expect(more.body.errors.abilities).toBeDefined();
    const unknown = await client.post('/api/user/api-tokens', { name: 'x', abilities: ['root.all'] });
    expect(unknown.status).toBe(422);
  });

  it('authenticates by abilities ∩ permissions: a missing ability is 403, no/expired/revoked token 401', async () => {
    const { user, client } = await signedIn(t, { permissions: ['settings.view', 'users.view'] });
    const { token, item } = await tokenFor(client, user.password, ['settings.view']);
    await bearer(token).get('/api/holidays').expect(200);
    expect((await bearer(token).get('/api/users')).status).toBe(403);
    expect((await bearer('sa_not-a-token').get('/api/holidays')).status).toBe(401);
    expect((await request(t.app).get('/api/holidays').set('Host', STAFF_HOST)).status).toBe(401);
    const listed = await client.get('/api/user/api-tokens').expect(200);
    expect(listed.body.items[0].last_used_at).not.toBeNull();

    // abilities can be edited
    await client
      .put(`/api/user/api-tokens/${item.id}`, { abilities: ['settings.view', 'users.view'] })
      .expect(200);
    await bearer(token).get('/api/users').expect(200);
    // the role losing a permission takes it from the token too: a token never widens the role
    await t
      .db('roles')
      .where({ id: user.roleId })
      .update({ permissions: JSON.stringify(['settings.view']) });
    expect((await bearer(token).get('/api/users')).status).toBe(403);

    await client.delete(`/api/user/api-tokens/${item.id}`).expect(204);
    expect((await bearer(token).get('/api/holidays')).status).toBe(401);
  });

  it('expires', async () => {
    const { user, client } = await signedIn(t, { permissions: ['settings.view'] });
    const expires = new Date(clock.now() + 60 * 60_000).toISOString();
    const { token } = await tokenFor(client, user.password, ['settings.view'], { expires_at: expires });
    await bearer(token).get('/api/holidays').expect(200);
    clock.advance(2 * 60 * 60_000);
    expect((await bearer(token).get('/api/holidays')).status).toBe(401);
    clock.reset();
    await confirmPassword(client, user.password);
    const past = await client.post('/api/user/api-tokens', {
      name: 'old',
      abilities: [],
      expires_at: new Date(clock.now() - 1000).toISOString(),
    });
    expect(past.status).toBe(422);
    expect(past.body.errors.expires_at).toBeDefined();
  });

  it('ignores cookies on bearer requests, needs no CSRF token, and cannot manage the account', async () => {
    const { user, client } = await signedIn(t, { permissions: ['settings.view', 'settings.create'] });
    const { token } = await tokenFor(client, user.password, ['settings.view', 'settings.create']);
    const created = await bearer(token).post('/api/holidays', {
      date: '2032-05-01',
      name_en: 'Labour Day',
      name_zh: '勞動節',
    });
    expect(created.status).toBe(201);
    // an admin's session cookie sent along does not lend the token its rights
    const admin = await signedIn(t, { is_admin: true });
    const mixed = await admin.client.agent
      .get('/api/users')
      .set('Host', STAFF_HOST)
      .set('Authorization', `Bearer ${token}`);
    expect(mixed.status).toBe(403);
    const bad = await admin.client.agent
      .get('/api/users')
      .set('Host', STAFF_HOST)
      .set('Authorization', 'Bearer nope');
    expect(bad.status).toBe(401);
    // the account's own routes need a browser session
    expect((await bearer(token).get('/api/user/api-tokens')).status).toBe(403);
    expect((await bearer(token).get('/api/user/profile')).status).toBe(403);
  });

  it('keeps an admin’s token to its abilities, and a branch-scoped owner’s token to the branch', async () => {
    const { user, client } = await signedIn(t, { is_admin: true });
    const { token } = await tokenFor(client, user.password, ['users.view']);
    await bearer(token).get('/api/users').expect(200);
    expect((await bearer(token).get('/api/roles')).status).toBe(403);

    const mine = await createBranch(t.db);
    const roleId = await createRole(t.db, ['users.view'], 'branch');
    const scoped = await createUser(t.db);
    await t.db('users').where({ id: scoped.id }).update({ role_id: roleId, branch_id: mine });
    const c = new Client(t.app);
    await c.login(scoped.email, scoped.password);
    const own = await tokenFor(c, scoped.password, ['users.view']);
    const list = await bearer(own.token).get('/api/users?per_page=100').expect(200);
    expect(list.body.items.every((u: { branch_id: number }) => u.branch_id === mine)).toBe(true);
  });
});

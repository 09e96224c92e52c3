import bcrypt from 'bcrypt';
import { MESSAGES } from '../../../shared/errors';
import { FIELD_MESSAGES } from '../../../shared/messages';
import { PERMISSIONS } from '../../../shared/permissions';
import { toDbDateTime } from '../../src/lib/clock';
import { parseCsv } from '../../src/modules/exports/csv';
import {
  Client,
  createBranch,
  createRole,
  createTestApp,
  createUser,
  signedInAdmin,
  type TestApp,
} from '../harness';
import { auditRows, signedIn } from './helpers';

let t: TestApp;
let admin: Client;
/** every new account has a role and a branch */
let defaults: Record<string, unknown> = {};
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  defaults = { role_id: await createRole(t.db, []), branch_id: await createBranch(t.db) };
});
afterAll(() => t.close());

const newUser = (extra: Record<string, unknown> = {}) => ({
  name: 'Wong Ka Yan',
  email: `kayan-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'Passw0rdOK',
  password_confirmation: 'Passw0rdOK',
  language: 'en',
  ...defaults,
  ...extra,
});

describe('users resource', () => {
  it('creates a user with a bcrypt (cost 12) hash and never shows the hash or 2FA secrets', async () => {
    const roleId = await createRole(t.db, ['students.view']);
    const branchId = await createBranch(t.db);
    const res = await admin.post(
      '/api/users',
      newUser({ role_id: roleId, branch_id: branchId, is_admin: false }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      role_id: roleId,
      branch_id: branchId,
      is_admin: false,
      is_active: true,
    });
    for (const hidden of [
      'password',
      'password_hash',
      'two_factor_secret',
      'two_factor_recovery_codes',
      'password_confirmation',
    ]) {
      expect(res.body).not.toHaveProperty(hidden);
    }
    expect(res.body).not.toHaveProperty('is_admin_notice');
    const row = await t.db('users').where({ id: res.body.id }).first();
    // the app's configured cost (12 by default, at least 10 in production; 4 in this suite)
    expect(row.password_hash.startsWith(`$2b$${String(t.config.bcryptCost).padStart(2, '0')}$`)).toBe(true);
    expect(await bcrypt.compare('Passw0rdOK', row.password_hash)).toBe(true);
    const list = await admin.get('/api/users').expect(200);
    for (const item of list.body.items) expect(item).not.toHaveProperty('password_hash');
    const audit = await auditRows(t, { entity: 'user', entity_id: res.body.id, action: 'create' });
    expect(audit).toHaveLength(1);
    expect(String(audit[0].changes)).not.toMatch(/Passw0rdOK|\$2b\$/);
  });

  it('applies the password rule, the email message, uniqueness and strict bodies', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ password: 'Sh0rt', password_confirmation: 'Sh0rt' }, 'password'],
      [{ password: 'alllower1', password_confirmation: 'alllower1' }, 'password'],
      [{ password: 'ALLUPPER1', password_confirmation: 'ALLUPPER1' }, 'password'],
      [{ password: 'NoDigitsHere', password_confirmation: 'NoDigitsHere' }, 'password'],
      [{ password_confirmation: 'Different1' }, 'password_confirmation'],
      [{ email: 'not-an-email' }, 'email'],
      [{ is_superuser: true }, 'is_superuser'],
      [{ language: 'fr' }, 'language'],
    ];
    for (const [patch, field] of cases) {
      const res = await admin.post('/api/users', newUser(patch));
      expect({ patch, status: res.status, fields: Object.keys(res.body.errors ?? {}) }).toEqual({
        patch,
        status: 422,
        fields: expect.arrayContaining([field]),
      });
    }
    const bad = await admin.post('/api/users', newUser({ email: 'nope' }));
    expect(bad.body.errors.email).toEqual([MESSAGES.invalidEmail]);
    const first = await admin.post('/api/users', newUser({ email: 'dup@example.com' })).expect(201);
    const dup = await admin.post('/api/users', newUser({ email: 'DUP@example.com' }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors.email).toEqual([MESSAGES.duplicate]);
    expect(first.body.email).toBe('dup@example.com');
  });

  it('refuses a password over 72 bytes instead of truncating it', async () => {
    const long = `Aa1${'é'.repeat(35)}`; // 3 + 70 bytes
    const res = await admin.post('/api/users', newUser({ password: long, password_confirmation: long }));
    expect(res.status).toBe(422);
    expect(res.body.errors.password.join(' ')).toMatch(/72 bytes/);
    const fits = `Aa1${'x'.repeat(69)}`;
    await admin.post('/api/users', newUser({ password: fits, password_confirmation: fits })).expect(201);
  });

  it('ends every session and API token of a user who is deactivated, at once', async () => {
    const { user, client } = await signedIn(t, { permissions: ['students.view'] });
    await client.get('/api/user').expect(200);
    const now = toDbDateTime();
    await t.db('api_tokens').insert({
      user_id: user.id,
      name: 'cli',
      token_hash: 'a'.repeat(64),
      abilities: '[]',
      created_at: now,
      updated_at: now,
    });
    await admin.put(`/api/users/${user.id}`, { is_active: false }).expect(200);
    expect((await client.get('/api/user')).status).toBe(401);
    expect(await t.db('user_sessions').where({ user_id: user.id }).first()).toBeUndefined();
    expect(await t.db('api_tokens').where({ user_id: user.id }).first()).toBeUndefined();
  });

  it('ends the sessions and API tokens of a deleted user', async () => {
    const { user, client } = await signedIn(t);
    const now = toDbDateTime();
    await t.db('api_tokens').insert({
      user_id: user.id,
      name: 'cli',
      token_hash: 'b'.repeat(64),
      abilities: '[]',
      created_at: now,
      updated_at: now,
    });
    await admin.delete(`/api/users/${user.id}`).expect(204);
    expect(await t.db('api_tokens').where({ user_id: user.id }).first()).toBeUndefined();
    expect((await client.get('/api/user')).status).toBe(401);
    expect(await t.db('user_sessions').where({ user_id: user.id }).first()).toBeUndefined();
  });

  it('applies a change of the admin flag or the role on the account’s very next request', async () => {
    const { user, client } = await signedIn(t, { permissions: [] });
    expect((await client.get('/api/users')).status).toBe(403);
    await admin.put(`/api/users/${user.id}`, { is_admin: true }).expect(200);
    await client.get('/api/users').expect(200);
    // a demoted admin keeps nothing of it in its live session, and cannot promote itself again
    await admin.put(`/api/users/${user.id}`, { is_admin: false }).expect(200);
    expect((await client.get('/api/users')).status).toBe(403);
    expect((await client.put(`/api/users/${user.id}`, { is_admin: true })).status).toBe(403);
    const viewer = await createRole(t.db, ['users.view']);
    await admin.put(`/api/users/${user.id}`, { role_id: viewer }).expect(200);
    await client.get('/api/users').expect(200);
    const row = await t.db('users').where({ id: user.id }).first();
    expect(Boolean(row.is_admin)).toBe(false);
  });

  it('does not let a non-admin grant admin or a role with permissions it does not hold', async () => {
    const { client } = await signedIn(t, { permissions: ['users.view', 'users.create', 'users.update'] });
    const makeAdmin = await client.post('/api/users', newUser({ is_admin: true }));
    expect(makeAdmin.status).toBe(403);
    expect(makeAdmin.body.code).toBe('insufficient_rights');
    expect(makeAdmin.body.errors.is_admin).toEqual([FIELD_MESSAGES.adminOnlyMakeAdmin]);
    const strongRole = await createRole(t.db, ['orders.void']);
    const res = await client.post('/api/users', newUser({ role_id: strongRole }));
    expect(res.status).toBe(422);
    expect(res.body.errors.role_id[0]).toMatch(/orders\.void/);
    const weakRole = await createRole(t.db, ['users.view']);
    await client.post('/api/users', newUser({ role_id: weakRole })).expect(201);
  });

  it('lets a branch-scoped role see only its own branch’s users (404 for the others)', async () => {
    const mine = await createBranch(t.db);
    const theirs = await createBranch(t.db);
    const roleId = await createRole(t.db, ['users.view'], 'branch');
    const scoped = await createUser(t.db, { permissions: [] });
    await t.db('users').where({ id: scoped.id }).update({ role_id: roleId, branch_id: mine });
    const other = await admin.post('/api/users', newUser({ branch_id: theirs })).expect(201);
    const c = new Client(t.app);
    await c.login(scoped.email, scoped.password);
    const list = await c.get('/api/users?per_page=100').expect(200);
    expect(list.body.items.every((u: { branch_id: number }) => u.branch_id === mine)).toBe(true);
    expect(list.body.items.some((u: { id: number }) => u.id === scoped.id)).toBe(true);
    expect((await c.get(`/api/users/${other.body.id}`)).status).toBe(404);
  });

  it('puts a branch-scoped manager’s new user in its own branch, and refuses another branch', async () => {
    const mine = await createBranch(t.db);
    const theirs = await createBranch(t.db);
    const roleId = await createRole(t.db, ['users.view', 'users.create'], 'branch');
    const scoped = await createUser(t.db, { permissions: [] });
    await t.db('users').where({ id: scoped.id }).update({ role_id: roleId, branch_id: mine });
    const c = new Client(t.app);
    await c.login(scoped.email, scoped.password);
    // no branch given: the manager's own
    const created = await c
      .post('/api/users', newUser({ role_id: roleId, branch_id: undefined }))
      .expect(201);
    expect(created.body.branch_id).toBe(mine);
    expect((await c.post('/api/users', newUser({ branch_id: theirs }))).status).toBe(404);
  });

  it('filters the list by role, branch and active flag, and searches name and email', async () => {
    const roleId = await createRole(t.db, []);
    const branchId = await createBranch(t.db);
    const active = await admin
      .post('/api/users', newUser({ name: 'Filter Active', role_id: roleId, branch_id: branchId }))
      .expect(201);
    const inactive = await admin
      .post(
        '/api/users',
        newUser({ name: 'Filter Inactive', role_id: roleId, branch_id: branchId, is_active: false }),
      )
      .expect(201);
    const ids = async (query: string) =>
      (await admin.get(`/api/users?${query}`).expect(200)).body.items.map((u: { id: number }) => u.id);
    expect(await ids(`role_id=${roleId}`)).toEqual([active.body.id, inactive.body.id]);
    expect(await ids(`branch_id=${branchId}&is_active=false`)).toEqual([inactive.body.id]);
    expect(await ids(`branch_id=${branchId}&is_active=true`)).toEqual([active.body.id]);
    expect(await ids('q=Filter%20Inact')).toEqual([inactive.body.id]);
    expect((await admin.get('/api/users?sort=password_hash')).status).toBe(422);
  });

  it('exports the list without secrets, and a branch-scoped caller’s export holds its branch only', async () => {
    const mine = await createBranch(t.db);
    const theirs = await createBranch(t.db);
    await admin.post('/api/users', newUser({ name: 'Export Mine', branch_id: mine })).expect(201);
    await admin.post('/api/users', newUser({ name: 'Export Theirs', branch_id: theirs })).expect(201);
    const all = await admin.get('/api/users?format=csv&q=Export').expect(200);
    expect(all.text).toContain('Name,Email,Role,Branch');
    expect(all.text).toContain('Export Mine');
    expect(all.text).toContain('Export Theirs');
    expect(all.text).not.toMatch(/\$2b\$|password|two_factor_secret/);
    const roleId = await createRole(t.db, ['users.view'], 'branch');
    const scoped = await createUser(t.db);
    await t.db('users').where({ id: scoped.id }).update({ role_id: roleId, branch_id: mine });
    const c = new Client(t.app);
    await c.login(scoped.email, scoped.password);
    const own = await c.get('/api/users?format=csv&q=Export').expect(200);
    expect(own.text).toContain('Export Mine');
    expect(own.text).not.toContain('Export Theirs');
  });

  it('answers the create form with roles, branches, permissions and languages', async () => {
    const res = await admin.get('/api/users/create').expect(200);
    expect(res.body.permissions).toEqual(PERMISSIONS);
    expect(res.body.languages).toEqual(['en', 'zh_HK']);
    expect(Array.isArray(res.body.roles)).toBe(true);
    expect(Array.isArray(res.body.branches)).toBe(true);
    expect(res.body.defaults).toMatchObject({ language: 'zh_HK', is_active: true });
  });
});

describe('roles resource', () => {
  it('stores permission keys as a JSON set from the shared list and answers them as an array', async () => {
    const res = await admin.post('/api/roles', {
      name: 'Accountant',
      description: 'Receipts',
      data_scope: 'branch',
      permissions: ['receipts.approve', 'receipts.view', 'receipts.view'],
    });
    expect(res.status).toBe(201);
    expect(res.body.permissions).toEqual(['receipts.view', 'receipts.approve']);
    const row = await t.db('roles').where({ id: res.body.id }).first();
    expect(JSON.parse(row.permissions)).toEqual(['receipts.view', 'receipts.approve']);
    const bad = await admin.post('/api/roles', {
      name: 'Bad',
      data_scope: 'all',
      permissions: ['root.everything'],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)[0]).toMatch(/^permissions/);
    const scope = await admin.post('/api/roles', { name: 'Bad2', data_scope: 'mine', permissions: [] });
    expect(scope.status).toBe(422);
    const csv = await admin.get('/api/roles?format=csv&q=Accountant').expect(200);
    // the export names each permission, as the role grid does (never its key)
    expect(csv.text).toContain('"Receipts – View, Receipts – Approve"');
    const grid = await admin.get('/api/roles/create').expect(200);
    expect(grid.body.grid.find((g: { module: string }) => g.module === 'orders').actions).toContain('void');
  });

  it('refuses to delete a role still used by users, with the count', async () => {
    const roleId = await createRole(t.db, []);
    for (let i = 0; i < 2; i++) {
      const u = await createUser(t.db);
      await t.db('users').where({ id: u.id }).update({ role_id: roleId });
    }
    const res = await admin.delete(`/api/roles/${roleId}`);
    expect(res.status).toBe(409);
    expect(res.body.references).toEqual({ users: 2 });
    expect(res.body.message).toBe('This role is still used by 2 users.');
  });

  it('does not let a non-admin widen a role beyond its own permissions', async () => {
    const { client } = await signedIn(t, { permissions: ['roles.view', 'roles.create'] });
    const res = await client.post('/api/roles', {
      name: 'Sneaky',
      data_scope: 'all',
      permissions: ['users.delete'],
    });
    expect(res.status).toBe(422);
    await client
      .post('/api/roles', { name: 'Modest', data_scope: 'all', permissions: ['roles.view'] })
      .expect(201);
  });
});

describe('companies and branches', () => {
  it('creates a company and its branch, and refuses deletes while referenced', async () => {
    const company = await admin.post('/api/companies', {
      code: 'SEOUL',
      name_en: 'Seoul Co',
      name_zh: '首爾公司',
    });
    expect(company.status).toBe(201);
    expect(company.body.is_active).toBe(true);
    const dupCode = await admin.post('/api/companies', { code: 'SEOUL', name_en: 'x', name_zh: 'x' });
    expect(dupCode.body.errors.code).toEqual([MESSAGES.duplicate]);
    const branch = await admin.post('/api/branches', {
      company_id: company.body.id,
      code: 'tst',
      name_en: 'Tsim Sha Tsui',
      name_zh: '尖沙咀',
      email: 'tst@example.com',
    });
    expect(branch.status).toBe(201);
    expect(branch.body.code).toBe('TST');
    const noCompany = await admin.post('/api/branches', {
      company_id: 999999,
      code: 'X1',
      name_en: 'x',
      name_zh: 'x',
    });
    expect(noCompany.status).toBe(422);
    expect(noCompany.body.errors.company_id).toBeDefined();

    const used = await admin.delete(`/api/companies/${company.body.id}`);
    expect(used.status).toBe(409);
    expect(used.body.references).toEqual({ branches: 1 });

    const u = await createUser(t.db);
    await t.db('users').where({ id: u.id }).update({ branch_id: branch.body.id });
    const branchUsed = await admin.delete(`/api/branches/${branch.body.id}`);
    expect(branchUsed.status).toBe(409);
    expect(branchUsed.body.references).toEqual({ users: 1 });
    await t.db('users').where({ id: u.id }).update({ branch_id: null });
    await admin.delete(`/api/branches/${branch.body.id}`).expect(204);
    await admin.delete(`/api/companies/${company.body.id}`).expect(204);
  });

  it('exports the yes/no columns in the language of the export (companies, branches, users)', async () => {
    const company = await admin
      .post('/api/companies', { code: 'YESNO', name_en: 'Yes No Co', name_zh: '是否公司' })
      .expect(201);
    await admin
      .post('/api/branches', { company_id: company.body.id, code: 'YN', name_en: 'Yes No', name_zh: '是否' })
      .expect(201);
    await admin.post('/api/users', newUser({ name: 'Yes No User' })).expect(201);
    const cells = async (url: string) => parseCsv((await admin.get(url).expect(200)).text);
    expect((await cells('/api/companies?format=csv&q=YESNO&lang=en'))[1].at(-1)).toBe('Yes');
    expect((await cells('/api/companies?format=csv&q=YESNO&lang=zh_HK'))[1].at(-1)).toBe('是');
    expect((await cells('/api/branches?format=csv&q=Yes+No&lang=zh_HK'))[1].at(-1)).toBe('是');
    const [header, row] = await cells('/api/users?format=csv&q=Yes+No+User&lang=zh_HK');
    const cell = (name: string) => row[header.indexOf(name)];
    expect([cell('管理員'), cell('啟用'), cell('雙重認證')]).toEqual(['否', '是', '否']);
    const [enHeader, enRow] = await cells('/api/users?format=csv&q=Yes+No+User&lang=en');
    expect([enRow[enHeader.indexOf('Admin')], enRow[enHeader.indexOf('Active')]]).toEqual(['No', 'Yes']);
  });

  it('shows a branch-scoped role its own branch only, and does not let it open branches', async () => {
    const mine = await createBranch(t.db);
    const theirs = await createBranch(t.db);
    const roleId = await createRole(t.db, ['branches.view', 'branches.create', 'branches.update'], 'branch');
    const u = await createUser(t.db);
    await t.db('users').where({ id: u.id }).update({ role_id: roleId, branch_id: mine });
    const c = new Client(t.app);
    await c.login(u.email, u.password);
    const list = await c.get('/api/branches').expect(200);
    expect(list.body.items.map((b: { id: number }) => b.id)).toEqual([mine]);
    expect((await c.get(`/api/branches/${theirs}`)).status).toBe(404);
    expect((await c.put(`/api/branches/${theirs}`, { name_en: 'mine now' })).status).toBe(404);
    const company = await t.db('companies').first('id');
    expect(
      (await c.post('/api/branches', { company_id: company.id, code: 'NEW1', name_en: 'n', name_zh: 'n' }))
        .status,
    ).toBe(403);
  });
});

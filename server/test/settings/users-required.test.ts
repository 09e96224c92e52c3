import { Client, createBranch, createRole, createTestApp, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
let roleId: number;
let branchId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  roleId = await createRole(t.db, ['students.view']);
  branchId = await createBranch(t.db);
});
afterAll(() => t.close());

const body = (extra: Record<string, unknown>) => ({
  name: 'Chan Tai Man',
  email: `taiman-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'Passw0rdOK',
  password_confirmation: 'Passw0rdOK',
  ...extra,
});

describe('a user needs a role and a branch', () => {
  it.each([
    ['neither', {}, ['role_id', 'branch_id']],
    ['no role', { branch_id: 0 }, ['role_id']],
    ['no branch', { role_id: 0 }, ['branch_id']],
    ['an admin without either', { is_admin: true }, ['role_id', 'branch_id']],
    ['a null role', { role_id: null, branch_id: 0 }, ['role_id']],
  ])(
    'refuses %s with 422 on the field (a message key, shown in either language)',
    async (_name, extra, fields) => {
      const given = Object.fromEntries(
        Object.entries(extra).map(([k, v]) => [k, v === 0 ? (k === 'role_id' ? roleId : branchId) : v]),
      );
      const before = await t.db('users').count({ n: '*' }).first();
      const res = await admin.post('/api/users', body(given));
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
      for (const field of fields) {
        expect(res.body.errors[field]).toEqual(['This field is required.']);
        expect(res.body.error_keys[field]).toEqual([{ key: 'required' }]);
      }
      expect(await t.db('users').count({ n: '*' }).first()).toEqual(before);
    },
  );

  it('creates one with both, and refuses taking either away on update', async () => {
    const created = await admin.post('/api/users', body({ role_id: roleId, branch_id: branchId }));
    expect(created.status).toBe(201);
    const cleared = await admin.put(`/api/users/${created.body.id}`, { branch_id: null });
    expect(cleared.status).toBe(422);
    expect(cleared.body.error_keys.branch_id).toEqual([{ key: 'required' }]);
    // an update that leaves them out keeps them
    await admin.put(`/api/users/${created.body.id}`, { name: 'Chan Tai Man 2' }).expect(200);
  });
});

describe('users lookup (the audit log user picker)', () => {
  it('finds a user by name or by email, named by the name', async () => {
    const created = await admin
      .post(
        '/api/users',
        body({
          name: 'Lookup Person',
          email: 'picker.find@example.com',
          role_id: roleId,
          branch_id: branchId,
        }),
      )
      .expect(201);
    for (const q of ['Lookup Pers', 'picker.find@']) {
      const res = await admin.get(`/api/users/lookup?q=${encodeURIComponent(q)}`).expect(200);
      expect(res.body).toEqual([{ id: created.body.id, label: 'Lookup Person' }]);
    }
  });
});

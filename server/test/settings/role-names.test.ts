import { toDbDateTime } from '../../src/lib/clock';
import { nameSeededRoles } from '../../../migrations/20261126000010_role_names';
import { Client, createBranch, createTestApp, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

const inLanguage = (language: string) => ({ 'Accept-Language': language === 'zh_HK' ? 'zh-HK' : 'en' });

describe("roles named in the user's language", () => {
  it('names a role in Chinese where it has a Chinese name, and by its one name where it has none', async () => {
    const named = await admin
      .post('/api/roles', { name: 'Accountant', name_zh: '會計', data_scope: 'all', permissions: [] })
      .expect(201);
    await admin.post('/api/roles', { name: 'Intern', data_scope: 'branch', permissions: [] }).expect(201);
    const user = await admin
      .post('/api/users', {
        name: 'Role Named',
        email: 'role.named@example.com',
        password: 'Passw0rdOK',
        password_confirmation: 'Passw0rdOK',
        role_id: named.body.id,
        branch_id: await createBranch(t.db),
      })
      .expect(201);

    const read = async (language: string) =>
      (await admin.get('/api/users?q=role.named').set(inLanguage(language)).expect(200)).body.items[0];
    expect((await read('zh_HK')).id).toBe(user.body.id);
    expect((await read('zh_HK')).role_name).toBe('會計');
    expect((await read('en')).role_name).toBe('Accountant');

    const lookup = (q: string, language: string) =>
      admin.get(`/api/roles/lookup?q=${encodeURIComponent(q)}`).set(inLanguage(language));
    expect((await lookup('Accountant', 'zh_HK')).body).toEqual([{ id: named.body.id, label: '會計' }]);
    expect((await lookup('會計', 'en')).body).toEqual([{ id: named.body.id, label: 'Accountant' }]);
    // no Chinese name: its one name in both languages
    expect((await lookup('Intern', 'zh_HK')).body.map((c: { label: string }) => c.label)).toEqual(['Intern']);
  });

  it("gives an agency's seeded roles their Chinese names, leaving renamed and own roles as they are", async () => {
    const now = toDbDateTime();
    const row = (name: string, nameZh: string | null = null) => ({
      name,
      name_zh: nameZh,
      data_scope: 'all',
      permissions: '[]',
      created_at: now,
      updated_at: now,
    });
    // (the test database holds none of these names yet)
    await t.db('roles').insert([row('Administrator'), row('Consultant', '顧問（舊）'), row('Sales')]);
    await nameSeededRoles(t.db);
    const names = Object.fromEntries(
      (await t.db('roles').whereIn('name', ['Administrator', 'Consultant', 'Sales'])).map((r) => [
        r.name,
        r.name_zh,
      ]),
    );
    expect(names).toEqual({ Administrator: '管理員', Consultant: '顧問（舊）', Sales: null });
  });
});

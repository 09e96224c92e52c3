import { Client, createBranch, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { download, readXlsx } from '../resources/helpers';

let t: TestApp;
let admin: Client;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  const branchId = await createBranch(t.db, 'KLN');
  await t.db('branches').where({ id: branchId }).update({ name_en: 'Kowloon Office', name_zh: '九龍辦事處' });
  const user = await createUser(t.db, { email: 'export.me@example.com' });
  userId = user.id;
  await t.db('roles').where({ id: user.roleId }).update({ name: 'Consultant Export' });
  // stored in UTC: 2026-03-01 17:30 UTC is 2026-03-02 01:30 in Hong Kong
  await t
    .db('users')
    .where({ id: userId })
    .update({ name: 'Export Me', branch_id: branchId, last_login_at: '2026-03-01 17:30:00' });
});
afterAll(() => t.close());

describe('users export', () => {
  it('names the role and branch and writes times in Hong Kong time (XLSX, read back)', async () => {
    const res = await download(admin, '/api/users?format=xlsx&q=export.me&lang=en');
    expect(res.status).toBe(200);
    const [head, ...rows] = await readXlsx(res.body as Buffer);
    const row = (column: string) => rows[0][head.indexOf(column)];
    expect(rows).toHaveLength(1);
    // names, not ids
    expect(row('Role')).toBe('Consultant Export');
    expect(row('Branch')).toContain('Kowloon Office');
    // the language by its name, not its code
    expect(row('Language')).toBe('English');
    // 17:30 UTC stored, 01:30 the next day in Hong Kong shown: a date cell holding the Hong Kong time
    expect(row('Last sign-in')).toEqual(new Date(Date.UTC(2026, 2, 2, 1, 30)));
    // the API itself keeps UTC
    const api = await admin.get('/api/users?q=export.me');
    expect(api.body.items[0].last_login_at).toBe('2026-03-01T17:30:00.000Z');
  });

  it('heads the columns and names the branch in Chinese, times in Hong Kong time (CSV)', async () => {
    const res = await admin.get('/api/users?format=csv&q=export.me&lang=zh_HK');
    expect(res.status).toBe(200);
    expect(res.text).toContain('九龍辦事處');
    // the language by its Chinese name
    expect(res.text).toContain(',英文,');
    // to the minute, as the screens show it
    expect(res.text).toContain('2026-03-02 01:30');
    expect(res.text).not.toContain('01:30:00');
    expect(res.text).not.toContain('17:30');
  });
});

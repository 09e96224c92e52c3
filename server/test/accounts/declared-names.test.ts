import { PERMISSIONS } from '../../../shared/permissions';
import { parseCsv } from '../../src/modules/exports/csv';
import { createBranch, createRole, createTestApp, createUser, type TestApp } from '../harness';
import { signedIn } from './helpers';

/**
 * A read-only staff user sees the names of the records a row refers to, in the language of the screen, in every
 * list, record and export of the declared resources — never an id (issue 11): branch → company, user → role and
 * branch, district → area; and `GET …/lookup` answers id + label to whoever may edit a record referring to it.
 */
let t: TestApp;
let reader: Awaited<ReturnType<typeof signedIn>>['client'];
let companyId: number;
let branchId: number;
let roleId: number;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  branchId = await createBranch(t.db, 'MK');
  companyId = Number((await t.db('branches').where({ id: branchId }).first('company_id')).company_id);
  await t
    .db('companies')
    .where({ id: companyId })
    .update({ code: 'SA', name_en: 'Seoul Agency', name_zh: '首爾代理' });
  await t.db('branches').where({ id: branchId }).update({ name_en: 'Mong Kok', name_zh: '旺角' });
  roleId = await createRole(t.db, ['students.view']);
  await t.db('roles').where({ id: roleId }).update({ name: 'Consultant' });
  const user = await createUser(t.db, { email: 'named@example.com' });
  userId = user.id;
  await t.db('users').where({ id: userId }).update({ role_id: roleId, branch_id: branchId });
  const viewer = await createRole(
    t.db,
    PERMISSIONS.filter((p) => p.endsWith('.view')),
  );
  const { client, user: me } = await signedIn(t, { email: 'viewer@example.com' });
  await t.db('users').where({ id: me.id }).update({ role_id: viewer });
  reader = client;
});
afterAll(() => t.close());

it('names a branch’s company and a user’s role and branch in lists and records, in the screen’s language', async () => {
  const branches = await reader.get('/api/branches?q=MK').set('Accept-Language', 'en').expect(200);
  expect(branches.body.items[0]).toMatchObject({ company_id: companyId, company_name: 'SA Seoul Agency' });
  const zh = await reader.get(`/api/branches/${branchId}`).set('Accept-Language', 'zh-HK').expect(200);
  expect(zh.body.company_name).toBe('SA 首爾代理');

  const users = await reader.get('/api/users?q=named').set('Accept-Language', 'zh-HK').expect(200);
  expect(users.body.items[0]).toMatchObject({ role_name: 'Consultant', branch_name: 'MK 旺角' });
  expect(users.body.items[0]).not.toHaveProperty('password_hash');
  const en = await reader.get(`/api/users/${userId}`).set('Accept-Language', 'en').expect(200);
  expect(en.body).toMatchObject({ role_name: 'Consultant', branch_name: 'MK Mong Kok' });
});

it('exports the names, not the ids, under the headers of the export’s language', async () => {
  const res = await reader
    .get('/api/users?format=csv&q=named&lang=zh_HK')
    .set('Accept-Language', 'zh-HK')
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200);
  const [header, row] = parseCsv((res.body as Buffer).toString('utf8'));
  expect(header.slice(0, 4)).toEqual(['姓名', '電郵', '角色', '分行']);
  expect(row.slice(0, 4)).toEqual(['Test User', 'named@example.com', 'Consultant', 'MK 旺角']);
});

it('names a district’s area, and answers lookups to whoever may edit a record referring to them', async () => {
  const [area] = await t.db('areas').insert({
    name_en: 'Seoul',
    name_zh: '首爾',
    sort_order: 0,
    created_at: '2026-01-01 00:00:00',
    updated_at: '2026-01-01 00:00:00',
  });
  await t.db('areas').insert({
    parent_id: Number(area),
    name_en: 'Gangnam',
    name_zh: '江南',
    sort_order: 0,
    created_at: '2026-01-01 00:00:00',
    updated_at: '2026-01-01 00:00:00',
  });
  const districts = await reader.get(`/api/areas?parent_id=${area}`).set('Accept-Language', 'en').expect(200);
  expect(districts.body.items).toEqual([
    expect.objectContaining({ name_en: 'Gangnam', parent_name: 'Seoul' }),
  ]);

  // a branch editor without the companies module reads the company choices of its form, nothing more
  const branchEditor = await createRole(t.db, ['branches.update']);
  const { client } = await signedIn(t, { email: 'branch-editor@example.com' });
  await t.db('users').where({ email: 'branch-editor@example.com' }).update({ role_id: branchEditor });
  const lookup = await client.get('/api/companies/lookup?q=Seoul').set('Accept-Language', 'en').expect(200);
  expect(lookup.body).toEqual([{ id: companyId, label: 'SA Seoul Agency' }]);
  await client.get('/api/companies').expect(403);
  await client.get('/api/roles/lookup').expect(403);
});

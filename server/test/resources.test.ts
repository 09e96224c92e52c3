import { MESSAGES } from '../../shared/errors';
import { currentYear } from '../src/lib/clock';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from './harness';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

const year = currentYear();

describe('holidays (generic resource)', () => {
  beforeAll(async () => {
    for (const [date, name] of [
      [`${year}-01-01`, 'New Year'],
      [`${year}-12-25`, 'Christmas Day'],
      [`${year - 1}-12-25`, 'Christmas last year'],
      [`${year + 1}-01-01`, 'New Year next year'],
    ]) {
      await admin.post('/api/holidays', { date, name_en: name, name_zh: '假期' }).expect(201);
    }
  });

  it('lists the current year by default and another year on ?year=', async () => {
    const current = await admin.get('/api/holidays').expect(200);
    expect(current.body).toMatchObject({ total: 2, page: 1, per_page: 20 });
    expect(current.body.items.map((h: { date: string }) => h.date)).toEqual([
      `${year}-01-01`,
      `${year}-12-25`,
    ]);
    const last = await admin.get(`/api/holidays?year=${year - 1}`).expect(200);
    expect(last.body.items.map((h: { name_en: string }) => h.name_en)).toEqual(['Christmas last year']);
  });

  it('pages, searches and sorts on allow-listed columns', async () => {
    const page = await admin.get('/api/holidays?per_page=1&page=2').expect(200);
    expect(page.body).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(page.body.items[0].date).toBe(`${year}-12-25`);
    const search = await admin.get('/api/holidays?q=christ').expect(200);
    expect(search.body.items.map((h: { name_en: string }) => h.name_en)).toEqual(['Christmas Day']);
    const wildcard = await admin.get('/api/holidays?q=%25').expect(200);
    expect(wildcard.body.total).toBe(0);
    const desc = await admin.get('/api/holidays?sort=-date').expect(200);
    expect(desc.body.items[0].date).toBe(`${year}-12-25`);
    const refused = await admin.get('/api/holidays?sort=password').expect(422);
    expect(refused.body.errors.sort).toBeDefined();
    expect((await admin.get('/api/holidays?per_page=1000')).status).toBe(422);
  });

  it('refuses a duplicate date with the spec message on the field, and writes nothing', async () => {
    const before = await t.db('holidays').count({ n: '*' }).first();
    const res = await admin.post('/api/holidays', { date: `${year}-01-01`, name_en: 'Again', name_zh: '再' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(MESSAGES.duplicate);
    expect(res.body.errors).toEqual({ date: [MESSAGES.duplicate] });
    expect(await t.db('holidays').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses a duplicate on update too, but lets a record keep its own value', async () => {
    const { body } = await admin
      .post('/api/holidays', { date: `${year}-06-01`, name_en: 'A', name_zh: '甲' })
      .expect(201);
    await admin.put(`/api/holidays/${body.id}`, { date: `${year}-06-01`, name_en: 'A2' }).expect(200);
    const dup = await admin.put(`/api/holidays/${body.id}`, { date: `${year}-01-01` });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.date).toEqual([MESSAGES.duplicate]);
  });

  it('validates bodies strictly: unknown fields, bad dates and missing names are 422 with field errors', async () => {
    const unknown = await admin.post('/api/holidays', {
      date: `${year}-03-03`,
      name_en: 'X',
      name_zh: 'X',
      created_by: 1,
      status: 'x',
    });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors).sort()).toEqual(['created_by', 'status']);
    const bad = await admin.post('/api/holidays', { date: '2026-02-30', name_en: '' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['date', 'name_en', 'name_zh']);
    expect(
      await t
        .db('holidays')
        .where({ date: `${year}-03-03` })
        .first(),
    ).toBeUndefined();
  });

  it('reads, updates and deletes one record, with an audit row per write naming actor, IP and changes', async () => {
    const created = await admin
      .post('/api/holidays', { date: `${year}-07-07`, name_en: 'Temp', name_zh: '暫' })
      .expect(201);
    const id = created.body.id;
    expect((await admin.get(`/api/holidays/${id}`).expect(200)).body.name_en).toBe('Temp');
    await admin.put(`/api/holidays/${id}`, { name_en: 'Renamed' }).expect(200);
    await admin.delete(`/api/holidays/${id}`).expect(204);
    expect((await admin.get(`/api/holidays/${id}`)).status).toBe(404);
    const audit = await t.db('audit_logs').where({ entity: 'holiday', entity_id: id }).orderBy('id');
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(JSON.parse(audit[1].changes)).toEqual({
      before: { name_en: 'Temp' },
      after: { name_en: 'Renamed' },
    });
    expect(audit.every((a) => a.actor_type === 'user' && a.actor_id && a.ip)).toBe(true);
  });

  it('answers 404 for an unknown id and describes the create form', async () => {
    expect((await admin.get('/api/holidays/999999')).status).toBe(404);
    expect((await admin.put('/api/holidays/999999', { name_en: 'x' })).status).toBe(404);
    expect((await admin.get('/api/holidays/create').expect(200)).body.defaults.year).toBe(year);
  });
});

describe('areas and districts', () => {
  it('lists areas with their districts, and one area’s districts on ?parent_id=', async () => {
    const area = (
      await admin.post('/api/areas', { name_en: 'Seoul', name_zh: '首爾', name_ko: '서울' }).expect(201)
    ).body;
    await admin
      .post('/api/areas', { parent_id: area.id, name_en: 'Mapo-gu', name_zh: '麻浦區', sort_order: 2 })
      .expect(201);
    await admin
      .post('/api/areas', { parent_id: area.id, name_en: 'Jongno-gu', name_zh: '鍾路區', sort_order: 1 })
      .expect(201);
    const list = await admin.get('/api/areas').expect(200);
    const seoul = list.body.items.find((a: { id: number }) => a.id === area.id);
    expect(seoul.districts.map((d: { name_en: string }) => d.name_en)).toEqual(['Jongno-gu', 'Mapo-gu']);
    expect(list.body.items.every((a: { parent_id: number | null }) => a.parent_id === null)).toBe(true);
    const districts = await admin.get(`/api/areas?parent_id=${area.id}`).expect(200);
    expect(districts.body.total).toBe(2);
  });

  it('refuses to delete an area that still has districts, naming them (409), and deletes it once empty', async () => {
    const area = (await admin.post('/api/areas', { name_en: 'Busan', name_zh: '釜山' }).expect(201)).body;
    const d = (
      await admin
        .post('/api/areas', { parent_id: area.id, name_en: 'Haeundae-gu', name_zh: '海雲臺區' })
        .expect(201)
    ).body;
    const refused = await admin.delete(`/api/areas/${area.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.references).toEqual({ districts: 1 });
    expect(refused.body.message).toBe('This area is still used by 1 districts.');
    expect(await t.db('areas').where({ id: area.id }).first()).toBeDefined();
    await admin.delete(`/api/areas/${d.id}`).expect(204);
    await admin.delete(`/api/areas/${area.id}`).expect(204);
  });

  it('keeps the tree two levels deep and names unique within an area', async () => {
    const area = (await admin.post('/api/areas', { name_en: 'Incheon', name_zh: '仁川' }).expect(201)).body;
    const d = (
      await admin
        .post('/api/areas', { parent_id: area.id, name_en: 'Yeonsu-gu', name_zh: '延壽區' })
        .expect(201)
    ).body;
    const nested = await admin.post('/api/areas', { parent_id: d.id, name_en: 'Too deep', name_zh: '太深' });
    expect(nested.status).toBe(422);
    expect(nested.body.errors.parent_id).toBeDefined();
    const missing = await admin.post('/api/areas', { parent_id: 999999, name_en: 'Orphan', name_zh: '孤' });
    expect(missing.status).toBe(422);
    const dup = await admin.post('/api/areas', { parent_id: area.id, name_en: 'Yeonsu-gu', name_zh: '重' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name_en).toEqual([MESSAGES.duplicate]);
    const self = await admin.put(`/api/areas/${area.id}`, { parent_id: area.id });
    expect(self.status).toBe(422);
  });
});

describe('permissions on resources', () => {
  it('lets a role with settings.view read but not write, and audits the denial', async () => {
    const reader = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    await c.login(reader.email, reader.password);
    await c.get('/api/holidays').expect(200);
    const denied = await c.post('/api/holidays', { date: `${year}-08-08`, name_en: 'No', name_zh: '否' });
    expect(denied.status).toBe(403);
    const audit = await t
      .db('audit_logs')
      .where({ action: 'permission_denied', actor_id: reader.id })
      .first();
    expect(JSON.parse(audit.changes)).toMatchObject({ permission: 'settings.create' });
  });

  it('forbids a staff user without the module', async () => {
    const nobody = await createUser(t.db, { permissions: [] });
    const c = new Client(t.app);
    await c.login(nobody.email, nobody.password);
    expect((await c.get('/api/areas')).status).toBe(403);
  });
});

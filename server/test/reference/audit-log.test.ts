import { clock } from '../../src/lib/clock';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  adminId = (await t.db('users').orderBy('id', 'desc').first()).id;
});
afterAll(() => t.close());
afterEach(() => clock.reset());

describe('audit log API (admins only)', () => {
  it('lists newest first with actor names and parsed changes, filtered by actor, entity, action and dates', async () => {
    const h = (
      await admin.post('/api/holidays', { date: '2032-01-01', name_en: 'A', name_zh: '甲' }).expect(201)
    ).body;
    await admin.put(`/api/holidays/${h.id}`, { name_en: 'B' }).expect(200);
    await admin.post('/api/areas', { name_en: 'Seoul', name_zh: '首爾' }).expect(201);

    const all = await admin.get('/api/audit-logs').expect(200);
    expect(all.body.page).toBe(1);
    expect(all.body.items[0]).toMatchObject({ action: 'create', entity: 'area', actor_type: 'user' });
    expect(all.body.items[0].actor_name).toMatch(/^Test User </);

    const mine = await admin.get(`/api/audit-logs?actor_id=${adminId}&entity=holiday`).expect(200);
    expect(mine.body.items.map((r: { action: string }) => r.action)).toEqual(['update', 'create']);
    expect(mine.body.items[0].changes).toEqual({ before: { name_en: 'A' }, after: { name_en: 'B' } });

    const logins = await admin.get('/api/audit-logs?action=login').expect(200);
    expect(logins.body.total).toBeGreaterThan(0);
    expect(logins.body.items.every((r: { action: string }) => r.action === 'login')).toBe(true);

    const today = new Date(clock.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const inRange = await admin.get(`/api/audit-logs?date_from=${today}&date_to=${today}`).expect(200);
    expect(inRange.body.total).toBe(all.body.total);
    const before = await admin.get('/api/audit-logs?date_to=2000-01-01').expect(200);
    expect(before.body.total).toBe(0);
    expect((await admin.get('/api/audit-logs?date_from=yesterday')).status).toBe(422);
  });

  it('shows one record’s history, oldest first, and one entry by id', async () => {
    const h = (
      await admin.post('/api/holidays', { date: '2032-02-02', name_en: 'X', name_zh: '乙' }).expect(201)
    ).body;
    await admin.put(`/api/holidays/${h.id}`, { name_zh: '丙' }).expect(200);
    await admin.delete(`/api/holidays/${h.id}`).expect(204);
    const history = await admin.get(`/api/audit-logs/holiday/${h.id}`).expect(200);
    expect(history.body.items.map((r: { action: string }) => r.action)).toEqual([
      'create',
      'update',
      'delete',
    ]);
    expect(history.body.total).toBe(3);
    const one = await admin.get(`/api/audit-logs/${history.body.items[1].id}`).expect(200);
    expect(one.body.changes).toEqual({ before: { name_zh: '乙' }, after: { name_zh: '丙' } });
  });

  it('exports the filtered log', async () => {
    const res = await admin.get('/api/audit-logs?entity=holiday&format=csv').expect(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Time (Hong Kong),Actor,Actor type,Action,Record type,Record ID,IP address,Changes',
    );
    expect(lines.length).toBeGreaterThan(3);
  });

  it('is for admins only: even a role holding every settings key is refused, and the refusal is audited', async () => {
    const user = await createUser(t.db, {
      permissions: ['settings.view', 'settings.create', 'settings.update', 'settings.delete'],
    });
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    expect((await c.get('/api/audit-logs')).status).toBe(403);
    expect((await c.get('/api/audit-logs/holiday/1')).status).toBe(403);
    const denied = await t.db('audit_logs').where({ action: 'permission_denied', actor_id: user.id }).first();
    expect(JSON.parse(denied.changes)).toMatchObject({ permission: 'admin' });
    // the log is read-only: no write routes exist
    expect((await admin.post('/api/audit-logs', {})).status).toBe(404);
    expect((await admin.delete('/api/audit-logs/1')).status).toBe(404);
  });
});

describe('audit log date range', () => {
  it('refuses a start date after the end date with 422 on date_to, in the list and the export', async () => {
    for (const url of [
      '/api/audit-logs?date_from=2026-03-02&date_to=2026-03-01',
      '/api/audit-logs?date_from=2026-03-02&date_to=2026-03-01&format=csv',
    ]) {
      const res = await admin.get(url);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ date_to: ['The end date may not be before the start date.'] });
      expect(res.body.error_keys).toEqual({ date_to: [{ key: 'dateRangeOrder' }] });
    }
    // one day (from = to) is a range
    await admin.get('/api/audit-logs?date_from=2026-03-01&date_to=2026-03-01').expect(200);
  });
});

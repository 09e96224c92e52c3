/**
 * The embedded demo's student (issue 14): `student@example.com` signs in on the portal host and has an application
 * to an intake open today with its checklist, its details and education ready to submit.
 */
import { DEMO_STUDENT, seedDemo } from '../../../seeds';
import { Client, PORTAL_HOST, createTestApp, type TestApp } from '../harness';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db);
});
afterAll(() => t.close());

it('signs the demo student in, with an application, its checklist and an intake open today', async () => {
  const c = new Client(t.app, PORTAL_HOST);
  const login = await c.login(DEMO_STUDENT.email, DEMO_STUDENT.password);
  expect(login.status).toBe(200);
  expect(login.body.must_change_password).toBe(false);
  const apps = (await c.get('/api/application').expect(200)).body.items;
  expect(apps.length).toBeGreaterThanOrEqual(1);
  const documents = (await c.get('/api/document?locale=zh_HK').expect(200)).body.items;
  expect(documents.length).toBeGreaterThanOrEqual(1);
  expect(documents.every((d: { code: string }) => d.code === 'P')).toBe(true);
  const open = (await c.get('/api/select-application').expect(200)).body.intakes;
  expect(open.map((i: { id: number }) => i.id)).toContain(apps[0].admission_id);
  const levels = (await c.get('/api/education').expect(200)).body.items.map(
    (e: { level: string }) => e.level,
  );
  expect(levels).toEqual(expect.arrayContaining(['primary', 'secondary']));
});

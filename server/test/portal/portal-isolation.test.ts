/**
 * Own data only (issue 14, deliverables 1 and 7): a student reading or writing another student's family member,
 * education entry, application choice, checklist row or its file by id gets 404 — never 403, never the record —
 * and the other student's records stay as they were (prints `portal probes: N requests for another student's
 * records, 0 leaks`); a staff session on the portal host and a student session on the staff host reach none of
 * the portal's routes (401), nor does a student reach a staff route.
 */
import {
  Client,
  PORTAL_HOST,
  STAFF_HOST,
  createTestApp,
  createUser,
  signedInAdmin,
  type TestApp,
} from '../harness';
import { PDF } from '../students/applications-helpers';
import { intakeWindow, portalStudent } from './portal-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

/** The tables holding the victim's records, as they are. */
async function snapshot(studentId: number): Promise<string> {
  const apps = await t.db('student_applications').where({ student_id: studentId }).orderBy('id');
  return JSON.stringify({
    family: await t.db('student_family_members').where({ student_id: studentId }).orderBy('id'),
    educations: await t.db('student_educations').where({ student_id: studentId }).orderBy('id'),
    apps,
    docs: await t
      .db('application_documents')
      .whereIn(
        'application_id',
        apps.map((a: Row) => a.id),
      )
      .orderBy('id'),
    files: await t.db('files').where({ uploaded_by_student_id: studentId }).orderBy('id'),
  });
}

it('answers 404 to every request for another student’s records, and changes nothing', async () => {
  const { intake, subject } = await intakeWindow(admin, {
    start: -1,
    deadline: 30,
    documents: ['Passport', 'CV'],
  });
  const victim = await portalStudent(t);
  const prober = await portalStudent(t);
  const family = (
    await victim.client.post('/api/family', { relationship: 'father', name_en: 'Victim Dad' }).expect(201)
  ).body;
  const education = (
    await victim.client
      .post('/api/education', { level: 'primary', school_name: 'Victim Primary' })
      .expect(201)
  ).body;
  const app = (
    await victim.client
      .post('/api/select-application', { admission_id: intake.id, subject_id: subject.id })
      .expect(201)
  ).body;
  const [withFile, pending] = (await victim.client.get('/api/document').expect(200)).body.items;
  await victim.client
    .post(`/api/document/${withFile.id}/file`)
    .attach('file', PDF, { filename: 'victim.pdf', contentType: 'application/pdf' })
    .expect(200);
  const before = await snapshot(victim.id);

  const c = prober.client;
  const pdf = (id: number) =>
    c
      .post(`/api/document/${id}/file`)
      .attach('file', PDF, { filename: 'x.pdf', contentType: 'application/pdf' });
  const probes: [string, () => Promise<{ status: number; body: Row; text?: string }>][] = [];
  for (const [path, id, body] of [
    ['family', family.id, { name_en: 'Hijacked' }],
    ['education', education.id, { school_name: 'Hijacked' }],
  ] as const) {
    probes.push([`PUT /${path}/${id}`, () => c.put(`/api/${path}/${id}`, body)]);
    probes.push([`DELETE /${path}/${id}`, () => c.delete(`/api/${path}/${id}`)]);
  }
  probes.push([`DELETE /select-application/${app.id}`, () => c.delete(`/api/select-application/${app.id}`)]);
  for (const doc of [withFile, pending]) {
    probes.push([`POST /document/${doc.id}/file`, () => pdf(doc.id)]);
    probes.push([`DELETE /document/${doc.id}/file`, () => c.delete(`/api/document/${doc.id}/file`)]);
    probes.push([`GET /document/${doc.id}/file`, () => c.get(`/api/document/${doc.id}/file`)]);
  }
  let leaks = 0;
  const answers: string[] = [];
  for (const [name, send] of probes) {
    const res = await send();
    answers.push(`${name} ${res.status}`);
    const text = JSON.stringify(res.body ?? {}) + (res.text ?? '');
    if (res.status !== 404 || /Victim|victim\.pdf/.test(text)) leaks++;
  }
  // the lists are the prober's own
  for (const path of [
    '/api/family',
    '/api/education',
    '/api/application',
    '/api/document',
    '/api/select-application',
  ]) {
    const res = await c.get(path).expect(200);
    answers.push(`GET ${path} ${res.status}`);
    if (/Victim|victim\.pdf/.test(JSON.stringify(res.body))) leaks++;
    if (JSON.stringify(res.body).includes(`"id":${app.id},`) && path !== '/api/select-application') leaks++;
  }
  const photo = await c.get('/api/student/photo');
  answers.push(`GET /student/photo ${photo.status}`);
  if (photo.status !== 404) leaks++;
  const requests = probes.length + 6;
  console.log(`portal probes: ${requests} requests for another student's records, ${leaks} leaks`);
  expect(answers.slice(0, probes.length)).toEqual(probes.map(([name]) => `${name} 404`));
  expect(leaks).toBe(0);
  expect(await snapshot(victim.id)).toBe(before);
  expect((await c.get('/api/application').expect(200)).body.items).toEqual([]);
});

it('refuses a staff session on the portal host and a student session on the staff host, on every portal route', async () => {
  const s = await portalStudent(t);
  const staffUser = await createUser(t.db, { is_admin: true });
  // a staff session's cookie sent to the portal host, and a student's to the staff host
  const staffOnPortal = new Client(t.app, STAFF_HOST);
  await staffOnPortal.login(staffUser.email, staffUser.password);
  const crossed = new Client(t.app, PORTAL_HOST);
  (crossed as unknown as { agent: unknown }).agent = staffOnPortal.agent;
  await crossed.refreshToken();
  const studentOnStaff = new Client(t.app, STAFF_HOST);
  (studentOnStaff as unknown as { agent: unknown }).agent = s.client.agent;
  await studentOnStaff.refreshToken();

  const portalRoutes = t.api.routes.filter((r) => r.access === 'student');
  expect(portalRoutes.length).toBeGreaterThanOrEqual(25);
  const wrong: string[] = [];
  for (const route of portalRoutes) {
    const url = `/api${route.path.replace(/:[A-Za-z_]+/g, '1')}`;
    for (const [who, client] of [
      ['staff on the portal host', crossed],
      ['student on the staff host', studentOnStaff],
    ] as const) {
      const res = route.method === 'get' ? await client.get(url) : await client.send(route.method, url, {});
      if (res.status !== 401) wrong.push(`${route.method} ${route.path} as ${who}: ${res.status}`);
    }
  }
  expect(wrong).toEqual([]);
  // the student's own session still works on its host, and reaches no staff route there
  await s.client.get('/api/student').expect(200);
  expect((await s.client.get(`/api/students/${s.id}`)).status).toBe(401);
  expect((await s.client.get('/api/students')).status).toBe(401);
  // the same cookies, each on its own host, are still signed in: the refusals above were the host's
  expect((await staffOnPortal.get('/api/heartbeat')).body.auth).toBe(true);
  expect((await crossed.get('/api/heartbeat')).body.auth).toBe(false);
  expect((await s.client.get('/api/heartbeat')).body.auth).toBe(true);
  expect((await studentOnStaff.get('/api/heartbeat')).body.auth).toBe(false);
});

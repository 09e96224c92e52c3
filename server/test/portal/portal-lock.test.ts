/**
 * Submit and lock (issue 14, deliverable 6): submitting needs the required details and a primary and a secondary
 * education entry (a message per field); once submitted every portal write answers 409 `portalLocked` — details,
 * photo, family, education, choosing and withdrawing an intake, a checklist file in and out — while the password
 * and the language stay changeable; staff see the date; a staff reopen lets the writes through again.
 */
import { createTestApp, signedInAdmin, type Client, type TestApp } from '../harness';
import { auditOf, PDF } from '../students/applications-helpers';
import { intakeWindow, PNG, portalStudent, readyToSubmit } from './portal-helpers';

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

it('refuses to submit without the required details and a primary and a secondary education entry', async () => {
  const s = await portalStudent(t);
  const res = await s.client.post('/api/student/submit');
  expect(res.status).toBe(422);
  const fields = Object.keys(res.body.error_keys).sort();
  expect(fields).toEqual(
    [
      'birth_date',
      'education_primary',
      'education_secondary',
      'gender',
      'nationality',
      'passport_expiry',
      'passport_no',
      'phone',
    ].sort(),
  );
  expect(res.body.error_keys.education_primary[0].key).toBe('portalPrimaryEducation');
  expect(res.body.error_keys.education_secondary[0].key).toBe('portalSecondaryEducation');
  // a secondary entry alone is not enough
  await s.client.post('/api/education', { level: 'secondary', school_name: 'DBS' }).expect(201);
  const still = await s.client.post('/api/student/submit');
  expect(Object.keys(still.body.error_keys)).toContain('education_primary');
  expect(Object.keys(still.body.error_keys)).not.toContain('education_secondary');
  expect((await t.db('students').where({ id: s.id }).first()).info_submitted_at).toBeNull();
});

it('locks every portal write after submitting, keeps password and language open, and unlocks on a staff reopen', async () => {
  const { intake, subject } = await intakeWindow(admin, { start: -2, deadline: 9, documents: ['Passport'] });
  const other = await intakeWindow(admin, { start: -2, deadline: 9 });
  const s = await portalStudent(t);
  const c = s.client;
  await readyToSubmit(c);
  const family = (await c.post('/api/family', { relationship: 'mother', name_en: 'Mum' }).expect(201)).body;
  const [education] = (await c.get('/api/education').expect(200)).body.items;
  const app = (
    await c.post('/api/select-application', { admission_id: intake.id, subject_id: subject.id }).expect(201)
  ).body;
  const [doc] = (await c.get('/api/document').expect(200)).body.items;
  await c
    .post(`/api/document/${doc.id}/file`)
    .attach('file', PDF, { filename: 'p.pdf', contentType: 'application/pdf' })
    .expect(200);

  const submitted = await c.post('/api/student/submit');
  expect(submitted.status).toBe(200);
  expect(submitted.body.info_submitted_at).toEqual(expect.any(String));
  expect(submitted.body.info_confirmed_at).toBe(submitted.body.info_submitted_at);
  const [audit] = (await auditOf(t, 'student', s.id)).filter((a) => a.action === 'submit');
  expect(audit).toMatchObject({ actor_type: 'student', actor_id: s.id });
  // staff see the date
  const staff = await admin.get(`/api/students/${s.id}`).expect(200);
  expect(staff.body.info_submitted_at).toBe(submitted.body.info_submitted_at);

  const writes: [string, () => ReturnType<Client['put']>][] = [
    ['PUT /student', () => c.put('/api/student', { phone: '123' })],
    [
      'POST /student/photo',
      () =>
        c.post('/api/student/photo').attach('file', PNG, { filename: 'me.png', contentType: 'image/png' }),
    ],
    ['DELETE /student/photo', () => c.delete('/api/student/photo')],
    ['POST /family', () => c.post('/api/family', { relationship: 'father', name_en: 'Dad' })],
    ['PUT /family/:id', () => c.put(`/api/family/${family.id}`, { name_en: 'Mother' })],
    ['DELETE /family/:id', () => c.delete(`/api/family/${family.id}`)],
    ['POST /education', () => c.post('/api/education', { level: 'other', school_name: 'X' })],
    ['PUT /education/:id', () => c.put(`/api/education/${education.id}`, { school_name: 'Y' })],
    ['DELETE /education/:id', () => c.delete(`/api/education/${education.id}`)],
    [
      'POST /select-application',
      () =>
        c.post('/api/select-application', { admission_id: other.intake.id, subject_id: other.subject.id }),
    ],
    ['DELETE /select-application/:id', () => c.delete(`/api/select-application/${app.id}`)],
    [
      'POST /document/:id/file',
      () =>
        c
          .post(`/api/document/${doc.id}/file`)
          .attach('file', PDF, { filename: 'p2.pdf', contentType: 'application/pdf' }),
    ],
    ['DELETE /document/:id/file', () => c.delete(`/api/document/${doc.id}/file`)],
    ['POST /student/submit', () => c.post('/api/student/submit')],
  ];
  const answers = [];
  for (const [name, send] of writes) {
    const res = await send();
    answers.push(`${name} ${res.status} ${res.body.message_key}`);
  }
  expect(answers).toEqual(writes.map(([name]) => `${name} 409 portalLocked`));
  // nothing changed
  expect((await c.get('/api/family').expect(200)).body.items).toHaveLength(1);
  expect((await c.get('/api/document').expect(200)).body.items[0]).toMatchObject({
    code: 'U',
    can_upload: false,
    can_remove: false,
  });
  expect((await c.get('/api/select-application').expect(200)).body.locked).toBe(true);

  // the account stays changeable
  await c.put('/api/student/language', { language: 'en' }).expect(200);
  await c
    .put('/api/student/password', {
      current_password: s.password,
      password: 'Changed123',
      password_confirmation: 'Changed123',
    })
    .expect(200);

  // staff reopen: writes go through again
  await admin.post(`/api/students/${s.id}/reopen`).expect(200);
  expect((await c.get('/api/student').expect(200)).body.info_submitted_at).toBeNull();
  await c.put(`/api/family/${family.id}`, { name_en: 'Mother' }).expect(200);
  await c.delete(`/api/document/${doc.id}/file`).expect(200);
  await c.delete(`/api/select-application/${app.id}`).expect(204);
  await c.post('/api/student/submit').expect(200);
});

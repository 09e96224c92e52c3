/**
 * Choosing an intake and providing its documents in the portal (issue 14, deliverables 4 and 5): only the intakes
 * open today are offered (window includes Hong Kong's today), a choice creates the application and its checklist
 * as the staff side does (one per intake and subject, the subject opened by the intake), a choice is withdrawn
 * until staff send one of its documents; the checklist in the asked language with its letters and due dates; a
 * file put in through the portal moves the row P→U (seen by staff as U), replaced U→U, removed U→P, through the
 * staff's file service (content checks, audit with the student as actor).
 */
import {
  PORTAL_APPLICATION_FIELDS,
  PORTAL_DOCUMENT_FIELDS,
  PORTAL_INTAKE_FIELDS,
} from '../../src/modules/portal/portal-answers';
import { createTestApp, signedInAdmin, type Client, type TestApp } from '../harness';
import { auditOf, checklist, hkDay, PDF } from '../students/applications-helpers';
import { intakeWindow, portalStudent } from './portal-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

const keys = (row: object) => Object.keys(row).sort();

function uploadVia(client: Client, id: number, filename = 'passport.pdf') {
  return client
    .post(`/api/document/${id}/file`)
    .attach('file', PDF, { filename, contentType: 'application/pdf' });
}

describe('select application', () => {
  it('offers the intakes open today only, with their school, subjects and deadline', async () => {
    const open = await intakeWindow(admin, { start: -3, deadline: 20 });
    const lastDay = await intakeWindow(admin, { start: -30, deadline: 0 });
    const closed = await intakeWindow(admin, { start: -30, deadline: -1 });
    const later = await intakeWindow(admin, { start: 1, deadline: 40 });
    const s = await portalStudent(t);
    const res = await s.client.get('/api/select-application').expect(200);
    const ids = res.body.intakes.map((i: Row) => i.id);
    expect(ids).toEqual(expect.arrayContaining([open.intake.id, lastDay.intake.id]));
    expect(ids).not.toContain(closed.intake.id);
    expect(ids).not.toContain(later.intake.id);
    const shown = res.body.intakes.find((i: Row) => i.id === open.intake.id);
    expect(keys(shown)).toEqual([...PORTAL_INTAKE_FIELDS].sort());
    expect(shown).toMatchObject({
      school_id: open.school.id,
      school_name_en: open.school.name_en,
      application_deadline: hkDay(20),
      subjects: [expect.objectContaining({ id: open.subject.id, name_en: open.subject.name_en })],
    });
    expect(res.body.choices).toEqual([]);
    expect(res.body.locked).toBe(false);

    const refused = await s.client.post('/api/select-application', {
      admission_id: closed.intake.id,
      subject_id: closed.subject.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error_keys.admission_id[0].key).toBe('portalIntakeNotOpen');
    const notOffered = await s.client.post('/api/select-application', {
      admission_id: open.intake.id,
      subject_id: closed.subject.id,
    });
    expect(notOffered.status).toBe(422);
    expect(notOffered.body.error_keys.subject_id[0].key).toBe('subjectNotOfIntake');
  });

  it('creates the application and its checklist as staff do, once per intake and subject; withdraws it', async () => {
    const { intake, subject, school } = await intakeWindow(admin, {
      start: -1,
      deadline: 10,
      documents: ['Passport', 'Transcript', 'Photo'],
    });
    const s = await portalStudent(t);
    const chosen = await s.client.post('/api/select-application', {
      admission_id: intake.id,
      subject_id: subject.id,
    });
    expect(chosen.status).toBe(201);
    expect(keys(chosen.body)).toEqual([...PORTAL_APPLICATION_FIELDS].sort());
    expect(chosen.body).toMatchObject({ school_id: school.id, status: 'draft', can_withdraw: true });
    const rows = await checklist(admin, chosen.body.id);
    expect(rows.map((r) => [r.name_en, r.code])).toEqual([
      ['Passport', 'P'],
      ['Transcript', 'P'],
      ['Photo', 'P'],
    ]);
    const [created] = (await auditOf(t, 'student_application', chosen.body.id)).filter(
      (a) => a.action === 'create',
    );
    expect(created).toMatchObject({ actor_type: 'student', actor_id: s.id });
    const twice = await s.client.post('/api/select-application', {
      admission_id: intake.id,
      subject_id: subject.id,
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.subject_id).toEqual(['This Data is already exist.']);

    const apps = await s.client.get('/api/application').expect(200);
    expect(apps.body.items).toHaveLength(1);
    expect(keys(apps.body.items[0])).toEqual([...PORTAL_APPLICATION_FIELDS].sort());
    expect(apps.body.items[0]).toMatchObject({ application_deadline: hkDay(10), subject_id: subject.id });

    await s.client.delete(`/api/select-application/${chosen.body.id}`).expect(204);
    expect(await t.db('student_applications').where({ id: chosen.body.id }).first()).toBeUndefined();
    expect(await t.db('application_documents').where({ application_id: chosen.body.id })).toEqual([]);
  });
});

describe('documents', () => {
  it('lists the checklist in the asked language; a file moves P→U (staff see U), U→U, U→P; staff’s submit ends it', async () => {
    const { intake, subject, school } = await intakeWindow(admin, {
      start: -1,
      deadline: 15,
      documents: ['Passport', 'Transcript'],
    });
    const s = await portalStudent(t);
    const app = (
      await s.client
        .post('/api/select-application', { admission_id: intake.id, subject_id: subject.id })
        .expect(201)
    ).body;
    const zh = await s.client.get('/api/document?locale=zh_HK').expect(200);
    expect(zh.body.items.map((d: Row) => [d.name, d.code, d.due_date])).toEqual([
      ['Passport（中）', 'P', hkDay(15)],
      ['Transcript（中）', 'P', hkDay(15)],
    ]);
    expect(keys(zh.body.items[0])).toEqual([...PORTAL_DOCUMENT_FIELDS].sort());
    expect(zh.body.items[0]).toMatchObject({
      application_id: app.id,
      school_name: school.name_zh,
      admission_name: intake.name_zh,
      subject_name: subject.name_zh,
      file_url: null,
    });
    const en = await s.client.get('/api/document?locale=en').expect(200);
    const [passport, transcript] = en.body.items;
    expect(passport).toMatchObject({ name: 'Passport', can_upload: true, can_remove: false });
    expect((await s.client.get('/api/document?locale=ko')).status).toBe(422);

    // the staff's content checks apply
    const fake = await s.client
      .post(`/api/document/${passport.id}/file`)
      .attach('file', Buffer.from('not a pdf at all'), { filename: 'x.pdf', contentType: 'application/pdf' });
    expect(fake.status).toBe(422);

    const up = await uploadVia(s.client, passport.id);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      code: 'U',
      status: 'uploaded',
      file_name: 'passport.pdf',
      can_remove: true,
    });
    const staffRows = await checklist(admin, app.id);
    expect(staffRows.find((r) => r.id === passport.id)).toMatchObject({
      code: 'U',
      file_name: 'passport.pdf',
    });
    const [audit] = (await auditOf(t, 'application_document', passport.id)).filter(
      (a) => a.action === 'upload_file',
    );
    expect(audit).toMatchObject({ actor_type: 'student', actor_id: s.id });
    const file = await t
      .db('files')
      .where({ owner_type: 'application_document', owner_id: passport.id })
      .first();
    expect(file.uploaded_by_student_id).toBe(s.id);
    const download = await s.client.get(up.body.file_url).expect(200);
    expect(download.headers['content-disposition']).toContain('passport.pdf');

    // replaced: U→U, the old file gone
    const again = await uploadVia(s.client, passport.id, 'passport-2.pdf');
    expect(again.body).toMatchObject({ code: 'U', file_name: 'passport-2.pdf' });
    expect(await t.db('files').where({ id: file.id }).first()).toBeUndefined();

    // removed: U→P
    const removed = await s.client.delete(`/api/document/${passport.id}/file`).expect(200);
    expect(removed.body).toMatchObject({ code: 'P', file_name: null, can_upload: true });
    expect((await s.client.delete(`/api/document/${passport.id}/file`)).status).toBe(409);

    // staff send one to the school: the student can no longer change it, nor withdraw the choice
    await uploadVia(s.client, transcript.id).expect(200);
    await admin.post(`/api/application-documents/${transcript.id}/submit`).expect(200);
    const sent = (await s.client.get('/api/document').expect(200)).body.items.find(
      (d: Row) => d.id === transcript.id,
    );
    expect(sent).toMatchObject({ code: 'S', can_upload: false, can_remove: false });
    const refused = await uploadVia(s.client, transcript.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message_key).toBe('documentCannotUpload');
    expect((await s.client.delete(`/api/document/${transcript.id}/file`)).status).toBe(409);
    const apps = await s.client.get('/api/application').expect(200);
    expect(apps.body.items[0].can_withdraw).toBe(false);
    const withdraw = await s.client.delete(`/api/select-application/${app.id}`);
    expect(withdraw.status).toBe(409);
    expect(withdraw.body.message_key).toBe('portalWithdrawRefused');
  });
});

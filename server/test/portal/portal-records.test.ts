/**
 * The portal's own records (issue 14, deliverables 2, 3 and 7): the student's details with the staff form's
 * validation (patterns, duplicates answered "This Data is already exist."), the photo (images only, seen by staff
 * on the declared field), family members and education entries (dates in order), and every answer holding exactly
 * its allow-listed keys — no remark, consultant, branch or who wrote a row.
 */
import { PORTAL_STUDENT_FIELDS } from '../../src/modules/portal/portal.routes';
import { PORTAL_EDUCATION_FIELDS, PORTAL_FAMILY_FIELDS } from '../../src/modules/portal/portal-answers';
import { createTestApp, signedInAdmin, type Client, type TestApp } from '../harness';
import { auditOf, PDF } from '../students/applications-helpers';
import { portalStudent, PNG, type PortalStudent } from './portal-helpers';

let t: TestApp;
let admin: Client;
let s: PortalStudent;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  s = await portalStudent(t);
});

const keys = (row: object) => Object.keys(row).sort();

describe('the student’s own details', () => {
  it('answers only the allow-listed fields, never staff columns', async () => {
    await t.db('students').where({ id: s.id }).update({ remark: 'owes a deposit (staff only)' });
    const res = await s.client.get('/api/student').expect(200);
    expect(keys(res.body)).toEqual([...PORTAL_STUDENT_FIELDS].sort());
    expect(JSON.stringify(res.body)).not.toMatch(/owes a deposit|\$2[aby]\$|branch_id|consultant/);
    expect(res.body.must_change_password).toBe(false);
    expect(res.body.photo_url).toBeNull();
  });

  it('saves the spec’s fields with the staff form’s rules, audited with the student as actor', async () => {
    const res = await s.client.put('/api/student', {
      name_zh: '陳小明',
      name_ko: '진소명',
      passport_no: 'k1234567',
      birth_date: '2005-04-01',
      korean_level: 'beginner',
      application_email: 'Apply@Example.com',
      address: 'Flat 1, 2 Nathan Road',
    });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual([...PORTAL_STUDENT_FIELDS].sort());
    expect(res.body).toMatchObject({
      name_zh: '陳小明',
      passport_no: 'K1234567',
      application_email: 'apply@example.com',
      birth_date: '2005-04-01',
    });
    const [audit] = (await auditOf(t, 'student', s.id)).filter((a) => a.action === 'update');
    expect(audit).toMatchObject({ actor_type: 'student', actor_id: s.id });
    // staff see what the student wrote
    const staff = await admin.get(`/api/students/${s.id}`).expect(200);
    expect(staff.body.passport_no).toBe('K1234567');
  });

  it('refuses what the staff form refuses, and fields staff decide', async () => {
    const bad = await s.client.put('/api/student', { passport_no: 'K-12 34', birth_date: '2005-13-40' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error_keys).sort()).toEqual(['birth_date', 'passport_no']);
    for (const field of ['remark', 'branch_id', 'consultant_user_id', 'portal_email', 'info_submitted_at']) {
      const res = await s.client.put('/api/student', { [field]: field === 'branch_id' ? 1 : 'x' });
      expect(res.status).toBe(422);
    }
    const other = await portalStudent(t);
    await other.client.put('/api/student', { passport_no: 'DUP12345' }).expect(200);
    const dup = await s.client.put('/api/student', { passport_no: 'dup12345' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.passport_no).toEqual(['This Data is already exist.']);
  });

  it('takes a photo (images only), shows and removes it; staff see it on the declared field', async () => {
    const pdf = await s.client
      .post('/api/student/photo')
      .attach('file', PDF, { filename: 'me.pdf', contentType: 'application/pdf' });
    expect(pdf.status).toBe(422);
    const res = await s.client
      .post('/api/student/photo')
      .attach('file', PNG, { filename: 'me.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.photo_url).toBe('/api/student/photo');
    const shown = await s.client.get('/api/student/photo?inline=1').expect(200);
    expect(shown.headers['content-type']).toBe('image/png');
    const staff = await admin.get(`/api/students/${s.id}`).expect(200);
    expect(staff.body.photo_file_name).toBe('me.png');
    const [file] = await t.db('files').where({ id: staff.body.photo_file_id });
    expect(file).toMatchObject({ owner_type: 'student_photo', uploaded_by_student_id: s.id });
    const removed = await s.client.delete('/api/student/photo').expect(200);
    expect(removed.body.photo_url).toBeNull();
    expect(await t.db('files').where({ id: file.id }).first()).toBeUndefined();
    expect((await s.client.get('/api/student/photo')).status).toBe(404);
  });

  it('offers the forms’ option lists', async () => {
    const res = await s.client.get('/api/student/options').expect(200);
    expect(keys(res.body)).toEqual(
      [
        'education_level',
        'gender',
        'korean_level',
        'nationality',
        'relationship',
        'topik_level',
        'visa_type',
      ].sort(),
    );
  });
});

describe('family and education', () => {
  it('lists, adds, changes and removes family members with the allow-listed keys', async () => {
    const created = await s.client.post('/api/family', {
      relationship: 'father',
      name_en: 'CHAN Tai Man',
      phone: '+852 2345 6789',
      is_emergency_contact: true,
    });
    expect(created.status).toBe(201);
    expect(keys(created.body)).toEqual([...PORTAL_FAMILY_FIELDS].sort());
    expect(created.body.is_emergency_contact).toBe(true);
    const id = created.body.id;
    // written by the student: no staff user is named as its writer (the audit row names the student)
    expect(await t.db('student_family_members').where({ id }).first()).toMatchObject({
      student_id: s.id,
      created_by: null,
    });
    expect((await s.client.post('/api/family', { name_en: 'No relationship' })).status).toBe(422);
    expect(
      (await s.client.post('/api/family', { relationship: 'mother', name_en: 'X', student_id: 1 })).status,
    ).toBe(422);
    const changed = await s.client.put(`/api/family/${id}`, { occupation: 'Engineer' }).expect(200);
    expect(changed.body.occupation).toBe('Engineer');
    const list = await s.client.get('/api/family').expect(200);
    expect(list.body.items).toHaveLength(1);
    expect(keys(list.body.items[0])).toEqual([...PORTAL_FAMILY_FIELDS].sort());
    // staff see it under the student
    const staff = await admin.get(`/api/students/${s.id}/family`).expect(200);
    expect(staff.body.items.map((r: { id: number }) => r.id)).toEqual([id]);
    await s.client.delete(`/api/family/${id}`).expect(204);
    expect((await s.client.get('/api/family').expect(200)).body.items).toEqual([]);
  });

  it('keeps education dates in order and never shows staff’s remark', async () => {
    const bad = await s.client.post('/api/education', {
      level: 'primary',
      school_name: 'St Paul',
      start_date: '2015-09-01',
      end_date: '2010-07-01',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_keys.end_date[0].key).toBe('educationEndBeforeStart');
    const created = await s.client
      .post('/api/education', { level: 'primary', school_name: 'St Paul', start_date: '2010-09-01' })
      .expect(201);
    expect(keys(created.body)).toEqual([...PORTAL_EDUCATION_FIELDS].sort());
    await t
      .db('student_educations')
      .where({ id: created.body.id })
      .update({ remark: 'staff: check transcript' });
    const later = await s.client.put(`/api/education/${created.body.id}`, { end_date: '2009-01-01' });
    expect(later.status).toBe(422);
    expect((await s.client.put(`/api/education/${created.body.id}`, { remark: 'x' })).status).toBe(422);
    const list = await s.client.get('/api/education').expect(200);
    expect(JSON.stringify(list.body)).not.toContain('check transcript');
    expect(keys(list.body.items[0])).toEqual([...PORTAL_EDUCATION_FIELDS].sort());
  });
});

/**
 * A student's applications (issue 13): an intake of the chosen school opening the chosen subject, one application
 * per student + intake + subject, the checklist copied from the intake's in its order, the deadline and the
 * checklist's codes on every row (a fixed number of queries per page), moving to another intake while nothing was
 * provided, deletes refused while a document is with the school (else the checklist and its files go too), branch
 * scope, and the calendar's deadlines and pending documents. Real database, real files in a temporary UPLOAD_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFilesTestApp } from '../files/file-fixtures';
import { createBranch, signedInAdmin, type Client, type TestApp } from '../harness';
import { signIn } from '../resources/helpers';
import {
  applicationWithChecklist,
  checklist,
  createApplication,
  createIntake,
  createSchool,
  createStudent,
  createSubject,
  hkDay,
  postApplication,
  uploadInto,
} from './applications-helpers';

type Row = Record<string, any>;

let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;
let admin: Client;
let branchA: number;
let branchB: number;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
});
afterAll(() => cleanup());

const count = async (table: string, where: Row = {}) =>
  Number((await t.db(table).where(where).count({ n: '*' }).first())?.n);
const move = (client: Client, id: number, action: string) =>
  client.post(`/api/application-documents/${id}/${action}`);

describe('creating an application', () => {
  it('copies the intake’s checklist in the intake’s order (names, type, required, order), every row pending', async () => {
    const school = await createSchool(admin);
    const subject = await createSubject(admin, school.id);
    const intake = await createIntake(admin, school.id, {
      subjectIds: [subject.id],
      documents: ['Passport', 'Transcript', 'Study plan'],
    });
    // reordered on the intake: Study plan, Passport, Transcript
    const docs = intake.documents;
    await admin
      .put(`/api/schools/${school.id}/admissions/${intake.id}`)
      .send({ documents: [docs[2], docs[0], docs[1]] })
      .expect(200);
    const student = await createStudent(admin, branchA);
    const application = await createApplication(admin, student.id, {
      school_id: school.id,
      admission_id: intake.id,
      subject_id: subject.id,
    });
    expect(application).toMatchObject({ status: 'draft', documents_summary: 'P 3 · U 0 · S 0 · N 0 · C 0' });
    const rows = await checklist(admin, application.id);
    expect(rows.map((r) => [r.name_en, r.name_zh, r.is_required, r.status, r.code])).toEqual([
      ['Study plan', 'Study plan（中）', true, 'pending', 'P'],
      ['Passport', 'Passport（中）', true, 'pending', 'P'],
      ['Transcript', 'Transcript（中）', false, 'pending', 'P'],
    ]);
    expect(rows.map((r) => r.admission_document_id)).toEqual([docs[2].id, docs[0].id, docs[1].id]);
    const stored = await t.db('admission_documents').where({ admission_id: intake.id }).orderBy('sort_order');
    expect(rows.map((r) => r.sort_order)).toEqual(stored.map((d: Row) => d.sort_order));
    // at its own path too, with its application as its lookup name
    const one = await admin.get(`/api/application-documents/${rows[0].id}`).expect(200);
    expect(one.body).toMatchObject({ application_id: application.id, file_name: null, submitted_at: null });
  });

  it('refuses a subject the intake does not open (422 subjectNotOfIntake) and writes nothing', async () => {
    const school = await createSchool(admin);
    const opened = await createSubject(admin, school.id);
    const notOpened = await createSubject(admin, school.id);
    const intake = await createIntake(admin, school.id, { subjectIds: [opened.id], documents: ['Passport'] });
    const student = await createStudent(admin, branchA);
    const [applications, documents] = [
      await count('student_applications'),
      await count('application_documents'),
    ];
    const res = await postApplication(admin, student.id, {
      school_id: school.id,
      admission_id: intake.id,
      subject_id: notOpened.id,
    });
    expect(res.status).toBe(422);
    expect(res.body.error_keys.subject_id[0].key).toBe('subjectNotOfIntake');
    expect(res.body.errors.subject_id).toEqual(['The chosen admission time does not open this subject.']);
    expect([await count('student_applications'), await count('application_documents')]).toEqual([
      applications,
      documents,
    ]);
  });

  it('refuses an intake of another school (422 intakeNotOfSchool) and writes nothing', async () => {
    const school = await createSchool(admin);
    const other = await createSchool(admin);
    const subject = await createSubject(admin, other.id);
    const theirs = await createIntake(admin, other.id, { subjectIds: [subject.id], documents: ['Passport'] });
    const student = await createStudent(admin, branchA);
    const before = await count('student_applications');
    const res = await postApplication(admin, student.id, {
      school_id: school.id,
      admission_id: theirs.id,
      subject_id: subject.id,
    });
    expect(res.status).toBe(422);
    expect(res.body.error_keys.admission_id[0].key).toBe('intakeNotOfSchool');
    expect(await count('student_applications')).toBe(before);
  });

  it('refuses a second application of the student to the same intake and subject (422 duplicate)', async () => {
    const { school, subject, intake, student } = await applicationWithChecklist(admin, branchA, ['Passport']);
    const body = { school_id: school.id, admission_id: intake.id, subject_id: subject.id };
    const before = [await count('student_applications'), await count('application_documents')];
    const dup = await postApplication(admin, student.id, { ...body, priority: 2 });
    expect(dup.status).toBe(422);
    expect(dup.body.code).toBe('duplicate');
    expect(dup.body.errors).toEqual({ subject_id: ['This Data is already exist.'] });
    expect([await count('student_applications'), await count('application_documents')]).toEqual(before);
    // another student may apply to the same intake and subject
    const other = await createStudent(admin, branchA);
    await postApplication(admin, other.id, body).expect(201);
  });
});

describe('an application’s rows', () => {
  it('show the intake’s deadline and the checklist’s codes, with the same number of queries for 2 rows or 6', async () => {
    const student = await createStudent(admin, branchA);
    const made: Row[] = [];
    for (let i = 0; i < 6; i++) {
      const { application } = await applicationWithChecklist(admin, branchA, ['Passport', 'Photo', 'Plan'], {
        student,
        deadline: `2031-0${i + 1}-15`,
      });
      made.push(application);
    }
    const [first] = await checklist(admin, made[0].id);
    await uploadInto(admin, first.id).expect(200);
    const list = await admin.get(`/api/students/${student.id}/applications?per_page=100`).expect(200);
    const byId = new Map(list.body.items.map((r: Row) => [r.id, r]));
    expect(byId.get(made[0].id)).toMatchObject({
      application_deadline: '2031-01-15',
      documents_summary: 'P 2 · U 1 · S 0 · N 0 · C 0',
    });
    expect(byId.get(made[5].id)).toMatchObject({ application_deadline: '2031-06-15' });

    // another student with two applications: a page of 2 costs the queries a page of 6 does
    const fewer = await createStudent(admin, branchA);
    for (let i = 0; i < 2; i++)
      await applicationWithChecklist(admin, branchA, ['Passport'], { student: fewer });
    const queriesFor = async (studentId: number, rows: number) => {
      const seen: string[] = [];
      const counter = (q: { sql?: string }) => {
        if (q.sql && /student_applications|application_documents|school_admissions/.test(q.sql))
          seen.push(q.sql);
      };
      t.db.on('query', counter);
      try {
        const res = await admin.get(`/api/students/${studentId}/applications?per_page=100`).expect(200);
        expect(res.body.items).toHaveLength(rows);
      } finally {
        t.db.removeListener('query', counter);
      }
      return seen.length;
    };
    const six = await queriesFor(student.id, 6);
    expect(six).toBeGreaterThan(0);
    expect(await queriesFor(fewer.id, 2)).toBe(six);
  });
});

describe('changing an application', () => {
  it('moves to another intake while every row is pending (checklist rebuilt), not once a row has left pending', async () => {
    const { school, subject, application } = await applicationWithChecklist(admin, branchA, [
      'Old A',
      'Old B',
    ]);
    const url = `/api/students/${application.student_id}/applications/${application.id}`;
    const next = await createIntake(admin, school.id, { subjectIds: [subject.id], documents: ['New X'] });
    const moved = await admin.put(url, { admission_id: next.id }).expect(200);
    expect(moved.body.documents_summary).toBe('P 1 · U 0 · S 0 · N 0 · C 0');
    const rows = await checklist(admin, application.id);
    expect(rows.map((r) => r.name_en)).toEqual(['New X']);

    await uploadInto(admin, rows[0].id).expect(200);
    const third = await createIntake(admin, school.id, { subjectIds: [subject.id], documents: ['Other'] });
    const refused = await admin.put(url, { admission_id: third.id, remark: 'moved' });
    expect(refused.status).toBe(422);
    expect(refused.body.error_keys.admission_id[0].key).toBe('applicationIntakeLocked');
    const after = (await admin.get(url).expect(200)).body;
    expect([after.admission_id, after.remark]).toEqual([next.id, null]);
    expect((await checklist(admin, application.id)).map((r) => [r.name_en, r.status])).toEqual([
      ['New X', 'uploaded'],
    ]);
    // another school's intake is refused for being another school's, whatever the checklist
    const elsewhere = await createSchool(admin);
    expect((await admin.put(url, { school_id: elsewhere.id })).body.error_keys.admission_id[0].key).toBe(
      'intakeNotOfSchool',
    );
    // the subject (one the intake opens), the status and the rest still change
    const second = await createSubject(admin, school.id);
    await admin
      .put(`/api/schools/${school.id}/admissions/${next.id}`)
      .send({ subject_ids: [subject.id, second.id] })
      .expect(200);
    await admin.put(url, { subject_id: second.id, status: 'submitted' }).expect(200);
  });
});

describe('deleting an application', () => {
  it('is refused while a document is with the school; otherwise its checklist and the checklist’s files go with it', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Passport', 'Photo']);
    const url = `/api/students/${application.student_id}/applications/${application.id}`;
    const [a, b] = await checklist(admin, application.id);
    const upA = await uploadInto(admin, a.id).expect(200);
    const upB = await uploadInto(admin, b.id).expect(200);
    await move(admin, a.id, 'submit').expect(200);
    const refused = await admin.delete(url);
    expect(refused.status).toBe(409);
    expect(refused.body.message_key).toBe('applicationDocumentsSubmitted');
    expect(await count('application_documents', { application_id: application.id })).toBe(2);

    await move(admin, a.id, 'unsubmit').expect(200);
    const files = await t.db('files').whereIn('id', [upA.body.file_id, upB.body.file_id]);
    expect(files).toHaveLength(2);
    await admin.delete(url).expect(204);
    expect(await count('student_applications', { id: application.id })).toBe(0);
    expect(await count('application_documents', { application_id: application.id })).toBe(0);
    expect(await t.db('files').whereIn('id', [upA.body.file_id, upB.body.file_id])).toEqual([]);
    for (const file of files) expect(fs.existsSync(path.join(uploadDir, file.path))).toBe(false);
    const audits = await t
      .db('audit_logs')
      .where({ entity: 'file', action: 'delete' })
      .whereIn('entity_id', [upA.body.file_id, upB.body.file_id]);
    expect(audits).toHaveLength(2);
  });
});

describe('branch scope (quality §15)', () => {
  it('answers 404 to another branch for a student’s applications, one application and its writes', async () => {
    const { school, subject, intake, student, application } = await applicationWithChecklist(admin, branchA, [
      'Passport',
    ]);
    const permissions = ['students.view', 'students.create', 'students.update', 'students.delete'];
    const other = await signIn(t, permissions, { branchId: branchB });
    const nested = `/api/students/${student.id}/applications`;
    await other.get(nested).expect(404);
    await other.get(`${nested}/${application.id}`).expect(404);
    await other.get(`/api/applications/${application.id}`).expect(404);
    await other.put(`${nested}/${application.id}`, { remark: 'x' }).expect(404);
    await other.delete(`${nested}/${application.id}`).expect(404);
    const before = await count('student_applications');
    const second = await createSubject(admin, school.id);
    await admin
      .put(`/api/schools/${school.id}/admissions/${intake.id}`)
      .send({ subject_ids: [subject.id, second.id] })
      .expect(200);
    expect(
      (
        await postApplication(other, student.id, {
          school_id: school.id,
          admission_id: intake.id,
          subject_id: second.id,
        })
      ).status,
    ).toBe(404);
    expect(await count('student_applications')).toBe(before);
    const found = await other.get('/api/applications/lookup?limit=50').expect(200);
    expect(found.body.map((r: Row) => r.id)).not.toContain(application.id);
    expect((await t.db('student_applications').where({ id: application.id }).first()).remark).toBeNull();

    const mine = await signIn(t, permissions, { branchId: branchA });
    await mine.get(`${nested}/${application.id}`).expect(200);
    await mine.get(`/api/applications/${application.id}`).expect(200);
    await postApplication(mine, student.id, {
      school_id: school.id,
      admission_id: intake.id,
      subject_id: second.id,
    }).expect(201);
  });
});

describe('the calendar: deadlines and documents still to send', () => {
  let near: Row;
  let nearStudent: Row;
  let nearSchool: Row;
  let far: Row;
  let passed: Row;
  let longPassed: Row;
  let theirs: Row;
  const range = `start=${hkDay(-20)}&end=${hkDay(40)}`;

  beforeAll(async () => {
    nearStudent = await createStudent(admin, branchA, {
      surname_en: 'CHAN',
      given_name_en: 'Tai Man',
      name_zh: '陳大文',
    });
    nearSchool = await createSchool(admin, { name_en: 'Yonsei University', name_zh: '延世大學' });
    ({ application: near } = await applicationWithChecklist(
      admin,
      branchA,
      ['Passport', 'Photo', 'Plan', 'Fee'],
      {
        deadline: hkDay(5),
        student: nearStudent,
        school: nearSchool,
      },
    ));
    // Passport sent, Photo uploaded (not sent), Plan cancelled, Fee pending: two still to send
    const [passport, photo, plan] = await checklist(admin, near.id);
    await uploadInto(admin, passport.id).expect(200);
    await move(admin, passport.id, 'submit').expect(200);
    await uploadInto(admin, photo.id).expect(200);
    await move(admin, plan.id, 'cancel').expect(200);
    ({ application: far } = await applicationWithChecklist(admin, branchA, ['Passport'], {
      deadline: hkDay(30),
    }));
    ({ application: passed } = await applicationWithChecklist(admin, branchA, ['Passport'], {
      deadline: hkDay(-3),
    }));
    ({ application: longPassed } = await applicationWithChecklist(admin, branchA, ['Passport'], {
      deadline: hkDay(-10),
    }));
    ({ application: theirs } = await applicationWithChecklist(admin, branchB, ['Passport'], {
      deadline: hkDay(5),
    }));
  });

  const feed = async (client: Client, language: 'en' | 'zh-HK' = 'en') => {
    const res = await client.get(`/api/calendars?${range}`).set('Accept-Language', language);
    expect(res.status).toBe(200);
    return res.body as { items: Row[]; sources: Row[] };
  };
  const entry = (body: { items: Row[] }, id: string) => body.items.find((e) => e.id === id);

  it('adds each application’s deadline, titled with the student and school, linking to the application tab', async () => {
    const body = await feed(admin);
    expect(entry(body, `student_application_deadline:${near.id}`)).toMatchObject({
      source: 'student_application_deadline',
      title: 'Application deadline: CHAN Tai Man — Yonsei University',
      start: hkDay(5),
      end: null,
      all_day: true,
      url: `/students/application/${nearStudent.id}`,
      record: { type: 'student_application', id: near.id },
      branch_id: branchA,
    });
    for (const app of [far, passed, longPassed, theirs])
      expect(entry(body, `student_application_deadline:${app.id}`)).toBeDefined();
    const zh = await feed(admin, 'zh-HK');
    expect(entry(zh, `student_application_deadline:${near.id}`)?.title).toBe('申請截止：陳大文 — 延世大學');
  });

  it('adds the documents still to send near a deadline (14 days ahead, 7 days after), not far from one', async () => {
    const body = await feed(admin);
    expect(entry(body, `student_pending_documents:${near.id}`)).toMatchObject({
      title: '2 documents pending: CHAN Tai Man — Yonsei University',
      detail: 'Photo, Fee',
      start: hkDay(5),
      url: `/students/application/${nearStudent.id}`,
      branch_id: branchA,
    });
    expect(entry(body, `student_pending_documents:${passed.id}`)?.title).toMatch(/^1 document pending: /);
    expect(entry(body, `student_pending_documents:${far.id}`)).toBeUndefined();
    expect(entry(body, `student_pending_documents:${longPassed.id}`)).toBeUndefined();
    const zh = await feed(admin, 'zh-HK');
    expect(entry(zh, `student_pending_documents:${near.id}`)).toMatchObject({
      title: '2 份文件未遞交：陳大文 — 延世大學',
      detail: 'Photo（中）、Fee（中）',
    });
  });

  it('shows a branch-scoped caller its own branch’s students only, and nothing to a caller without students.view', async () => {
    const scoped = await signIn(t, ['calendar.view', 'students.view'], { branchId: branchA });
    const body = await feed(scoped);
    const students = body.items.filter((e) => e.source.startsWith('student_'));
    expect(students.length).toBeGreaterThan(0);
    expect(students.every((e) => e.branch_id === branchA)).toBe(true);
    expect(entry(body, `student_application_deadline:${theirs.id}`)).toBeUndefined();
    expect(entry(body, `student_pending_documents:${theirs.id}`)).toBeUndefined();
    expect(entry(await feed(admin), `student_pending_documents:${theirs.id}`)?.branch_id).toBe(branchB);
    const viewer = await signIn(t, ['calendar.view', 'schools.view']);
    const plain = await feed(viewer);
    expect(plain.items.filter((e) => e.source.startsWith('student_'))).toEqual([]);
    expect(plain.sources.map((s) => s.key)).not.toContain('student_application_deadline');
  });
});

/**
 * `GET /api/{resource}/{id}?tab=…`, the spec's data call of a record page's tab (product-spec §2, api.md): the
 * record with the tab's related data under a key of its own (`{ ...record, tab: 'subject', subjects: { items,
 * total, page, per_page } }`), each list exactly what its own child route answers the same caller for its first
 * page (so the same branch scope and allow-listing, never more); an unknown tab is a 422 naming `tab`.
 */
import { ADMISSION_STATUSES } from '../../../shared/resources/students';
import { Client, createBranch, signedInAdmin, type TestApp, createTestApp } from '../harness';
import { attach } from '../files/file-helpers';
import {
  createApplication,
  createIntake,
  createSchool,
  createStudent,
  createSubject,
  PDF,
} from '../students/applications-helpers';
import { signIn } from './helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db, 'TABA');
  branchB = await createBranch(t.db, 'TABB');
});
afterAll(() => t.close());

async function ok(client: Client, url: string): Promise<Row> {
  const res = await client.get(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The record's own fields: its answer without the tab's keys. */
function recordOf(body: Row, keys: string[]): Row {
  const out = { ...body };
  for (const key of ['tab', ...keys]) delete out[key];
  return out;
}

describe('a school’s tabs', () => {
  let school: Row;
  beforeAll(async () => {
    school = await createSchool(admin);
    const subjects = [await createSubject(admin, school.id), await createSubject(admin, school.id)];
    await createIntake(admin, school.id, { subjectIds: subjects.map((s) => s.id) });
    const file = await attach(admin, 'school', school.id, PDF, 'brochure.pdf');
    expect(file.status).toBe(201);
  });

  it('answers each tab’s lists as their own routes do, under keys of their own', async () => {
    const plain = await ok(admin, `/api/schools/${school.id}`);
    const cases: [string, string, string][] = [
      ['subject', 'subjects', `/api/schools/${school.id}/subjects`],
      ['admission', 'admissions', `/api/schools/${school.id}/admissions`],
      ['attachment', 'attachments', `/api/files?owner_type=school&owner_id=${school.id}`],
    ];
    for (const [tab, key, route] of cases) {
      const body = await ok(admin, `/api/schools/${school.id}?tab=${tab}`);
      expect([tab, body.tab]).toEqual([tab, tab]);
      expect([tab, body[key]]).toEqual([tab, await ok(admin, route)]);
      expect(recordOf(body, [key])).toEqual(plain);
    }
    const subjects = (await ok(admin, `/api/schools/${school.id}?tab=subject`)).subjects;
    expect(subjects).toMatchObject({ total: 2, page: 1, per_page: 20 });
    expect((await ok(admin, `/api/schools/${school.id}?tab=attachment`)).attachments.items).toEqual([
      expect.objectContaining({ original_name: 'brochure.pdf' }),
    ]);
    // the record's own tab is the record
    const basic = await ok(admin, `/api/schools/${school.id}?tab=basic`);
    expect(basic).toEqual({ ...plain, tab: 'basic' });
  });

  it('refuses a tab the page does not have with a 422 naming it, and a hostile one likewise', async () => {
    for (const tab of ['nonsense', 'subjects', '__proto__', 'subject%00', 'a'.repeat(5000)]) {
      const res = await admin.get(`/api/schools/${school.id}?tab=${tab}`);
      expect([tab.slice(0, 20), res.status, res.body.code]).toEqual([tab.slice(0, 20), 422, 'validation']);
      expect(res.body.error_keys.tab).toBeDefined();
    }
    const twice = await admin.get(`/api/schools/${school.id}?tab=subject&tab=admission`);
    expect([twice.status, twice.body.code]).toEqual([422, 'validation']);
  });
});

describe('a student’s tabs', () => {
  let student: Row;
  let other: Row;
  let answered: Row;
  beforeAll(async () => {
    student = await createStudent(admin, branchA);
    other = await createStudent(admin, branchB);
    const school = await createSchool(admin);
    const subjects = [await createSubject(admin, school.id), await createSubject(admin, school.id)];
    const intake = await createIntake(admin, school.id, { subjectIds: subjects.map((s) => s.id) });
    const applications = [];
    for (const subject of subjects)
      applications.push(
        await createApplication(admin, student.id, {
          school_id: school.id,
          admission_id: intake.id,
          subject_id: subject.id,
        }),
      );
    // the school has answered one of them: the admission tab shows that one alone
    const offered = await admin.put(`/api/students/${student.id}/applications/${applications[1].id}`, {
      status: 'offered',
      offer_date: '2031-03-01',
    });
    expect(offered.status).toBe(200);
    answered = offered.body;
    await admin
      .post(`/api/students/${student.id}/family`, { relationship: 'father', name_en: 'Chan Senior' })
      .expect(201);
    await admin
      .post(`/api/students/${student.id}/educations`, { level: 'secondary', school_name: 'Harbour College' })
      .expect(201);
    await admin
      .post(`/api/students/${student.id}/grade-reports`, { school_id: school.id, year: 2031, term: 'spring' })
      .expect(201);
    expect((await attach(admin, 'student', student.id, PDF, 'passport.pdf')).status).toBe(201);
  });

  const routes = (id: number): [string, string, string][] => [
    ['family', 'family', `/api/students/${id}/family`],
    ['family', 'educations', `/api/students/${id}/educations`],
    ['application', 'applications', `/api/students/${id}/applications`],
    ['grade-report', 'grade_reports', `/api/students/${id}/grade-reports`],
    ['attachment', 'attachments', `/api/files?owner_type=student&owner_id=${id}`],
  ];

  it('answers the family (members and education), applications, grade reports and attachments as their routes do', async () => {
    const plain = await ok(admin, `/api/students/${student.id}`);
    for (const [tab, key, route] of routes(student.id)) {
      const body = await ok(admin, `/api/students/${student.id}?tab=${tab}`);
      expect([tab, key, body.tab, body[key]]).toEqual([tab, key, tab, await ok(admin, route)]);
      expect([tab, key, body[key].total]).toEqual([tab, key, tab === 'application' ? 2 : 1]);
    }
    const family = await ok(admin, `/api/students/${student.id}?tab=family`);
    expect(recordOf(family, ['family', 'educations'])).toEqual(plain);
  });

  it('answers the admission tab with the applications the school has answered', async () => {
    const body = await ok(admin, `/api/students/${student.id}?tab=admission`);
    expect(body.admissions).toMatchObject({ total: 1, page: 1 });
    expect(body.admissions.items).toEqual([
      (await ok(admin, `/api/students/${student.id}/applications`)).items.find(
        (row: Row) => row.id === answered.id,
      ),
    ]);
    expect(ADMISSION_STATUSES).toContain(body.admissions.items[0].status);
  });

  it('keeps a branch-scoped caller to its branch: another branch’s student is not found, whatever the tab', async () => {
    const scoped = await signIn(t, ['students.view'], { branchId: branchA });
    for (const [tab, key, route] of routes(student.id)) {
      const body = await ok(scoped, `/api/students/${student.id}?tab=${tab}`);
      expect([tab, key, body[key]]).toEqual([tab, key, await ok(scoped, route)]);
    }
    for (const tab of ['family', 'application', 'admission', 'attachment']) {
      const res = await scoped.get(`/api/students/${other.id}?tab=${tab}`);
      expect([tab, res.status]).toEqual([tab, 404]);
    }
  });
});

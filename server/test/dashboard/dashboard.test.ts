/**
 * The dashboard's data call (`GET /api/dashboard/show`, issue 29 item 5), on SQLite and MariaDB: only with
 * `dashboard.view`; this year's applications by status, the documents still to send before a deadline near today
 * and the students registered per Hong Kong month, each checked against the seeded rows counted here, for an admin
 * and for a branch user who must not count another branch's; each figure's link only for whoever may open it.
 */
import { addDays, hongKongDay } from '../../../shared/reports/criteria';
import { APPLICATION_STATUSES } from '../../../shared/resources/students';
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createBranch, createTestApp, signedInAdmin, type TestApp } from '../harness';
import { signIn } from '../resources/helpers';
import {
  createApplication,
  createIntake,
  createSchool,
  createStudent,
  createSubject,
} from '../students/applications-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
const today = hongKongDay();
const HOUR = 3_600_000;

/** A UTC DATETIME at Hong Kong noon of `day`. */
const noonOf = (day: string) => toDbDateTime(Date.parse(`${day}T04:00:00Z`));
const hkMonth = (utc: string) =>
  new Date(Date.parse(`${String(utc).replace(' ', 'T')}Z`) + 8 * HOUR).toISOString().slice(0, 7);

async function show(client: Client, status = 200): Promise<Row> {
  const res = await client.get('/api/dashboard/show').set('Accept-Language', 'en');
  expect([res.status, res.status === status ? null : res.body]).toEqual([status, null]);
  return res.body;
}
const figure = (body: Row, key: string) => body.figures.find((f: Row) => f.key === key);

/** The first day of the month `months` before this one (Hong Kong). */
function monthsAgo(months: number): string {
  const d = new Date(`${today.slice(0, 7)}-15T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
  const school = await createSchool(admin);
  const subject = await createSubject(admin, school.id);
  const near = await createIntake(admin, school.id, {
    subjectIds: [subject.id],
    deadline: addDays(today, 5),
    documents: ['Passport', 'Transcript', 'Photo'],
  });
  const far = await createIntake(admin, school.id, {
    subjectIds: [subject.id],
    deadline: addDays(today, 40),
    documents: ['Passport'],
  });
  // students registered in several months (one 13 months ago: outside the series), with applications this year
  // and last year, to the near and the far intake
  const plan: {
    branch: number;
    months: number;
    apply?: { intake: Row; status: string; lastYear?: boolean }[];
  }[] = [
    {
      branch: branchA,
      months: 0,
      apply: [
        { intake: near, status: 'draft' },
        { intake: far, status: 'submitted' },
      ],
    },
    { branch: branchA, months: 2, apply: [{ intake: near, status: 'offered' }] },
    { branch: branchB, months: 2, apply: [{ intake: near, status: 'enrolled' }] },
    { branch: branchB, months: 5, apply: [{ intake: far, status: 'offered', lastYear: true }] },
    { branch: branchA, months: 11 },
    { branch: branchA, months: 13 },
  ];
  for (const p of plan) {
    const student = await createStudent(admin, p.branch);
    await t
      .db('students')
      .where({ id: student.id })
      .update({ created_at: noonOf(monthsAgo(p.months)) });
    for (const a of p.apply ?? []) {
      const made = await createApplication(admin, student.id, {
        school_id: school.id,
        admission_id: a.intake.id,
        subject_id: subject.id,
        status: a.status,
      });
      if (a.lastYear)
        await t
          .db('student_applications')
          .where({ id: made.id })
          .update({ created_at: noonOf(`${Number(today.slice(0, 4)) - 1}-06-15`) });
    }
  }
  // one of the first student's near documents is sent already: two are still to send
  const first = await t.db('student_applications').where({ admission_id: near.id }).orderBy('id').first('id');
  const doc = await t
    .db('application_documents')
    .where({ application_id: first.id })
    .orderBy('id')
    .first('id');
  await t.db('application_documents').where({ id: doc.id }).update({ status: 'submitted' });
});
afterAll(() => t.close());

/** What the figures should say, counted here from the rows as stored, for the students `keep` keeps. */
async function expected(keep: (branchId: number) => boolean) {
  const students = (await t.db('students').select('id', 'branch_id', 'created_at')).filter((s: Row) =>
    keep(s.branch_id),
  );
  const ids = new Set(students.map((s: Row) => s.id));
  const applications = (await t.db('student_applications').select('*')).filter((a: Row) =>
    ids.has(a.student_id),
  );
  const year = today.slice(0, 4);
  const byStatus = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, 0]));
  for (const a of applications) {
    const day = new Date(Date.parse(`${String(a.created_at).replace(' ', 'T')}Z`) + 8 * HOUR).toISOString();
    if (day.startsWith(year)) byStatus[a.status]++;
  }
  const perMonth: Record<string, number> = {};
  for (const s of students) perMonth[hkMonth(s.created_at)] = (perMonth[hkMonth(s.created_at)] ?? 0) + 1;
  const intakes = await t.db('school_admissions').select('id', 'application_deadline');
  const near = new Set(
    intakes
      .filter((i: Row) => {
        const d = String(i.application_deadline).slice(0, 10);
        return d >= addDays(today, -7) && d <= addDays(today, 14);
      })
      .map((i: Row) => i.id),
  );
  const nearApps = applications.filter((a: Row) => near.has(a.admission_id)).map((a: Row) => a.id);
  const open = nearApps.length
    ? await t
        .db('application_documents')
        .whereIn('application_id', nearApps)
        .whereIn('status', ['pending', 'uploaded', 'unsubmitted'])
        .select('application_id')
    : [];
  return {
    byStatus,
    perMonth,
    pending: open.length,
    pendingApplications: new Set(open.map((d: Row) => d.application_id)).size,
  };
}

describe('GET /api/dashboard/show', () => {
  it('needs dashboard.view; each figure needs its own key', async () => {
    await show(await signIn(t, ['students.view']), 403);
    expect((await show(await signIn(t, ['dashboard.view']))).figures).toEqual([]);
  });

  it('answers the students’ figures for every branch, each with the report that explains it', async () => {
    const body = await show(admin);
    expect(body.today).toBe(today);
    expect(body.figures.map((f: Row) => [f.key, f.kind])).toEqual([
      // the money figures (money-figures.test.ts) come first
      ['month_invoiced', 'money'],
      ['month_received', 'money'],
      ['month_outstanding', 'money'],
      ['overdue_invoices', 'money'],
      ['receipts_awaiting_approval', 'money'],
      ['month_invoiced_series', 'money_series'],
      ['applications_by_status', 'counts'],
      ['pending_documents', 'list'],
      ['new_students', 'series'],
    ]);
    const want = await expected(() => true);
    const statuses = figure(body, 'applications_by_status');
    expect(Object.fromEntries(statuses.data.items.map((i: Row) => [i.key, i.value]))).toEqual(want.byStatus);
    expect(statuses.data.items.find((i: Row) => i.key === 'offered').label).toBe('Offered');
    expect(statuses.link).toBe('/reports/schools/school-result?applied_preset=this_year');

    const pending = figure(body, 'pending_documents');
    expect(pending.data.total).toBe(want.pending);
    expect(want.pending).toBe(2 + 3 + 3);
    expect(pending.data.items.length).toBe(want.pendingApplications);
    expect(pending.data.items[0]).toMatchObject({ date: addDays(today, 5), value: 2 });
    expect(pending.data.items[0].url).toMatch(/^\/students\/application\/\d+$/);
    expect(pending.link).toBe(
      `/reports/calendar-result?source=student_pending_documents&date_from=${addDays(today, -7)}&date_to=${addDays(today, 14)}`,
    );

    const series = figure(body, 'new_students');
    expect(series.data.points.length).toBe(12);
    expect(series.data.points[11].period).toBe(today.slice(0, 7));
    expect(series.data.points.map((p: Row) => p.value)).toEqual(
      series.data.points.map((p: Row) => want.perMonth[p.period] ?? 0),
    );
    expect(series.data.points.reduce((n: number, p: Row) => n + p.value, 0)).toBe(5);
    expect(series.link).toMatch(
      /^\/reports\/students\/student-result\?group_by=month&created_from=\d{4}-\d{2}-01&created_to=/,
    );
  });

  it('counts a branch user’s own branch only, and leaves out links it may not open', async () => {
    const own = await signIn(t, ['dashboard.view', 'students.view'], { branchId: branchB });
    const body = await show(own);
    const want = await expected((branchId) => branchId === branchB);
    expect(
      Object.fromEntries(figure(body, 'applications_by_status').data.items.map((i: Row) => [i.key, i.value])),
    ).toEqual(want.byStatus);
    expect(figure(body, 'pending_documents').data.total).toBe(want.pending);
    expect(want.pending).toBe(3);
    expect(figure(body, 'new_students').data.points.reduce((n: number, p: Row) => n + p.value, 0)).toBe(2);
    expect(body.figures.map((f: Row) => f.link)).toEqual([null, null, null]);
  });
});

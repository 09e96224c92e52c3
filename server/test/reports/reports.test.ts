/**
 * The reports without money (issue 29, items 1–2): students, schools and calendar, on SQLite and MariaDB. Each
 * report's figures are checked against an independent computation over the seeded rows (read plainly and counted
 * here, in Hong Kong days), for an admin and for a branch user who must not see another branch's rows; each file
 * read back equals the screen's rows; the criteria are checked (422 on the parameter, never 500), a file needs
 * `reports.export`, a PDF past its rows is refused.
 */
import { calendarReport } from '../../../shared/reports/calendar';
import { presetRange, hongKongDay } from '../../../shared/reports/criteria';
import { reportKeys, viewColumns, type ReportDefinition } from '../../../shared/reports/definition';
import schoolsEn from '../../../shared/reports/locales/en.json';
import schoolsZh from '../../../shared/reports/locales/zh_HK.json';
import { schoolsReport, OFFERED_STATUSES } from '../../../shared/reports/schools';
import { studentsReport } from '../../../shared/reports/students';
import { reportLimits } from '../../src/modules/reports/reports.service';
import { Client, createBranch, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { pdfText } from '../pdf-text';
import { download, readCsv, readXlsx, signIn } from '../resources/helpers';
import {
  createApplication,
  createIntake,
  createSchool,
  createStudent,
  createSubject,
} from '../students/applications-helpers';
import { optionValue } from '../students/students-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
let consultantA: number;
let consultantB: number;
const categories: number[] = [];
const schools: Row[] = [];
const intakes: Row[] = [];

const STUDENTS_2030 = '/api/reports/students/student?created_from=2030-01-01&created_to=2030-12-31';
const SCHOOLS_2030 = '/api/reports/schools/school?applied_from=2030-01-01&applied_to=2030-12-31';

/** The Hong Kong day of a stored UTC DATETIME. */
const hkDay = (utc: string) =>
  new Date(Date.parse(`${utc.replace(' ', 'T')}Z`) + 8 * 3_600_000).toISOString().slice(0, 10);

function label(key: string, language: 'en' | 'zh_HK'): string {
  let node: any = language === 'en' ? schoolsEn : schoolsZh;
  for (const part of key.split('.')) node = node?.[part];
  if (typeof node !== 'string') throw new Error(`no string ${key}`);
  return node;
}

async function get(client: Client, url: string, status = 200, language: 'en' | 'zh-HK' = 'en'): Promise<Row> {
  const res = await client.get(url).set('Accept-Language', language);
  expect([url, res.status, res.status === status ? null : res.body]).toEqual([url, status, null]);
  return res.body;
}

/** Every row of a report, page after page. */
async function allRows(client: Client, url: string, perPage = 2): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; page < 100; page++) {
    const body = await get(client, `${url}&per_page=${perPage}&page=${page}`);
    out.push(...body.items);
    if (out.length >= body.total) break;
  }
  return out;
}

interface Spec {
  branch: 'A' | 'B';
  category: number | null;
  status: string | null;
  nationality: string | null;
  consultant: 'A' | 'B' | null;
  created: string;
  applications: { intake: number; status: string; created: string }[];
}

const specs: Spec[] = [];
const studentIds: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db, 'RPA');
  branchB = await createBranch(t.db, 'RPB');
  await t.db('branches').where({ id: branchA }).update({ name_en: 'Alpha', name_zh: '甲分行' });
  await t.db('branches').where({ id: branchB }).update({ name_en: 'Beta', name_zh: '乙分行' });
  const consultant = async (name: string, branch: number) => {
    const user = await createUser(t.db, { permissions: ['students.view'] });
    await t.db('users').where({ id: user.id }).update({ name, branch_id: branch });
    return user.id;
  };
  consultantA = await consultant('Ada Consultant', branchA);
  consultantB = await consultant('Ben Consultant', branchB);
  for (const [en, zh] of [
    ['Degree', '學位'],
    ['Language', '語言'],
  ]) {
    const res = await admin.post('/api/student-categories', { name_en: en, name_zh: zh }).expect(201);
    categories.push(res.body.id);
  }
  for (const value of ['applied', 'enrolled']) await optionValue(t.db, 'student_status', value);
  for (const value of ['HK', 'KR']) await optionValue(t.db, 'nationality', value);
  for (let i = 0; i < 2; i++) {
    const school = await createSchool(admin);
    const subject = await createSubject(admin, school.id);
    schools.push({ ...school, subject: subject.id });
  }
  for (const [school, deadline] of [
    [0, '2030-03-15'],
    [0, '2030-09-15'],
    [1, '2030-03-20'],
  ] as const) {
    const intake = await createIntake(admin, schools[school].id, {
      subjectIds: [schools[school].subject],
      deadline,
    });
    intakes.push({ ...intake, school: schools[school] });
  }
  const [cat1, cat2] = categories;
  specs.push(
    {
      branch: 'A',
      category: cat1,
      status: 'applied',
      nationality: 'HK',
      consultant: 'A',
      created: '2030-03-10 02:00:00',
      applications: [
        { intake: 0, status: 'offered', created: '2030-03-11 01:00:00' },
        { intake: 2, status: 'enrolled', created: '2030-03-12 01:00:00' },
      ],
    },
    // 16:30 UTC on 31 January is 00:30 on 1 February in Hong Kong
    {
      branch: 'A',
      category: cat2,
      status: 'enrolled',
      nationality: 'KR',
      consultant: null,
      created: '2030-01-31 16:30:00',
      applications: [{ intake: 0, status: 'draft', created: '2029-12-31 16:10:00' }],
    },
    {
      branch: 'B',
      category: cat1,
      status: 'applied',
      nationality: 'HK',
      consultant: 'B',
      created: '2030-06-01 00:00:00',
      applications: [
        { intake: 1, status: 'rejected', created: '2030-06-02 00:00:00' },
        { intake: 2, status: 'accepted', created: '2030-06-03 00:00:00' },
      ],
    },
    // 1 January 2031 in Hong Kong: outside 2030
    {
      branch: 'B',
      category: null,
      status: null,
      nationality: null,
      consultant: null,
      created: '2030-12-31 16:30:00',
      applications: [{ intake: 0, status: 'enrolled', created: '2030-12-31 16:30:00' }],
    },
    // 23:59:59 on 31 December 2029 in Hong Kong: outside 2030
    {
      branch: 'A',
      category: cat1,
      status: 'enrolled',
      nationality: 'KR',
      consultant: 'A',
      created: '2029-12-31 15:59:59',
      applications: [],
    },
    // midnight on 1 January 2030 in Hong Kong: inside
    {
      branch: 'A',
      category: cat2,
      status: 'applied',
      nationality: 'HK',
      consultant: 'A',
      created: '2029-12-31 16:00:00',
      applications: [{ intake: 1, status: 'submitted', created: '2030-01-05 00:00:00' }],
    },
  );
  for (const spec of specs) {
    const student = await createStudent(admin, spec.branch === 'A' ? branchA : branchB, {
      category_id: spec.category,
      status: spec.status,
      nationality: spec.nationality,
      consultant_user_id:
        spec.consultant === 'A' ? consultantA : spec.consultant === 'B' ? consultantB : null,
    });
    studentIds.push(student.id);
    await t.db('students').where({ id: student.id }).update({ created_at: spec.created });
    for (const application of spec.applications) {
      const intake = intakes[application.intake];
      const made = await createApplication(admin, student.id, {
        school_id: intake.school.id,
        admission_id: intake.id,
        subject_id: intake.school.subject,
        status: application.status,
      });
      await t.db('student_applications').where({ id: made.id }).update({ created_at: application.created });
    }
  }
});
afterAll(() => t.close());

/** The students and applications as stored, read plainly: what every figure below is computed from. */
async function stored(): Promise<{ students: Row[]; applications: Row[] }> {
  const students = await t.db('students').whereIn('id', studentIds).select('*');
  const applications = await t.db('student_applications').whereIn('student_id', studentIds).select('*');
  return { students, applications };
}

const inYear = (utc: string, year = '2030') => hkDay(String(utc)).startsWith(year);

describe('the students report', () => {
  it('lists the students registered in the range (Hong Kong days), with their applications, newest first', async () => {
    const { students, applications } = await stored();
    const expected = students
      .filter((s) => inYear(s.created_at))
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
      .map((s) => ({
        student_no: s.student_no,
        created: hkDay(s.created_at),
        applications: applications.filter((a) => a.student_id === s.id).length,
      }));
    expect(expected.length).toBe(4);
    const body = await get(admin, `${STUDENTS_2030}&per_page=100`);
    expect(
      body.items.map((r: Row) => ({
        student_no: r.student_no,
        created: r.created,
        applications: r.applications,
      })),
    ).toEqual(expected);
    expect(body.total).toBe(4);
    expect(body.totals).toEqual([
      { currency: null, students: 4, applications: expected.reduce((n, r) => n + r.applications, 0) },
    ]);
    expect(body.group_by).toBeNull();
    expect(body.ranges.created).toEqual({ from: '2030-01-01', to: '2030-12-31', preset: null });
    // the names of related records in the caller's language
    const first = body.items.find((r: Row) => r.student_no === expected[expected.length - 1].student_no);
    expect(first).toMatchObject({
      category: 'Language',
      status: 'applied (en)',
      nationality: 'HK (en)',
      branch: 'Alpha',
    });
    expect(first.url).toMatch(/^\/students\/basic\/\d+$/);
    const zh = await get(admin, `${STUDENTS_2030}&per_page=100`, 200, 'zh-HK');
    expect(zh.items.find((r: Row) => r.student_no === first.student_no)).toMatchObject({
      category: '語言',
      status: 'applied（中）',
      branch: '甲分行',
    });
    // pages of two give the same rows in the same order
    expect((await allRows(admin, STUDENTS_2030)).map((r) => r.student_no)).toEqual(
      expected.map((r) => r.student_no),
    );
    // sorted by number
    const byNumber = await get(admin, `${STUDENTS_2030}&per_page=100&sort=student_no`);
    expect(byNumber.items.map((r: Row) => r.student_no)).toEqual(expected.map((r) => r.student_no).sort());
  });

  it('narrows by branch, consultant, category, status, nationality and intake (applications to that intake)', async () => {
    const { students, applications } = await stored();
    const check = async (
      query: string,
      keep: (s: Row) => boolean,
      apps: (a: Row) => boolean = () => true,
    ) => {
      const body = await get(admin, `${STUDENTS_2030}&per_page=100&${query}`);
      const expected = students.filter((s) => inYear(s.created_at) && keep(s));
      expect([query, body.items.map((r: Row) => r.student_no).sort()]).toEqual([
        query,
        expected.map((s) => s.student_no).sort(),
      ]);
      const appCount = applications.filter(
        (a) => expected.some((s) => s.id === a.student_id) && apps(a),
      ).length;
      expect([query, body.totals[0]]).toEqual([
        query,
        { currency: null, students: expected.length, applications: appCount },
      ]);
      return body;
    };
    await check(`branch_id=${branchB}`, (s) => s.branch_id === branchB);
    await check(`consultant_user_id=${consultantA}`, (s) => s.consultant_user_id === consultantA);
    await check(`category_id=${categories[0]}`, (s) => s.category_id === categories[0]);
    await check('status=enrolled', (s) => s.status === 'enrolled');
    await check('nationality=HK', (s) => s.nationality === 'HK');
    const intake = intakes[0].id;
    const body = await check(
      `admission_id=${intake}`,
      (s) => applications.some((a) => a.student_id === s.id && a.admission_id === intake),
      (a) => a.admission_id === intake,
    );
    expect(body.names).toMatchObject({ admission_id: intakes[0].name_en });
    const named = await get(admin, `${STUDENTS_2030}&branch_id=${branchA}&status=enrolled`, 200, 'zh-HK');
    // a record by its name as its lookup gives it (a branch: its code and name)
    expect(named.names).toEqual({ branch_id: 'RPA 甲分行', status: 'enrolled（中）' });
  });

  it('groups by category, status, nationality, consultant, branch and month, counting students and applications', async () => {
    const { students, applications } = await stored();
    const inRange = students.filter((s) => inYear(s.created_at));
    const none = label('reports.common.none', 'en');
    const groupings: Record<string, (s: Row) => string> = {
      category: (s) =>
        s.category_id === categories[0] ? 'Degree' : s.category_id === categories[1] ? 'Language' : none,
      status: (s) => (s.status ? `${s.status} (en)` : none),
      nationality: (s) => (s.nationality ? `${s.nationality} (en)` : none),
      consultant: (s) =>
        s.consultant_user_id === consultantA
          ? 'Ada Consultant'
          : s.consultant_user_id === consultantB
            ? 'Ben Consultant'
            : none,
      branch: (s) => (s.branch_id === branchA ? 'Alpha' : 'Beta'),
      month: (s) => hkDay(s.created_at).slice(0, 7),
    };
    for (const [grouping, keyOf] of Object.entries(groupings)) {
      const expected = new Map<string, { students: number; applications: number }>();
      for (const s of inRange) {
        const entry = expected.get(keyOf(s)) ?? { students: 0, applications: 0 };
        entry.students++;
        entry.applications += applications.filter((a) => a.student_id === s.id).length;
        expected.set(keyOf(s), entry);
      }
      const body = await get(admin, `${STUDENTS_2030}&group_by=${grouping}&per_page=100`);
      expect(body.group_by).toBe(grouping);
      const got = Object.fromEntries(
        body.items.map((r: Row) => [r[grouping], { students: r.students, applications: r.applications }]),
      );
      expect([grouping, got]).toEqual([grouping, Object.fromEntries(expected)]);
      expect(body.total).toBe(expected.size);
      expect(body.totals).toEqual([
        {
          currency: null,
          students: inRange.length,
          applications: [...expected.values()].reduce((n, e) => n + e.applications, 0),
        },
      ]);
    }
    // Hong Kong months: 00:30 on 1 February is February's
    const months = await get(admin, `${STUDENTS_2030}&group_by=month&per_page=100`);
    expect(months.items.map((r: Row) => r.month)).toEqual(['2030-01', '2030-02', '2030-03', '2030-06']);
    // grouped rows sort by any of their columns
    const most = await get(admin, `${STUDENTS_2030}&group_by=branch&sort=-students`);
    expect(most.items.map((r: Row) => r.branch)).toEqual(['Alpha', 'Beta']);
  });

  it('shows a branch user its own branch only: another branch is not found', async () => {
    const own = await signIn(t, ['reports.students'], { branchId: branchB });
    const { students } = await stored();
    const body = await get(own, `${STUDENTS_2030}&per_page=100`);
    const expected = students.filter((s) => inYear(s.created_at) && s.branch_id === branchB);
    expect(body.items.map((r: Row) => r.student_no).sort()).toEqual(expected.map((s) => s.student_no).sort());
    expect(body.items.length).toBe(1);
    expect((await get(own, `${STUDENTS_2030}&group_by=branch`)).items.map((r: Row) => r.branch)).toEqual([
      'Beta',
    ]);
    await get(own, `${STUDENTS_2030}&branch_id=${branchA}`, 404);
    await get(own, `${STUDENTS_2030}&branch_id=${branchB}`, 200);
    // a consultant of another branch names nobody it may see
    const other = await get(own, `${STUDENTS_2030}&consultant_user_id=${consultantA}`);
    expect(other.items).toEqual([]);
    expect(other.names).toEqual({});
  });

  it('reads a preset in Hong Kong days, and the default preset when no dates are given', async () => {
    const today = hongKongDay();
    const year = presetRange('this_year', today);
    const preset = await get(admin, '/api/reports/students/student?created_preset=this_year');
    expect(preset.ranges.created).toEqual({ ...year, preset: 'this_year' });
    const fallback = await get(admin, '/api/reports/students/student');
    expect(fallback.ranges.created).toEqual({ ...year, preset: 'this_year' });
    // a preset wins over the days given with it
    const both = await get(admin, `${STUDENTS_2030}&created_preset=last_month`);
    expect(both.ranges.created).toEqual({ ...presetRange('last_month', today), preset: 'last_month' });
    // an open end reads every day on that side
    const open = await get(admin, '/api/reports/students/student?created_from=2030-01-01&per_page=100');
    expect(open.ranges.created).toEqual({ from: '2030-01-01', to: null, preset: null });
    expect(open.total).toBe(5);
  });

  it('refuses criteria it does not take, on the parameter, and changes nothing (never a 500)', async () => {
    const refused = async (query: string, field: string, key?: string) => {
      const body = await get(admin, `/api/reports/students/student?${query}`, 422);
      expect([query, Object.keys(body.error_keys ?? {})]).toEqual([query, [field]]);
      if (key) expect(body.error_keys[field][0].key).toBe(key);
    };
    await refused('created_from=2030-02-01&created_to=2030-01-31', 'created_to', 'dateRangeOrder');
    await refused('created_from=2030-02-30', 'created_from', 'invalidDate');
    await refused('created_preset=yesterday', 'created_preset');
    await refused('branch_id=abc', 'branch_id');
    await refused('branch_id=99999999999', 'branch_id');
    await refused('group_by=school', 'group_by');
    await refused('sort=name_en', 'sort', 'sortUnsupported');
    await refused('sort=bogus', 'sort');
    await refused('group_by=branch&sort=student_no', 'sort', 'sortUnsupported');
    await refused('per_page=101', 'per_page');
    await refused('is_admin=1', 'is_admin');
    // Express reads no brackets: an unknown parameter
    await refused('status[$ne]=x', 'status[$ne]');
    await refused('format=exe', 'format');
    // the farthest days a date takes, and a page past the end, are answered (nothing found), never a 500
    for (const query of [
      'created_from=0001-01-01&created_to=9999-12-31&group_by=month',
      'created_to=9999-12-31&page=100000&per_page=100',
    ])
      expect((await get(admin, `/api/reports/students/student?${query}`)).items).toEqual(expect.any(Array));
    await get(admin, '/api/reports/calendar?date_from=9999-12-01&date_to=9999-12-31', 200);
    await get(admin, '/api/reports/schools/school?applied_from=0001-01-01&applied_to=9999-12-31', 200);
    // a record that does not exist names nothing and finds nothing
    const nobody = await get(admin, `${STUDENTS_2030}&category_id=2147483647`);
    expect([nobody.total, nobody.names]).toEqual([0, {}]);
  });
});

/** A file's rows as the screen shows them: text as text, numbers as numbers, a date cell as its day. */
function cellText(cell: unknown): unknown {
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (cell === null || cell === undefined) return '';
  return cell;
}

function screenRow(def: ReportDefinition, view: string, row: Row): unknown[] {
  return viewColumns(def, view).map((c) => (row[c] === null || row[c] === undefined ? '' : row[c]));
}

describe('files of a report', () => {
  it('writes XLSX equal to the screen’s rows, headed in the screen’s language, dates as date cells', async () => {
    for (const [lang, accept] of [
      ['zh_HK', 'zh-HK'],
      ['en', 'en'],
    ] as const) {
      for (const groupBy of [null, 'status']) {
        const query = `${STUDENTS_2030}${groupBy ? `&group_by=${groupBy}` : ''}`;
        const screen = await get(admin, `${query}&per_page=100`, 200, accept);
        const res = await download(admin, `${query}&format=xlsx&lang=${lang}`);
        expect(res.status).toBe(200);
        expect(res.headers['content-disposition']).toMatch(
          /attachment; filename="report-student-\d{4}-\d{2}-\d{2}\.xlsx"/,
        );
        const [header, ...rows] = await readXlsx(res.body as unknown as Buffer);
        const view = groupBy ?? 'detail';
        expect(header).toEqual(
          viewColumns(studentsReport, view).map((c) => label(reportKeys.column(studentsReport, c), lang)),
        );
        expect(rows.map((r) => viewColumns(studentsReport, view).map((_c, i) => cellText(r[i])))).toEqual(
          screen.items.map((r: Row) => screenRow(studentsReport, view, r)),
        );
        if (!groupBy)
          expect(rows[0][viewColumns(studentsReport, 'detail').indexOf('created')]).toBeInstanceOf(Date);
      }
    }
  });

  it('writes CSV and a PDF of the same rows; a PDF past its rows is refused on the format', async () => {
    const screen = await get(admin, `${STUDENTS_2030}&per_page=100`);
    const csv = readCsv(
      (await download(admin, `${STUDENTS_2030}&format=csv&lang=en`)).body as unknown as Buffer,
    );
    expect(csv[0]).toEqual(
      viewColumns(studentsReport, 'detail').map((c) => label(reportKeys.column(studentsReport, c), 'en')),
    );
    expect(csv.slice(1)).toEqual(
      screen.items.map((r: Row) => screenRow(studentsReport, 'detail', r).map(String)),
    );
    const pdf = await download(admin, `${STUDENTS_2030}&format=pdf&lang=zh_HK`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.body as unknown as Buffer, { layout: true });
    for (const expected of [
      '學生分析',
      '登記日期：2030-01-01 – 2030-12-31',
      '合計',
      ...screen.items.map((r: Row) => r.student_no),
    ])
      expect(text).toContain(expected);
    reportLimits.pdfRows = 3;
    try {
      const refused = await get(admin, `${STUDENTS_2030}&format=pdf`, 422);
      expect(refused.error_keys.format[0]).toEqual({ key: 'reportPdfTooLong', params: { max: 3 } });
      await get(admin, `${STUDENTS_2030}&group_by=branch&format=pdf`, 200);
    } finally {
      reportLimits.pdfRows = 5_000;
    }
  });

  it('opens the pickers of a report’s criteria to whoever may open the report, in its branch scope', async () => {
    const reader = await signIn(t, ['reports.students'], { branchId: branchA });
    for (const path of ['/users', '/branches', '/student-categories', '/school-admissions'])
      await get(reader, `/api${path}/lookup?q=`, 200);
    // the branches it may pick: its own
    expect((await get(reader, '/api/branches/lookup')).map((c: Row) => c.id)).toEqual([branchA]);
    // a report that picks no school gives no school picker
    await get(reader, '/api/schools/lookup', 403);
    await get(await signIn(t, ['reports.schools']), '/api/schools/lookup', 200);
  });

  it('needs reports.export for a file, and the report group’s key for the rows', async () => {
    const reader = await signIn(t, ['reports.students']);
    await get(reader, STUDENTS_2030, 200);
    await get(reader, `${STUDENTS_2030}&format=xlsx`, 403);
    await get(reader, SCHOOLS_2030, 403);
    const exporter = await signIn(t, ['reports.students', 'reports.export']);
    expect((await download(exporter, `${STUDENTS_2030}&format=xlsx`)).status).toBe(200);
    // the export key alone opens no report
    await get(await signIn(t, ['reports.export']), STUDENTS_2030, 403);
  });
});

describe('the schools report', () => {
  /** Applications in 2030 (Hong Kong days) of the students `keep` keeps, counted per school and intake. */
  async function expectedCounts(keep: (s: Row) => boolean, byIntake = true) {
    const { students, applications } = await stored();
    const out = new Map<string, { applications: number; offers: number; enrolments: number }>();
    for (const a of applications) {
      const student = students.find((s) => s.id === a.student_id)!;
      if (!inYear(a.created_at) || !keep(student)) continue;
      const key = byIntake ? `${a.school_id}:${a.admission_id}` : `${a.school_id}`;
      const entry = out.get(key) ?? { applications: 0, offers: 0, enrolments: 0 };
      entry.applications++;
      if ((OFFERED_STATUSES as readonly string[]).includes(a.status)) entry.offers++;
      if (a.status === 'enrolled') entry.enrolments++;
      out.set(key, entry);
    }
    return Object.fromEntries(out);
  }
  const counted = (items: Row[], byIntake = true) =>
    Object.fromEntries(
      items.map((r) => [
        byIntake ? `${r.school_id}:${r.admission_id}` : `${r.school_id}`,
        { applications: r.applications, offers: r.offers, enrolments: r.enrolments },
      ]),
    );

  it('counts applications, offers and enrolments per school and intake, and per school', async () => {
    const body = await get(admin, `${SCHOOLS_2030}&per_page=100`);
    expect(body.group_by).toBe('intake');
    const expected = await expectedCounts(() => true);
    expect(counted(body.items)).toEqual(expected);
    expect(Object.keys(expected).length).toBe(3);
    const sum = (k: 'applications' | 'offers' | 'enrolments') =>
      Object.values(expected).reduce((n, e) => n + e[k], 0);
    expect(body.totals).toEqual([
      {
        currency: null,
        applications: sum('applications'),
        offers: sum('offers'),
        enrolments: sum('enrolments'),
      },
    ]);
    const row = body.items.find((r: Row) => r.admission_id === intakes[0].id);
    expect(row).toMatchObject({ school: schools[0].name_en, intake: intakes[0].name_en, year: 2030 });
    expect(row.url).toBe(`/schools/basic/${schools[0].id}`);
    const perSchool = await get(admin, `${SCHOOLS_2030}&group_by=school`);
    expect(counted(perSchool.items, false)).toEqual(await expectedCounts(() => true, false));
    const oneSchool = await get(admin, `${SCHOOLS_2030}&school_id=${schools[1].id}`);
    expect(oneSchool.items.map((r: Row) => r.admission_id)).toEqual([intakes[2].id]);
    const theirs = await get(admin, `${SCHOOLS_2030}&consultant_user_id=${consultantB}`);
    expect(counted(theirs.items)).toEqual(await expectedCounts((s) => s.consultant_user_id === consultantB));
  });

  it('counts a branch user’s own branch only', async () => {
    const own = await signIn(t, ['reports.schools'], { branchId: branchA });
    const body = await get(own, `${SCHOOLS_2030}&per_page=100`);
    expect(counted(body.items)).toEqual(await expectedCounts((s) => s.branch_id === branchA));
    await get(own, `${SCHOOLS_2030}&branch_id=${branchB}`, 404);
  });

  it('writes XLSX equal to the screen’s rows', async () => {
    const screen = await get(admin, `${SCHOOLS_2030}&per_page=100`, 200, 'zh-HK');
    const [header, ...rows] = await readXlsx(
      (await download(admin, `${SCHOOLS_2030}&format=xlsx&lang=zh_HK`)).body as unknown as Buffer,
    );
    const columns = viewColumns(schoolsReport, 'intake');
    expect(header).toEqual(columns.map((c) => label(reportKeys.column(schoolsReport, c), 'zh_HK')));
    expect(rows.map((r) => columns.map((_c, i) => cellText(r[i])))).toEqual(
      screen.items.map((r: Row) => screenRow(schoolsReport, 'intake', r)),
    );
  });
});

describe('the calendar report', () => {
  const MARCH = '/api/reports/calendar?date_from=2030-03-01&date_to=2030-03-31';

  it('lists the calendar feed’s entries in the range, and counts them by source', async () => {
    const feed = await get(admin, '/api/calendars?type=list&start=2030-03-01&end=2030-04-01');
    const body = await get(admin, `${MARCH}&per_page=100`);
    expect(body.items.map((r: Row) => r.title)).toEqual(feed.items.map((e: Row) => e.title));
    expect(body.items.map((r: Row) => r.date)).toEqual(feed.items.map((e: Row) => e.start.slice(0, 10)));
    expect(body.total).toBe(feed.items.length);
    expect(body.items.some((r: Row) => r.source_key === 'student_application_deadline')).toBe(true);
    const bySource = await get(admin, `${MARCH}&group_by=source`);
    const expected: Record<string, number> = {};
    for (const e of feed.items) {
      const name = label(`reports.calendar.sources.${e.source}`, 'en');
      expected[name] = (expected[name] ?? 0) + 1;
    }
    expect(Object.fromEntries(bySource.items.map((r: Row) => [r.source, r.entries]))).toEqual(expected);
    expect(bySource.totals).toEqual([{ currency: null, entries: feed.items.length }]);
    const deadlines = await get(admin, `${MARCH}&source=application_deadline`);
    expect(deadlines.items.map((r: Row) => r.title)).toEqual(
      feed.items.filter((e: Row) => e.source === 'application_deadline').map((e: Row) => e.title),
    );
    expect(deadlines.names).toEqual({ source: 'Application deadlines' });
  });

  it('shows a branch user its own branch’s entries only, without the calendar’s own key', async () => {
    const own = await signIn(t, ['reports.calendar', 'students.view'], { branchId: branchB });
    const body = await get(own, `${MARCH}&source=student_application_deadline&per_page=100`);
    const bStudents = specs.filter((s) => s.branch === 'B').length;
    expect(bStudents).toBeGreaterThan(0);
    expect(body.items.every((r: Row) => r.branch === 'Beta')).toBe(true);
    const all = await get(admin, `${MARCH}&source=student_application_deadline&per_page=100`);
    expect(all.items.some((r: Row) => r.branch === 'Alpha')).toBe(true);
    expect(body.items.length).toBe(all.items.filter((r: Row) => r.branch === 'Beta').length);
    await get(own, `${MARCH}&branch_id=${branchA}`, 404);
    // a source the caller may not see (students' deadlines need students.view) gives nothing
    const noStudents = await signIn(t, ['reports.calendar']);
    expect((await get(noStudents, `${MARCH}&source=student_application_deadline`)).total).toBe(0);
  });

  it('needs both ends, at most 400 days', async () => {
    const long = await get(admin, '/api/reports/calendar?date_from=2030-01-01&date_to=2031-03-01', 422);
    expect(long.error_keys.date_to[0]).toEqual({ key: 'reportRangeTooLong', params: { max: 400 } });
    const open = await get(admin, '/api/reports/calendar?date_from=2030-01-01', 422);
    expect(Object.keys(open.error_keys)).toEqual(['date_to']);
    expect((await get(admin, '/api/reports/calendar')).ranges.date.preset).toBe('this_month');
    expect(calendarReport.criteria.date).toMatchObject({ bounded: true });
  });
});

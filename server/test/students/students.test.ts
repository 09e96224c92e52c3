/**
 * Students, staff side (issue 13): the student record's own rules beyond the generic contract — the list's search
 * over each field and each filter (the intake applied to among them), branch scope over the student and its
 * family members and educations, the export read back in both languages, duplicates answered with the spec's
 * message and nothing written, the consultant of the student's branch, 50 parallel creates numbered gap-free,
 * the passport and visa warnings against the (controlled) clock, deletes refused with counts or taking the
 * student's own rows with it, categories in use, the education dates in order, and portal access switched off
 * ending the student's portal sessions.
 */
import { declarationByName } from '../../../shared/resources';
import { fieldLabelKey, isExported } from '../../../shared/resources/declaration';
import { MESSAGES } from '../../../shared/errors';
import { clock } from '../../src/lib/clock';
import { declaredLabel } from '../../src/resources/declared';
import { Client, PORTAL_HOST, createTestApp, onMysql, signedInAdmin, type TestApp } from '../harness';
import { download, insertAnyRow, listAll, readXlsx, signIn } from '../resources/helpers';
import {
  branch,
  businessYear,
  count,
  createStudentVia,
  dayFromToday,
  insertApplication,
  nextSeq,
  optionValue,
  schoolWithIntake,
  staffOf,
  studentBody,
} from './students-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());
afterEach(() => clock.reset());

const ids = (rows: Row[]) => rows.map((r) => r.id).sort((a, b) => a - b);

describe('creating a student', () => {
  it('offers the caller’s branch, language and the next number on the create form, and the create takes that number', async () => {
    const own = await branch(t, `CF${nextSeq()}`);
    const code = (await t.db('branches').where({ id: own }).first('code')).code as string;
    const clerk = await signIn(t, ['students.view', 'students.create'], { branchId: own, language: 'en' });
    const form = await clerk.get('/api/students/create').set('Accept-Language', 'en').expect(200);
    expect(form.body.defaults).toMatchObject({ branch_id: own, language: 'en', portal_enabled: false });
    expect(form.body.next_number).toBe(`STU-${code}-${businessYear()}-00001`);
    const zh = await clerk.get('/api/students/create').set('Accept-Language', 'zh-HK').expect(200);
    expect(zh.body.defaults.language).toBe('zh_HK');
    expect(Object.keys(form.body.options)).toEqual(
      expect.arrayContaining(['student_status', 'gender', 'nationality', 'visa_type']),
    );

    // no branch in the body: the caller's own
    const res = await clerk.post('/api/students', { surname_en: 'LEE', given_name_en: 'Ka Yan' });
    expect(res.status).toBe(201);
    expect(res.body.branch_id).toBe(own);
    expect(res.body.student_no).toBe(form.body.next_number);
    expect(res.body).not.toHaveProperty('portal_password_hash');
    expect(res.body.portal_password_set).toBe(false);
  });

  it('refuses a consultant of another branch, writing nothing; takes one of the student’s branch', async () => {
    const a = await branch(t);
    const b = await branch(t);
    const ofB = await staffOf(t, b);
    const ofA = await staffOf(t, a);
    const before = await count(t.db, 'students');
    const refused = await admin.post('/api/students', studentBody(a, { consultant_user_id: ofB }));
    expect(refused.status).toBe(422);
    expect(refused.body.error_keys.consultant_user_id[0].key).toBe('consultantNotOfBranch');
    expect(await count(t.db, 'students')).toBe(before);
    const s = await createStudentVia(admin, a, { consultant_user_id: ofA });
    expect(s.consultant_user_id).toBe(ofA);
    // moving the student to another branch keeps the consultant only if they work there
    const moved = await admin.put(`/api/students/${s.id}`, { branch_id: b });
    expect(moved.status).toBe(422);
    expect(moved.body.error_keys.consultant_user_id[0].key).toBe('consultantNotOfBranch');
  });

  it('refuses a branch, category or consultant that does not exist (or no id at all) on the field, changing nothing', async () => {
    const a = await branch(t);
    const s = await createStudentVia(admin, a);
    for (const [field, value, key] of [
      ['branch_id', 999_999, 'recordMissing'],
      ['category_id', 999_999, 'recordMissing'],
      ['consultant_user_id', 999_999, 'recordMissing'],
      // past any INT column: no row of any table (MySQL refused it with a 500 before)
      ['branch_id', 4_294_967_296, 'tooLarge'],
    ] as const) {
      const res = await admin.put(`/api/students/${s.id}`, { [field]: value });
      expect(res.status).toBe(422);
      expect(res.body.error_keys[field][0].key).toBe(key);
    }
    expect((await t.db('students').where({ id: s.id }).first('branch_id')).branch_id).toBe(a);
  });

  it('answers a duplicate passport number, email or portal email with the spec’s message, whatever the case, writing nothing', async () => {
    const b = await branch(t);
    const n = nextSeq();
    const first = await createStudentVia(admin, b, {
      passport_no: `k${n}0001`,
      email: `dup${n}@example.com`,
      portal_email: `portal${n}@example.com`,
    });
    expect(first.passport_no).toBe(`K${n}0001`); // stored upper-cased
    const students = await count(t.db, 'students');
    const sequences = await t.db('number_sequences').where({ document: 'student', branch_id: b }).first();
    const audits = await count(t.db, 'audit_logs', { entity: 'student' });
    const cases: [string, Row][] = [
      ['passport_no', { passport_no: `K${n}0001` }],
      ['passport_no', { passport_no: `k${n}0001` }],
      ['email', { email: `DUP${n}@Example.com` }],
      ['portal_email', { portal_email: ` Portal${n}@EXAMPLE.com ` }],
    ];
    for (const [field, body] of cases) {
      const res = await admin.post('/api/students', studentBody(b, body));
      expect({ field, status: res.status }).toEqual({ field, status: 422 });
      expect(res.body.errors[field]).toEqual([MESSAGES.duplicate]);
      expect(res.body.error_keys[field][0].key).toBe('duplicate');
    }
    expect(await count(t.db, 'students')).toBe(students);
    expect(await count(t.db, 'audit_logs', { entity: 'student' })).toBe(audits);
    // no number was taken by a refused create
    const after = await t.db('number_sequences').where({ document: 'student', branch_id: b }).first();
    expect(after.next_value).toBe(sequences.next_value);

    // the same on an update of another student
    const other = await createStudentVia(admin, b);
    const res = await admin.put(`/api/students/${other.id}`, { email: `dup${n}@EXAMPLE.COM` });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toEqual([MESSAGES.duplicate]);
    expect((await t.db('students').where({ id: other.id }).first()).email).toBeNull();
    // saving a student with its own values is no duplicate
    await admin.put(`/api/students/${first.id}`, { email: `dup${n}@example.com` }).expect(200);
  });

  it('lets many students have no email, passport or portal email (empty is no duplicate)', async () => {
    const b = await branch(t);
    const empty = { email: null, passport_no: null, portal_email: null };
    const one = await createStudentVia(admin, b, empty);
    const two = await createStudentVia(admin, b, empty);
    await admin.put(`/api/students/${one.id}`, empty).expect(200);
    expect(two.email).toBeNull();
  });

  it('gives 50 parallel creates 50 distinct, gap-free numbers', async () => {
    const code = `PAR${nextSeq()}`;
    const b = await branch(t, code);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.post('/api/students', studentBody(b, { surname_en: `P${i}` })),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = responses.map((r) => r.body.student_no as string);
    const sorted = [...numbers].sort();
    const expected = Array.from(
      { length: 50 },
      (_, i) => `STU-${code}-${businessYear()}-${String(i + 1).padStart(5, '0')}`,
    );
    const distinct = new Set(numbers).size;
    console.log(
      `students on ${onMysql ? 'MariaDB' : 'SQLite'}: 50 parallel creates: ${distinct} distinct numbers, ` +
        `consecutive ${sorted[0].slice(-5)}–${sorted[49].slice(-5)}`,
    );
    expect(distinct).toBe(50);
    expect(sorted).toEqual(expected);
  }, 60_000);
});

describe('passport and visa warnings', () => {
  it('marks expired, within six months and fine against today’s Hong Kong date, following the clock', async () => {
    const b = await branch(t);
    const expired = await createStudentVia(admin, b, {
      passport_expiry: dayFromToday(-1),
      visa_expiry: dayFromToday(-400),
    });
    const soon = await createStudentVia(admin, b, {
      passport_expiry: dayFromToday(0),
      visa_expiry: dayFromToday(150),
    });
    const fine = await createStudentVia(admin, b, { passport_expiry: dayFromToday(200), visa_expiry: null });
    expect([expired.passport_warning, expired.visa_warning]).toEqual(['expired', 'expired']);
    expect([soon.passport_warning, soon.visa_warning]).toEqual(['expiring', 'expiring']);
    expect([fine.passport_warning, fine.visa_warning]).toEqual([null, null]);
    // the record and the list say the same
    const read = await admin.get(`/api/students/${soon.id}`).expect(200);
    expect(read.body.passport_warning).toBe('expiring');
    // 40 days later (the app's clock moved, not waited for), 200 days off is within six months; a session of
    // its own, begun after the move (the suite's admin would have been idle for 40 days)
    clock.advance(40 * 86_400_000);
    const later40 = await signedInAdmin(t);
    const later = await later40.get(`/api/students/${fine.id}`).expect(200);
    expect(later.body.passport_warning).toBe('expiring');
    const soonLater = await later40.get(`/api/students/${soon.id}`).expect(200);
    expect(soonLater.body.passport_warning).toBe('expired');
  });
});

describe('the students list', () => {
  it('finds a student by each searchable field, and by that field only', async () => {
    const b = await branch(t);
    const n = nextSeq();
    const tag = `q${n}x`;
    const fields: [string, Row, string][] = [
      ['student_no', {}, ''],
      ['surname_en', { surname_en: `SUR${tag}` }, `sur${tag}`],
      ['given_name_en', { given_name_en: `Giv${tag}` }, `GIV${tag}`],
      ['name_zh', { name_zh: `陳${tag}明` }, `陳${tag}`],
      ['name_ko', { name_ko: `김${tag}` }, `김${tag}`],
      ['passport_no', { passport_no: `PP${n}QQ7` }, `pp${n}qq`],
      ['phone', { phone: `+852 9${n}77 1234` }, `9${n}77`],
      ['email', { email: `em${tag}@example.com` }, `em${tag}`],
      ['application_email', { application_email: `apply${tag}@example.com` }, `apply${tag}`],
      ['portal_email', { portal_email: `portal${tag}@example.com` }, `portal${tag}`],
    ];
    const created: Row[] = [];
    for (const [, body] of fields) created.push(await createStudentVia(admin, b, body));
    // the student number: search by the created student's own number
    fields[0][2] = created[0].student_no;
    let searched = 0;
    for (const [index, [field, , q]] of fields.entries()) {
      const res = await admin.get(`/api/students?q=${encodeURIComponent(q)}&branch_id=${b}`).expect(200);
      expect({ field, found: ids(res.body.items) }).toEqual({ field, found: [created[index].id] });
      searched++;
    }
    console.log(`students search: ${searched} fields, each finding exactly its student`);
  });

  it('filters by category, status, branch, consultant, nationality and the intake applied to', async () => {
    const a = await branch(t);
    const b = await branch(t);
    const category = await admin.post('/api/student-categories', {
      name_en: `Cat ${nextSeq()}`,
      name_zh: `類別 ${nextSeq()}`,
    });
    expect(category.status).toBe(201);
    const consultant = await staffOf(t, a);
    const status = await optionValue(t.db, 'student_status', 'enrolled');
    const nationality = await optionValue(t.db, 'nationality', 'KR');
    const intake = await schoolWithIntake(admin);
    const other = await schoolWithIntake(admin);
    const inA = await createStudentVia(admin, a, {
      category_id: category.body.id,
      status,
      consultant_user_id: consultant,
      nationality,
    });
    const plainA = await createStudentVia(admin, a);
    const inB = await createStudentVia(admin, b, { nationality });
    await insertApplication(t.db, inA.id, intake);
    await insertApplication(t.db, inB.id, intake);
    await insertApplication(t.db, plainA.id, other);

    const filtered = async (query: string) =>
      ids((await admin.get(`/api/students?${query}&per_page=100`).expect(200)).body.items);
    const cases: [string, number[]][] = [
      [`category_id=${category.body.id}`, [inA.id]],
      [`status=${status}&branch_id=${a}`, [inA.id]],
      [`branch_id=${b}`, [inB.id]],
      [`consultant_user_id=${consultant}`, [inA.id]],
      [`nationality=${nationality}&branch_id=${a}`, [inA.id]],
      [`nationality=${nationality}&branch_id=${b}`, [inB.id]],
      [`admission_id=${intake.admissionId}`, [inA.id, inB.id].sort((x, y) => x - y)],
      [`admission_id=${other.admissionId}`, [plainA.id]],
      [`admission_id=${intake.admissionId}&branch_id=${b}`, [inB.id]],
    ];
    for (const [query, expected] of cases)
      expect({ query, found: await filtered(query) }).toEqual({ query, found: expected });
    console.log(`students filters: ${cases.length} filter queries, each answering exactly its students`);

    // the intake filter reads the applications: its kept count is dropped when an application is added, not 30 s later
    const total = async (query: string) =>
      // one row a page: a full page is counted (a page not full is its list's size without a count)
      (await admin.get(`/api/students?${query}&per_page=1`).expect(200)).body.total as number;
    const before = await total(`admission_id=${other.admissionId}`);
    await insertApplication(t.db, inB.id, other);
    const after = await total(`admission_id=${other.admissionId}`);
    expect({ before, after }).toEqual({ before: 1, after: 2 });
  });

  it('exports the list’s columns in English and in Chinese, read back from the XLSX', async () => {
    const code = `EX${nextSeq()}`;
    const b = await branch(t, code);
    await t.db('branches').where({ id: b }).update({ name_en: 'Mong Kok', name_zh: '旺角' });
    const s = await createStudentVia(admin, b, {
      name_zh: '陳大文',
      passport_no: `X${nextSeq()}`,
      phone: '12345678',
    });
    const decl = declarationByName('student')!;
    const exported = Object.entries(decl.fields)
      .filter(([, f]) => isExported(f))
      .map(([name]) => name);
    // the list's own columns are among them
    for (const column of [
      'student_no',
      'surname_en',
      'given_name_en',
      'name_zh',
      'category_id',
      'status',
      'branch_id',
      'consultant_user_id',
      'phone',
    ])
      expect(exported).toContain(column);
    const branchNames = { en: `${code} Mong Kok`, zh: `${code} 旺角` };
    for (const [lang, key] of [
      ['en', 'en'],
      ['zh_HK', 'zh'],
    ] as const) {
      const res = await download(admin, `/api/students?format=xlsx&branch_id=${b}&lang=${lang}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename=.*students.*\.xlsx/);
      const rows = await readXlsx(res.body as Buffer);
      expect(rows[0]).toEqual(exported.map((name) => declaredLabel(fieldLabelKey('student', name))[key]));
      expect(rows).toHaveLength(2);
      const cell = (name: string) => rows[1][exported.indexOf(name)];
      expect(cell('student_no')).toBe(s.student_no);
      expect(cell('name_zh')).toBe('陳大文');
      expect(cell('branch_id')).toBe(branchNames[key]); // the branch's name in the export's language, not its id
    }
    expect(declaredLabel(fieldLabelKey('student', 'student_no'))).toEqual({
      en: 'Student no.',
      zh: '學生編號',
    });
  });
});

describe('branch scope', () => {
  it('gives a branch-scoped user 404 for another branch’s student, its family members and educations, and none of their rows', async () => {
    const own = await branch(t);
    const other = await branch(t);
    const mine = await createStudentVia(admin, own);
    const theirs = await createStudentVia(admin, other);
    const family = await admin
      .post(`/api/students/${theirs.id}/family`, { relationship: 'father', name_en: 'Father' })
      .expect(201);
    const education = await admin
      .post(`/api/students/${theirs.id}/educations`, { level: 'primary', school_name: 'Primary' })
      .expect(201);
    await admin
      .post(`/api/students/${mine.id}/family`, { relationship: 'mother', name_en: 'Mother' })
      .expect(201);
    const clerk = await signIn(
      t,
      ['students.view', 'students.create', 'students.update', 'students.delete'],
      {
        branchId: own,
      },
    );
    const probes: [string, () => Promise<{ status: number }>][] = [
      ['student', () => clerk.get(`/api/students/${theirs.id}`)],
      ['student tab', () => clerk.get(`/api/students/${theirs.id}?tab=family`)],
      ['student update', () => clerk.put(`/api/students/${theirs.id}`, { remark: 'x' })],
      ['student delete', () => clerk.delete(`/api/students/${theirs.id}`)],
      ['family list', () => clerk.get(`/api/students/${theirs.id}/family`)],
      ['family member', () => clerk.get(`/api/students/${theirs.id}/family/${family.body.id}`)],
      ['family member at its path', () => clerk.get(`/api/student-family-members/${family.body.id}`)],
      [
        'family member update',
        () => clerk.put(`/api/students/${theirs.id}/family/${family.body.id}`, { name_en: 'X' }),
      ],
      ['family member delete', () => clerk.delete(`/api/students/${theirs.id}/family/${family.body.id}`)],
      [
        'family member create',
        () => clerk.post(`/api/students/${theirs.id}/family`, { relationship: 'father', name_en: 'F' }),
      ],
      ['educations list', () => clerk.get(`/api/students/${theirs.id}/educations`)],
      ['education', () => clerk.get(`/api/students/${theirs.id}/educations/${education.body.id}`)],
      ['education at its path', () => clerk.get(`/api/student-educations/${education.body.id}`)],
      [
        'education update',
        () => clerk.put(`/api/students/${theirs.id}/educations/${education.body.id}`, { school_name: 'X' }),
      ],
      // their rows under the clerk's own student's URL are not theirs to reach either
      [
        'family member under another student',
        () => clerk.get(`/api/students/${mine.id}/family/${family.body.id}`),
      ],
      ['student created into another branch', () => clerk.post('/api/students', studentBody(other))],
    ];
    for (const [what, probe] of probes)
      expect({ what, status: (await probe()).status }).toEqual({ what, status: 404 });
    // nothing changed
    expect((await t.db('student_family_members').where({ id: family.body.id }).first()).name_en).toBe(
      'Father',
    );
    expect(await count(t.db, 'students', { id: theirs.id })).toBe(1);

    const list = await listAll(clerk, '/api/students');
    expect(list.filter((r) => r.branch_id !== own)).toHaveLength(0);
    expect(list.map((r) => r.id)).toContain(mine.id);
    const filteredToOther = await clerk.get(`/api/students?branch_id=${other}`).expect(200);
    expect(filteredToOther.body.total).toBe(0);
    const lookup = await clerk
      .get(`/api/students/lookup?q=${encodeURIComponent(theirs.surname_en)}`)
      .expect(200);
    expect(lookup.body).toHaveLength(0);
    const familyLookup = await clerk.get('/api/student-family-members/lookup?q=Father').expect(200);
    expect(familyLookup.body).toHaveLength(0);
    const exported = await readXlsx((await download(clerk, '/api/students?format=xlsx')).body as Buffer);
    const numberColumn = exported[0].indexOf('Student no.');
    expect(exported.slice(1).map((r) => r[numberColumn])).not.toContain(theirs.student_no);
    console.log(
      `students branch scope: ${probes.length} probes of another branch, all 404; 0 rows of it in list, lookup and export`,
    );
  });
});

describe('deleting', () => {
  it('refuses a student with applications, attachments or grade reports, with the counts', async () => {
    const b = await branch(t);
    const s = await createStudentVia(admin, b);
    const intake = await schoolWithIntake(admin);
    await insertApplication(t.db, s.id, intake);
    await insertAnyRow(t.db, 'files', { owner_type: 'student', owner_id: s.id, branch_id: b });
    await insertAnyRow(t.db, 'files', { owner_type: 'student', owner_id: s.id, branch_id: b });
    await insertAnyRow(t.db, 'student_grade_reports', {
      student_id: s.id,
      school_id: intake.schoolId,
      year: 2027,
      term: 'spring',
    });
    const res = await admin.delete(`/api/students/${s.id}`);
    expect(res.status).toBe(409);
    expect(res.body.references).toEqual({ applications: 1, attachments: 2, grade_reports: 1 });
    expect(await count(t.db, 'students', { id: s.id })).toBe(1);
  });

  it('deletes a student with its family members and educations in one transaction, audited', async () => {
    const b = await branch(t);
    const s = await createStudentVia(admin, b);
    await admin.post(`/api/students/${s.id}/family`, { relationship: 'father', name_en: 'Dad' }).expect(201);
    await admin.post(`/api/students/${s.id}/family`, { relationship: 'mother', name_en: 'Mum' }).expect(201);
    await admin.post(`/api/students/${s.id}/educations`, { level: 'primary', school_name: 'P' }).expect(201);
    await admin.delete(`/api/students/${s.id}`).expect(204);
    expect(await count(t.db, 'students', { id: s.id })).toBe(0);
    expect(await count(t.db, 'student_family_members', { student_id: s.id })).toBe(0);
    expect(await count(t.db, 'student_educations', { student_id: s.id })).toBe(0);
    expect(await count(t.db, 'audit_logs', { entity: 'student', entity_id: s.id, action: 'delete' })).toBe(1);
  });

  it('keeps the family and educations when the delete is refused', async () => {
    const b = await branch(t);
    const s = await createStudentVia(admin, b);
    await admin.post(`/api/students/${s.id}/family`, { relationship: 'father', name_en: 'Dad' }).expect(201);
    await insertAnyRow(t.db, 'files', { owner_type: 'student', owner_id: s.id, branch_id: b });
    expect((await admin.delete(`/api/students/${s.id}`)).status).toBe(409);
    expect(await count(t.db, 'student_family_members', { student_id: s.id })).toBe(1);
  });

  it('refuses to delete a student category in use, with the count; an unused one goes', async () => {
    const b = await branch(t);
    const used = await admin
      .post('/api/student-categories', { name_en: `Used ${nextSeq()}`, name_zh: `使用中 ${nextSeq()}` })
      .expect(201);
    const unused = await admin
      .post('/api/student-categories', { name_en: `Free ${nextSeq()}`, name_zh: `未使用 ${nextSeq()}` })
      .expect(201);
    await createStudentVia(admin, b, { category_id: used.body.id });
    await createStudentVia(admin, b, { category_id: used.body.id });
    const res = await admin.delete(`/api/student-categories/${used.body.id}`);
    expect(res.status).toBe(409);
    expect(res.body.references).toEqual({ students: 2 });
    await admin.delete(`/api/student-categories/${unused.body.id}`).expect(204);
  });
});

describe('educations and family', () => {
  it('keeps an education’s end on or after its start, on create and on a partial update', async () => {
    const b = await branch(t);
    const s = await createStudentVia(admin, b);
    const url = `/api/students/${s.id}/educations`;
    const before = await count(t.db, 'student_educations', { student_id: s.id });
    const bad = await admin.post(url, {
      level: 'secondary',
      school_name: 'S',
      start_date: '2020-09-01',
      end_date: '2020-08-31',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_keys.end_date[0].key).toBe('educationEndBeforeStart');
    expect(bad.body.errors.end_date).toEqual(['The end date must be on or after the start date.']);
    expect(await count(t.db, 'student_educations', { student_id: s.id })).toBe(before);
    const same = await admin.post(url, {
      level: 'secondary',
      school_name: 'S',
      start_date: '2020-09-01',
      end_date: '2020-09-01',
    });
    expect(same.status).toBe(201);
    const moved = await admin.put(`${url}/${same.body.id}`, { start_date: '2021-01-01' });
    expect(moved.status).toBe(422);
    expect(moved.body.error_keys.end_date[0].key).toBe('educationEndBeforeStart');
    await admin.put(`${url}/${same.body.id}`, { end_date: null, start_date: '2021-01-01' }).expect(200);
  });

  it('lists a student’s family members and educations under it only', async () => {
    const b = await branch(t);
    const one = await createStudentVia(admin, b);
    const two = await createStudentVia(admin, b);
    await admin
      .post(`/api/students/${one.id}/family`, { relationship: 'father', name_en: 'One’s father' })
      .expect(201);
    await admin
      .post(`/api/students/${two.id}/family`, { relationship: 'father', name_en: 'Two’s father' })
      .expect(201);
    const list = await admin.get(`/api/students/${one.id}/family`).expect(200);
    expect(list.body.items.map((r: Row) => r.name_en)).toEqual(['One’s father']);
  });
});

describe('portal access through the student record', () => {
  it('turning portal access off ends the student’s portal sessions; the portal email is unique and set by staff', async () => {
    const b = await branch(t);
    const n = nextSeq();
    const s = await createStudentVia(admin, b);
    const on = await admin.put(`/api/students/${s.id}`, {
      portal_enabled: true,
      portal_email: `Sign${n}@Example.com`,
    });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ portal_enabled: true, portal_email: `sign${n}@example.com` });
    await admin
      .post(`/api/students/${s.id}/portal/password`, {
        password: 'Portal123',
        password_confirmation: 'Portal123',
      })
      .expect(200);
    const portal = new Client(t.app, PORTAL_HOST);
    expect((await portal.login(`sign${n}@example.com`, 'Portal123')).status).toBe(200);
    await portal.get('/api/student').expect(200);
    expect(await count(t.db, 'user_sessions', { student_id: s.id })).toBe(1);

    await admin.put(`/api/students/${s.id}`, { portal_enabled: false }).expect(200);
    expect(await count(t.db, 'user_sessions', { student_id: s.id })).toBe(0);
    expect((await portal.get('/api/student')).status).toBe(401);
    const again = await new Client(t.app, PORTAL_HOST).login(`sign${n}@example.com`, 'Portal123');
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(MESSAGES.portalCredentials);
  });
});

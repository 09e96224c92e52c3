/**
 * Schools, subjects and intakes (issue 12): the rules that are their own beyond the generic contract — the
 * all-or-nothing subject import at its 2,000-row limit, an intake's date order and its subjects being its
 * school's, the whole-intake save in one transaction, the area → district rule, and deletes refused while
 * something refers to the record (option values included).
 */
import ExcelJS from 'exceljs';
import { csvRecord, UTF8_BOM } from '../../src/modules/exports/csv';
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createTestApp, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

type Row = Record<string, any>;

async function area(name: string, parentId: number | null = null): Promise<number> {
  const res = await admin.post('/api/areas', {
    name_en: `${name} ${++seq}`,
    name_zh: `${name}區 ${seq}`,
    parent_id: parentId,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function school(extra: Row = {}): Promise<Row> {
  const n = ++seq;
  const res = await admin.post('/api/schools', {
    code: `SC${n}`,
    name_en: `School ${n}`,
    name_zh: `學校 ${n}`,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function subject(schoolId: number, extra: Row = {}): Promise<Row> {
  const n = ++seq;
  const res = await admin.post(`/api/schools/${schoolId}/subjects`, {
    code: `SUB${n}`,
    name_en: `Subject ${n}`,
    name_zh: `課程 ${n}`,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body;
}

const intakeBody = (extra: Row = {}): Row => ({
  name_en: `Intake ${++seq}`,
  name_zh: `入學 ${seq}`,
  year: 2027,
  application_start: '2027-01-10',
  application_deadline: '2027-02-20',
  interview_date: '2027-03-05',
  result_date: '2027-04-01',
  semester_start: '2027-09-01',
  ...extra,
});

const count = async (table: string, where: Row = {}) =>
  Number((await t.db(table).where(where).count({ n: '*' }).first())?.n);

describe('subject import (POST /api/schools/:id/subjects/import)', () => {
  const HEADER = ['code', 'name_en', 'name_zh', 'tuition_fee', 'currency'];
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => [
      `C${String(i + 1).padStart(4, '0')}`,
      `Course ${i + 1}`,
      `課程${i + 1}`,
      '1234.5',
      'HKD',
    ]);

  it('refuses 2,000 rows with one bad row, naming it and writing nothing; the corrected file writes all 2,000', async () => {
    const s = await school();
    const bad = rows(2000);
    bad[1499][2] = ''; // row 1,500 has no Chinese name: the file's line 1,501
    const csv = (data: unknown[][]) => Buffer.from(UTF8_BOM + data.map(csvRecord).join(''), 'utf8');
    const refused = await admin
      .post(`/api/schools/${s.id}/subjects/import`)
      .attach('file', csv([HEADER, ...bad]), { filename: 'subjects.csv', contentType: 'text/csv' });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('1501');
    expect(refused.body.message_key).toBe('importRowsBad');
    expect(await count('school_subjects', { school_id: s.id })).toBe(0);

    // the same rows as XLSX, corrected
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Subjects');
    for (const row of [HEADER, ...rows(2000)]) sheet.addRow(row);
    const accepted = await admin
      .post(`/api/schools/${s.id}/subjects/import`)
      .attach('file', Buffer.from(await workbook.xlsx.writeBuffer()), {
        filename: 'subjects.xlsx',
        contentType: 'application/octet-stream',
      });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ imported: 2000 });
    expect(await count('school_subjects', { school_id: s.id })).toBe(2000);
    const one = await t.db('school_subjects').where({ school_id: s.id, code: 'C0007' }).first();
    expect(Number(one.tuition_fee)).toBe(123450); // money in minor units
    // the rows belong to this school only: another school's subject list is empty
    const other = await school();
    const list = await admin.get(`/api/schools/${other.id}/subjects`).expect(200);
    expect(list.body.total).toBe(0);
  }, 60_000);
});

describe('subjects', () => {
  it('keeps the code unique within a school, not across schools', async () => {
    const a = await school();
    const b = await school();
    await subject(a.id, { code: 'BIZ' });
    await subject(b.id, { code: 'BIZ' });
    const dup = await admin.post(`/api/schools/${a.id}/subjects`, {
      code: 'biz',
      name_en: 'Again',
      name_zh: '再次',
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.code).toEqual(['This Data is already exist.']);
  });

  it('needs a currency with a tuition fee', async () => {
    const s = await school();
    const res = await admin.post(`/api/schools/${s.id}/subjects`, {
      code: 'FEE',
      name_en: 'Fee',
      name_zh: '費用',
      tuition_fee: 100000,
    });
    expect(res.status).toBe(422);
    expect(res.body.error_keys.currency[0].key).toBe('currencyForAmount');
  });

  it('refuses to delete a subject an intake opens, with the count', async () => {
    const s = await school();
    const sub = await subject(s.id);
    await admin.post(`/api/schools/${s.id}/admissions`, intakeBody({ subject_ids: [sub.id] })).expect(201);
    const res = await admin.delete(`/api/schools/${s.id}/subjects/${sub.id}`);
    expect(res.status).toBe(409);
    expect(res.body.references).toEqual({ admissions: 1 });
  });
});

describe('intakes (admissions)', () => {
  it('saves the intake whole: its subjects, timetable and three checklist documents, in order', async () => {
    const s = await school();
    const [a, b] = [await subject(s.id), await subject(s.id)];
    const res = await admin.post(
      `/api/schools/${s.id}/admissions`,
      intakeBody({
        subject_ids: [b.id, a.id],
        timetable: [{ date: '2027-01-20', title_en: 'Briefing', title_zh: '簡介會' }],
        documents: [
          { name_en: 'Passport copy', name_zh: '護照副本' },
          { name_en: 'Transcript', name_zh: '成績表', is_required: false },
          { name_en: 'Study plan', name_zh: '讀書計劃' },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.subject_ids).toEqual([b.id, a.id]);
    expect(res.body.documents.map((d: Row) => [d.name_en, d.is_required])).toEqual([
      ['Passport copy', true],
      ['Transcript', false],
      ['Study plan', true],
    ]);
    // reorder by sending the rows in a new order with their ids
    const docs = res.body.documents;
    const moved = await admin
      .put(`/api/schools/${s.id}/admissions/${res.body.id}`)
      .send({ documents: [docs[2], docs[0], docs[1]] })
      .expect(200);
    expect(moved.body.documents.map((d: Row) => d.id)).toEqual([docs[2].id, docs[0].id, docs[1].id]);
    const stored = await t
      .db('admission_documents')
      .where({ admission_id: res.body.id })
      .orderBy('sort_order');
    expect(stored.map((d) => d.name_en)).toEqual(['Study plan', 'Passport copy', 'Transcript']);
  });

  it('enforces the date order with the spec’s messages on the right field, writing nothing', async () => {
    const s = await school();
    const start = await admin.post(
      `/api/schools/${s.id}/admissions`,
      intakeBody({ application_start: '2027-03-01', application_deadline: '2027-02-01' }),
    );
    expect(start.status).toBe(422);
    expect(start.body.errors.application_start).toEqual([
      'Start date must be on or before the deadline date.',
    ]);

    const created = await admin.post(`/api/schools/${s.id}/admissions`, intakeBody()).expect(201);
    const url = `/api/schools/${s.id}/admissions/${created.body.id}`;
    const deadline = await admin.put(url).send({ application_deadline: '2027-01-01' });
    expect(deadline.status).toBe(422);
    expect(deadline.body.errors.application_deadline).toEqual([
      'The deadline date must be on or after the start date.',
    ]);
    for (const [field, value, key] of [
      ['interview_date', '2027-01-01', 'interviewBeforeStart'],
      ['result_date', '2027-03-01', 'resultBeforeInterview'],
      ['semester_start', '2027-03-31', 'semesterBeforeResult'],
    ] as const) {
      const res = await admin.put(url).send({ [field]: value });
      expect([field, res.status, res.body.error_keys?.[field]?.[0]?.key]).toEqual([field, 422, key]);
    }
    const read = await admin.get(url).expect(200);
    expect(read.body.application_deadline).toBe('2027-02-20');
    // equal dates are in order
    await admin
      .put(url)
      .send({ application_deadline: '2027-01-10', interview_date: '2027-01-10' })
      .expect(200);
  });

  it('opens only its own school’s subjects, and a refused save changes nothing', async () => {
    const s = await school();
    const other = await school();
    const mine = await subject(s.id);
    const theirs = await subject(other.id);
    const created = await admin
      .post(
        `/api/schools/${s.id}/admissions`,
        intakeBody({ subject_ids: [mine.id], documents: [{ name_en: 'Passport', name_zh: '護照' }] }),
      )
      .expect(201);
    const url = `/api/schools/${s.id}/admissions/${created.body.id}`;
    const res = await admin.put(url).send({
      name_en: 'Renamed',
      subject_ids: [mine.id, theirs.id],
      documents: [],
    });
    expect(res.status).toBe(422);
    expect(res.body.error_keys.subject_ids[0].key).toBe('subjectNotOfSchool');
    const after = (await admin.get(url).expect(200)).body;
    expect(after.name_en).toBe(created.body.name_en);
    expect(after.subject_ids).toEqual([mine.id]);
    expect(after.documents).toHaveLength(1);

    // a bad checklist row (no Chinese name) is named by its index, and nothing is written either
    const bad = await admin.put(url).send({
      name_en: 'Renamed',
      documents: [{ name_en: 'A', name_zh: '甲' }, { name_en: 'B' }],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toContain('documents.1.name_zh');
    expect((await admin.get(url).expect(200)).body.name_en).toBe(created.body.name_en);
    expect(await count('admission_documents', { admission_id: created.body.id })).toBe(1);
  });

  it('is one of its school’s: another school’s path answers 404', async () => {
    const s = await school();
    const other = await school();
    const created = await admin.post(`/api/schools/${s.id}/admissions`, intakeBody()).expect(201);
    await admin.get(`/api/schools/${other.id}/admissions/${created.body.id}`).expect(404);
    await admin
      .put(`/api/schools/${other.id}/admissions/${created.body.id}`)
      .send({ year: 2028 })
      .expect(404);
  });
});

describe('schools', () => {
  it('takes an area and one of its districts, and refuses a district of another area or a district as area', async () => {
    const hk = await area('Hong Kong');
    const kowloon = await area('Kowloon');
    const central = await area('Central', hk);
    const ok = await school({ area_id: hk, district_id: central });
    expect(ok.area_name).toMatch(/^Hong Kong/);
    expect(ok.district_name).toMatch(/^Central/);

    const wrong = await admin.post('/api/schools', {
      code: 'WRONG',
      name_en: 'W',
      name_zh: '錯',
      area_id: kowloon,
      district_id: central,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error_keys.district_id[0].key).toBe('districtNotInArea');
    const districtAsArea = await admin.post('/api/schools', {
      code: 'WRONG2',
      name_en: 'W',
      name_zh: '錯',
      area_id: central,
    });
    expect(districtAsArea.body.error_keys.area_id[0].key).toBe('chooseAreaNotDistrict');
    // changing the area alone leaves the district of the old one: refused
    const moved = await admin.put(`/api/schools/${ok.id}`).send({ area_id: kowloon });
    expect(moved.body.error_keys.district_id[0].key).toBe('districtNotInArea');
    // the district picker is narrowed to the chosen area's districts
    const districts = await admin.get(`/api/areas/lookup?parent_id=${hk}`).expect(200);
    expect(districts.body.map((d: Row) => d.id)).toEqual([central]);
    const areas = await admin.get('/api/areas/lookup').expect(200);
    expect(areas.body.map((d: Row) => d.id)).not.toContain(central);
  });

  it('searches code and the names in English, Chinese and Korean', async () => {
    const s = await school({ name_ko: '고려대학교 테스트', name_zh: '高麗測試大學' });
    for (const q of [s.code.toLowerCase(), s.name_en, '高麗測試', '고려대학교 테스트']) {
      const res = await admin.get('/api/schools').query({ q }).expect(200);
      expect([q, res.body.items.map((r: Row) => r.id)]).toEqual([q, [s.id]]);
    }
  });

  it('refuses to delete a school with subjects and intakes, with the counts', async () => {
    const s = await school();
    await subject(s.id);
    await subject(s.id);
    await admin.post(`/api/schools/${s.id}/admissions`, intakeBody()).expect(201);
    const res = await admin.delete(`/api/schools/${s.id}`);
    expect(res.status).toBe(409);
    expect(res.body.references).toEqual({ subjects: 2, admissions: 1 });
    expect(res.body.message).toBe('This school is still used by 2 subjects, 1 admissions.');
  });

  it('keeps an option value a school uses from being deleted', async () => {
    const now = toDbDateTime();
    await t.db('options').insert({
      key: 'school_type',
      value: 'zq_lang',
      label_en: 'Language institute',
      label_zh: '語言學院',
      sort_order: 99,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
    const option = await t.db('options').where({ key: 'school_type', value: 'zq_lang' }).first();
    const s = await school({ school_type: 'zq_lang' });
    expect(s.school_type_label).toBe('Language institute');
    const res = await admin.delete(`/api/options/school_type/${option.id}`);
    expect(res.status).toBe(409);
  });
});

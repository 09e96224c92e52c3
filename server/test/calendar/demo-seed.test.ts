/**
 * The demo seed's schools (seeds/index.ts `seedDemoSchools`): three Seoul universities with subjects and intakes
 * whose windows and deadlines fall in this month and the next two, valid by the intakes' own rules, shown by the
 * calendar feed; seeding again adds nothing.
 */
import { DEMO_ADMIN, seedDay, seedDemo } from '../../../seeds';
import { Client, createTestApp, type TestApp } from '../harness';

type Row = Record<string, any>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (table: string, where: Row = {}) =>
  Number((await t.db(table).where(where).count({ n: '*' }).first())?.n);

const TABLES = [
  'schools',
  'school_subjects',
  'school_admissions',
  'admission_subjects',
  'admission_documents',
  'admission_timetable',
  'calendar_events',
  'users',
];

/** The first day of the month `months` after the seed day's. */
function monthStart(months: number): string {
  const [y, m] = seedDay(0).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 10);
}

it('seeds three Seoul universities whose intakes fill this month and the next two, once', async () => {
  expect(await seedDemo(t.db)).toBe(true);
  const counts = Object.fromEntries(await Promise.all(TABLES.map(async (n) => [n, await count(n)] as const)));
  expect(counts.schools).toBe(3);
  expect(counts.school_subjects).toBeGreaterThanOrEqual(6);
  expect(counts.calendar_events).toBe(2);

  const schools = await t.db('schools').orderBy('id');
  expect(schools.map((s: Row) => s.name_en)).toEqual([
    'Korea University',
    'Yonsei University',
    'Sungkyunkwan University',
  ]);
  const seoul = await t.db('areas').where({ name_en: 'Seoul' }).whereNull('parent_id').first();
  for (const school of schools) {
    expect(school.name_zh && school.name_ko).toBeTruthy();
    expect(Number(school.area_id)).toBe(Number(seoul.id));
    const district = await t.db('areas').where({ id: school.district_id }).first();
    expect(Number(district.parent_id)).toBe(Number(seoul.id));
  }
  const intakes = await t.db('school_admissions');
  expect(intakes.length).toBeGreaterThanOrEqual(3);
  const first = monthStart(0);
  const afterThird = monthStart(3);
  const types = new Set((await t.db('options').where({ key: 'document_type' }).pluck('value')).map(String));
  for (const intake of intakes) {
    expect(String(intake.application_deadline) >= first).toBe(true);
    expect(String(intake.application_deadline) < afterThird).toBe(true);
    const documents = await t.db('admission_documents').where({ admission_id: intake.id });
    expect(documents.length).toBeGreaterThanOrEqual(3);
    expect(documents.length).toBeLessThanOrEqual(4);
    for (const d of documents) expect(types.has(d.document_type)).toBe(true);
    expect(await count('admission_timetable', { admission_id: intake.id })).toBeGreaterThanOrEqual(1);
    expect(await count('admission_subjects', { admission_id: intake.id })).toBeGreaterThanOrEqual(1);
  }

  // again: nothing more
  expect(await seedDemo(t.db)).toBe(false);
  for (const table of TABLES) expect([table, await count(table)]).toEqual([table, counts[table]]);
});

it('keeps the intakes’ own rules, and the calendar shows them to the demo admin', async () => {
  const admin = new Client(t.app);
  expect((await admin.login(DEMO_ADMIN.email, DEMO_ADMIN.password)).status).toBe(200);
  const intakes = await t.db('school_admissions');
  for (const intake of intakes) {
    // an unchanged save passes the date order and the subjects-of-the-school rules
    const res = await admin.put(`/api/schools/${intake.school_id}/admissions/${intake.id}`, {
      subject_ids: (
        await t.db('admission_subjects').where({ admission_id: intake.id }).pluck('subject_id')
      ).map(Number),
    });
    expect([intake.id, res.status]).toEqual([intake.id, 200]);
  }
  const res = await admin
    .get(`/api/calendars?type=list&start=${monthStart(0)}&end=${monthStart(3)}`)
    .set('Accept-Language', 'en')
    .expect(200);
  const deadlines = res.body.items.filter((e: Row) => e.source === 'application_deadline');
  expect(deadlines.map((e: Row) => e.record.id).sort()).toEqual(intakes.map((i: Row) => Number(i.id)).sort());
  expect(res.body.items.some((e: Row) => e.source === 'timetable')).toBe(true);
  expect(res.body.items.filter((e: Row) => e.source === 'calendar_event')).toHaveLength(2);
  const schools = await admin.get('/api/schools').expect(200);
  expect(schools.body.total).toBe(3);
});

it('seeds the catalogue: services in their categories, a package the first intake opens, a briefing open today', async () => {
  const admin = new Client(t.app);
  expect((await admin.login(DEMO_ADMIN.email, DEMO_ADMIN.password)).status).toBe(200);
  expect(await count('product_categories')).toBe(2);
  expect(await count('products')).toBe(4);
  // the package keeps the quotation items' cascade, the event its dates' order: an unchanged save passes
  const [item] = await t.db('quotation_items');
  await admin
    .put(`/api/quotation-items/${item.id}`, { school_id: item.school_id, subject_id: item.subject_id })
    .expect(200);
  const [event] = await t.db('special_events');
  await admin.put(`/api/special-events/${event.id}`, { reg_start_date: seedDay(-3) }).expect(200);
  const open = await admin.get('/api/special-events?date_type=reg_date').expect(200);
  expect(open.body.items.map((e: Row) => e.id)).toEqual([event.id]);
  const feed = await admin
    .get(`/api/calendars?type=list&start=${seedDay(0)}&end=${seedDay(30)}`)
    .set('Accept-Language', 'en')
    .expect(200);
  const sources = feed.body.items
    .filter((e: Row) => e.record.type === 'special_event')
    .map((e: Row) => e.source);
  expect(sources).toEqual(['event_registration', 'special_event']);
});

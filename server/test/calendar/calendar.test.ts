/**
 * The calendar feed (`GET /api/calendars`, issue 12) and staff's own entries (`/api/calendar-events`): a month
 * holds its holidays and an intake's milestones (window, deadline, interview, result, semester, timetable) titled
 * in the caller's language, and nothing outside the range; the sources filter; what a caller sees follows its
 * permissions and its branch; the range is validated (422, never 500). The generic contract of
 * `/api/calendar-events` runs in server/test/resources/contract.test.ts.
 */
import { CALENDAR_MAX_DAYS, CALENDAR_SOURCES } from '../../../shared/calendar';
import { Client, createBranch, createTestApp, signedInAdmin, type TestApp } from '../harness';
import { signIn } from '../resources/helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let schoolId: number;
let intakeId: number;
let laterIntakeId: number;
let branchA: number;
let branchB: number;

const MARCH = '/api/calendars?start=2031-03-01&end=2031-04-01';

async function feed(client: Client, url: string, language: 'en' | 'zh-HK' = 'en'): Promise<Row> {
  const res = await client.get(url).set('Accept-Language', language);
  expect([url, res.status]).toEqual([url, 200]);
  return res.body;
}

/** WCAG 2 contrast ratio of a `#rrggbb` colour against white. */
function contrastOnWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

const ids = (body: Row): string[] => body.items.map((e: Row) => e.id);
const byId = (body: Row, id: string): Row | undefined => body.items.find((e: Row) => e.id === id);

async function holiday(date: string, name_en: string, name_zh: string): Promise<number> {
  const res = await admin.post('/api/holidays', { date, name_en, name_zh });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function calendarEvent(client: Client, body: Row): Promise<Row> {
  const res = await client.post('/api/calendar-events', body);
  if (res.status !== 201) throw new Error(`calendar event: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
  const school = await admin
    .post('/api/schools', { code: 'KUCAL', name_en: 'Korea University', name_zh: '高麗大學' })
    .expect(201);
  schoolId = school.body.id;
  const intake = await admin.post(`/api/schools/${schoolId}/admissions`, {
    name_en: '2031 Spring',
    name_zh: '2031 春季',
    year: 2031,
    application_start: '2031-02-20',
    application_deadline: '2031-03-10',
    interview_date: '2031-03-15',
    result_date: '2031-03-25',
    semester_start: '2031-03-30',
    timetable: [{ date: '2031-03-05', title_en: 'Document check', title_zh: '文件檢查' }],
  });
  expect(intake.status).toBe(201);
  intakeId = intake.body.id;
  // an intake entirely after March
  const later = await admin.post(`/api/schools/${schoolId}/admissions`, {
    name_en: '2031 Fall',
    name_zh: '2031 秋季',
    year: 2031,
    application_start: '2031-05-01',
    application_deadline: '2031-05-20',
    interview_date: '2031-06-01',
    result_date: '2031-06-15',
    semester_start: '2031-09-01',
    timetable: [{ date: '2031-05-05', title_en: 'Briefing', title_zh: '簡介會' }],
  });
  expect(later.status).toBe(201);
  laterIntakeId = later.body.id;
  await holiday('2031-02-28', 'Before March', '三月前');
  await holiday('2031-03-03', 'Test Day', '測試日');
  await holiday('2031-04-01', 'After March', '三月後');
});
afterAll(() => t.close());

describe('GET /api/calendars: a month of holidays and intake milestones', () => {
  it('answers the intake’s milestones and the month’s holidays, titled in English, each linking to its record', async () => {
    const body = await feed(admin, `${MARCH}&type=list`);
    expect(body).toMatchObject({ type: 'list', start: '2031-03-01', end: '2031-04-01' });
    const url = `/schools/admission/${schoolId}/${intakeId}`;
    const record = { type: 'school_admission', id: intakeId };
    const common = { detail: 'Korea University', all_day: true, url, record, branch_id: null };
    expect(byId(body, `application_window:${intakeId}`)).toMatchObject({
      ...common,
      source: 'application_window',
      title: 'Application period: Korea University 2031 Spring',
      start: '2031-02-20',
      // FullCalendar's exclusive end: the day after the deadline
      end: '2031-03-11',
    });
    const oneDay = (source: string, start: string, title: string) =>
      expect(byId(body, `${source}:${intakeId}`)).toMatchObject({
        ...common,
        source,
        title,
        start,
        end: null,
      });
    oneDay('application_deadline', '2031-03-10', 'Application deadline: Korea University 2031 Spring');
    oneDay('interview', '2031-03-15', 'Interview: Korea University 2031 Spring');
    oneDay('result', '2031-03-25', 'Results: Korea University 2031 Spring');
    oneDay('semester_start', '2031-03-30', 'Semester starts: Korea University 2031 Spring');
    const timetable = body.items.find((e: Row) => e.source === 'timetable');
    expect(timetable).toMatchObject({
      ...common,
      title: 'Document check: Korea University 2031 Spring',
      start: '2031-03-05',
      end: null,
    });
    const testDay = body.items.filter((e: Row) => e.source === 'holiday');
    expect(testDay).toHaveLength(1);
    expect(testDay[0]).toMatchObject({
      title: 'Test Day',
      start: '2031-03-03',
      end: null,
      all_day: true,
      detail: null,
      url: '/settings/holiday?year=2031',
      branch_id: null,
      record: { type: 'holiday' },
    });
    // each entry in its source's colour; the legend lists every source an admin may see
    expect(body.sources.map((s: Row) => s.key)).toEqual([...CALENDAR_SOURCES]);
    const colours = new Map(body.sources.map((s: Row) => [s.key, s.color]));
    for (const entry of body.items) expect(entry.color).toBe(colours.get(entry.source));
    expect(new Set(colours.values()).size).toBe(CALENDAR_SOURCES.length);
    for (const [key, colour] of colours)
      expect([key, contrastOnWhite(String(colour)) >= 4.5]).toEqual([key, true]);
    expect(new Set(ids(body)).size).toBe(body.items.length);
  });

  it('leaves out what falls outside the range (end exclusive), and sorts a list by start then title', async () => {
    await holiday('2031-03-10', 'Aardvark Day', '土豚日');
    const body = await feed(admin, `${MARCH}&type=list`);
    expect(
      body.items.filter((e: Row) => e.record.type === 'school_admission' && e.record.id === laterIntakeId),
    ).toEqual([]);
    const titles = body.items.map((e: Row) => e.title);
    expect(titles).not.toContain('Before March');
    expect(titles).not.toContain('After March');
    for (let i = 1; i < body.items.length; i++) {
      const [a, b] = [body.items[i - 1], body.items[i]];
      expect(a.start < b.start || (a.start === b.start && a.title.localeCompare(b.title) <= 0)).toBe(true);
    }
    expect(body.items.filter((e: Row) => e.start === '2031-03-10').map((e: Row) => e.title)).toEqual([
      'Aardvark Day',
      'Application deadline: Korea University 2031 Spring',
    ]);
    // a window overlapping a range that holds none of its ends is in it; the day after the deadline is past it
    const inside = await feed(admin, '/api/calendars?start=2031-03-05&end=2031-03-06');
    expect(inside.items.map((e: Row) => e.source).sort()).toEqual(['application_window', 'timetable']);
    expect(byId(inside, `application_window:${intakeId}`)).toBeDefined();
    const after = await feed(admin, '/api/calendars?start=2031-03-11&end=2031-03-12');
    expect(after.items).toEqual([]);
    // the later intake in its own month
    const may = await feed(admin, '/api/calendars?start=2031-05-01&end=2031-06-01');
    expect(may.items.map((e: Row) => e.source).sort()).toEqual(
      ['application_deadline', 'application_window', 'timetable'].sort(),
    );
  });

  it('titles entries in Traditional Chinese for a zh-HK caller', async () => {
    const body = await feed(admin, MARCH, 'zh-HK');
    const title = (id: string) => byId(body, id)?.title;
    expect(title(`application_window:${intakeId}`)).toBe('申請期：高麗大學 2031 春季');
    expect(title(`application_deadline:${intakeId}`)).toBe('申請截止：高麗大學 2031 春季');
    expect(title(`interview:${intakeId}`)).toBe('面試：高麗大學 2031 春季');
    expect(title(`result:${intakeId}`)).toBe('放榜：高麗大學 2031 春季');
    expect(title(`semester_start:${intakeId}`)).toBe('開學：高麗大學 2031 春季');
    expect(body.items.find((e: Row) => e.source === 'timetable')?.title).toBe('文件檢查：高麗大學 2031 春季');
    expect(body.items.filter((e: Row) => e.source === 'holiday').map((e: Row) => e.title)).toContain(
      '測試日',
    );
    expect(byId(body, `interview:${intakeId}`)?.detail).toBe('高麗大學');
  });

  it('answers only the sources asked for', async () => {
    const body = await feed(admin, `${MARCH}&sources=holiday,interview`);
    expect([...new Set(body.items.map((e: Row) => e.source))].sort()).toEqual(['holiday', 'interview']);
    expect(body.items.filter((e: Row) => e.source === 'interview')).toHaveLength(1);
    // the legend still lists every source the caller may see
    expect(body.sources).toHaveLength(CALENDAR_SOURCES.length);
    expect((await feed(admin, `${MARCH}&sources=`)).items).toEqual([]);
  });
});

describe('who sees what', () => {
  it('gives a user without schools.view the holidays but no intake entries', async () => {
    const viewer = await signIn(t, ['calendar.view']);
    const body = await feed(viewer, MARCH);
    expect(body.items.length).toBeGreaterThan(0);
    expect(new Set(body.items.map((e: Row) => e.source))).toEqual(new Set(['holiday']));
    expect(body.sources.map((s: Row) => s.key)).toEqual(['holiday', 'calendar_event']);
    // asking for an intake source it may not see answers nothing of it
    expect((await feed(viewer, `${MARCH}&sources=application_deadline`)).items).toEqual([]);
    const both = await signIn(t, ['calendar.view', 'schools.view']);
    expect((await feed(both, MARCH)).items.some((e: Row) => e.source === 'application_deadline')).toBe(true);
  });

  it('refuses a user without calendar.view with 403', async () => {
    const schoolsOnly = await signIn(t, ['schools.view']);
    expect((await schoolsOnly.get(MARCH)).status).toBe(403);
    expect((await new Client(t.app).get(MARCH)).status).toBe(401);
  });

  it('shows a branch’s own entries to that branch and to all-branch users only; branch_id filters them', async () => {
    const inB = await calendarEvent(admin, {
      title: 'Branch B open day',
      start_at: '2031-03-12T02:00:00Z',
      end_at: '2031-03-12T03:00:00Z',
      branch_id: branchB,
    });
    const writerA = await signIn(t, ['calendar.view', 'calendar.create'], { branchId: branchA });
    // a new entry belongs to its creator's branch, and records its creator
    const inA = await calendarEvent(writerA, { title: 'Branch A meeting', start_at: '2031-03-13T01:00:00Z' });
    expect(inA.branch_id).toBe(branchA);
    const stored = await t.db('calendar_events').where({ id: inA.id }).first();
    const me = await writerA.get('/api/user').expect(200);
    expect(Number(stored.user_id)).toBe(me.body.id ?? me.body.user?.id);
    expect(Number(stored.branch_id)).toBe(branchA);

    const idB = `calendar_event:${inB.id}`;
    const idA = `calendar_event:${inA.id}`;
    const scopedA = await signIn(t, ['calendar.view'], { branchId: branchA });
    const seenByA = await feed(scopedA, MARCH);
    expect(ids(seenByA)).toContain(idA);
    expect(ids(seenByA)).not.toContain(idB);
    expect((await feed(scopedA, `${MARCH}&branch_id=${branchA}`)).items.map((e: Row) => e.id)).toContain(idA);
    // another branch does not exist for a branch-scoped caller
    expect((await scopedA.get(`${MARCH}&branch_id=${branchB}`)).status).toBe(404);

    const everyBranch = await signIn(t, ['calendar.view']);
    const all = await feed(everyBranch, MARCH);
    expect(ids(all)).toEqual(expect.arrayContaining([idA, idB]));
    expect(byId(all, idB)).toMatchObject({
      source: 'calendar_event',
      title: 'Branch B open day',
      start: '2031-03-12T02:00:00.000Z',
      end: '2031-03-12T03:00:00.000Z',
      all_day: false,
      url: `/calendar/events/${inB.id}`,
      record: { type: 'calendar_event', id: inB.id },
      branch_id: branchB,
    });
    const onlyA = await feed(everyBranch, `${MARCH}&branch_id=${branchA}`);
    expect(ids(onlyA)).toContain(idA);
    expect(ids(onlyA)).not.toContain(idB);
    // agency-wide entries stay whatever the branch
    expect(onlyA.items.some((e: Row) => e.source === 'holiday')).toBe(true);
    expect(ids(await feed(everyBranch, `${MARCH}&branch_id=${branchB}`))).toContain(idB);
  });

  it('places staff entries on Hong Kong days: all-day spans, its own colour, midnight bounds', async () => {
    const allDay = await calendarEvent(admin, {
      title: 'Agency trip',
      // Hong Kong 20 March 00:00 to 22 March 00:00: the 20th and the 21st
      start_at: '2031-03-20T00:00:00+08:00',
      end_at: '2031-03-22T00:00:00+08:00',
      all_day: true,
      color: '#0958d9',
      branch_id: branchA,
    });
    // 1 March 01:00 in Hong Kong is 28 February in UTC; 1 April 00:30 in Hong Kong is 31 March in UTC
    const early = await calendarEvent(admin, {
      title: 'Early',
      start_at: '2031-02-28T17:00:00Z',
      branch_id: branchA,
    });
    const late = await calendarEvent(admin, {
      title: 'Late',
      start_at: '2031-03-31T16:30:00Z',
      branch_id: branchA,
    });
    const body = await feed(admin, MARCH);
    expect(byId(body, `calendar_event:${allDay.id}`)).toMatchObject({
      start: '2031-03-20',
      end: '2031-03-22',
      all_day: true,
      color: '#0958d9',
    });
    expect(ids(body)).toContain(`calendar_event:${early.id}`);
    expect(ids(body)).not.toContain(`calendar_event:${late.id}`);
    expect(ids(await feed(admin, '/api/calendars?start=2031-04-01&end=2031-04-02'))).toContain(
      `calendar_event:${late.id}`,
    );
  });

  it('refuses a staff entry ending before it starts, on create and on update', async () => {
    const res = await admin.post('/api/calendar-events', {
      title: 'Backwards',
      start_at: '2031-03-12T05:00:00Z',
      end_at: '2031-03-12T04:00:00Z',
    });
    expect(res.status).toBe(422);
    expect(res.body.error_keys?.end_at?.[0]?.key).toBe('endBeforeStart');
    // 06:00 in Hong Kong is 22:00 UTC the day before: before the start
    const offset = await admin.post('/api/calendar-events', {
      title: 'Backwards by its offset',
      start_at: '2031-03-12T05:00:00Z',
      end_at: '2031-03-12T06:00:00+08:00',
    });
    expect(offset.status).toBe(422);
    const entry = await calendarEvent(admin, {
      title: 'Forwards',
      start_at: '2031-03-12T05:00:00Z',
      end_at: '2031-03-12T06:00:00Z',
    });
    const moved = await admin.put(`/api/calendar-events/${entry.id}`, { start_at: '2031-03-12T07:00:00Z' });
    expect(moved.status).toBe(422);
    expect(moved.body.error_keys?.start_at?.[0]?.key).toBe('endBeforeStart');
    const read = await admin.get(`/api/calendar-events/${entry.id}`).expect(200);
    expect(read.body).toMatchObject({
      start_at: '2031-03-12T05:00:00.000Z',
      end_at: '2031-03-12T06:00:00.000Z',
    });
  });
});

describe('the range', () => {
  const refused = async (query: string) => {
    const res = await admin.get(`/api/calendars?${query}`);
    expect([query, res.status]).toEqual([query, 422]);
    expect(res.body.code).toBe('validation');
    return res.body;
  };

  it('refuses an end not after the start, a range over the maximum, and bad dates with 422, never 500', async () => {
    expect((await refused('start=2031-03-01&end=2031-03-01')).error_keys.end[0].key).toBe(
      'calendarEndAfterStart',
    );
    expect((await refused('start=2031-03-02&end=2031-03-01')).error_keys.end[0].key).toBe(
      'calendarEndAfterStart',
    );
    // 2031-01-01 + 400 days is 2032-02-05
    const long = await refused('start=2031-01-01&end=2032-02-06');
    expect(long.error_keys.end[0]).toEqual({
      key: 'calendarRangeTooLong',
      params: { max: CALENDAR_MAX_DAYS },
    });
    await feed(admin, '/api/calendars?start=2031-01-01&end=2032-02-05');
    for (const query of [
      'start=2031-02-30&end=2031-03-05',
      'start=yesterday&end=2031-03-05',
      'start=2031-03-01',
      'end=2031-03-01',
      'start=2031-03-01T00:00:00Z&end=2031-03-05',
      'start=2031-03-01&end=2031-03-05&type=week',
      'start=2031-03-01&end=2031-03-05&sources=holiday,nonsense',
      'start=2031-03-01&end=2031-03-05&branch_id=abc',
      'start=2031-03-01&end=2031-03-05&unknown=1',
    ]) {
      await refused(query);
    }
  });
});

/**
 * The catalogue and events (issue 26): the rules that are their own beyond the generic contract (which covers
 * list, search, sort, paging, create, update, duplicates, deletes with counts and branch scope of the four
 * declarations) — an event's date order, the list's default date window, registrations' capacity under
 * concurrency, once per student, the registration period and the attend / cancel moves, a registration in its
 * student's branch, services still in use refused deletion (guarded references counted once their table exists),
 * quotation items' school → intake → subject cascade, KRW stored ×100, the product template in both languages,
 * and events in the calendar feed.
 */
import { addDays } from '../../src/modules/calendar/calendar.sources';
import { toDbDateTime } from '../../src/lib/clock';
import { businessToday } from '../../src/modules/numbering/business-time';
import { onMysql, createBranch, createTestApp, signedInAdmin, type Client, type TestApp } from '../harness';
import { download, listAll, readCsv, readXlsx, signIn } from '../resources/helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let seq = 0;
let branchA: number;
let branchB: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
});
afterAll(() => t.close());

const today = () => businessToday();
const count = async (table: string, where: Row = {}) =>
  Number((await t.db(table).where(where).count({ n: '*' }).first())?.n);

/** An event whose registration is open today unless `extra` says otherwise, ending tomorrow evening. */
function eventBody(extra: Row = {}): Row {
  const n = ++seq;
  const day = addDays(today(), 1);
  return {
    event_type: 'seminar',
    title_en: `Briefing ${n}`,
    title_zh: `簡介會 ${n}`,
    reg_start_date: addDays(today(), -3),
    reg_end_date: day,
    event_start: `${day}T10:00:00+08:00`,
    event_end: `${day}T12:00:00+08:00`,
    venue: 'Mong Kok office',
    ...extra,
  };
}

async function event(extra: Row = {}): Promise<Row> {
  const res = await admin.post('/api/special-events', eventBody(extra));
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

/** Students inserted straight into the table (their own numbering is the students' tests' concern). */
async function students(n: number, branchId = branchA): Promise<number[]> {
  const ids: number[] = [];
  const now = toDbDateTime();
  for (let i = 0; i < n; i++) {
    const [id] = await t.db('students').insert({
      student_no: `EV-${++seq}`,
      branch_id: branchId,
      surname_en: 'CHAN',
      given_name_en: `Student ${seq}`,
      created_at: now,
      updated_at: now,
    });
    ids.push(Number(id));
  }
  return ids;
}

const register = (client: Client, eventId: number, studentId: number) =>
  client.post(`/api/special-events/${eventId}/registrations`, { student_id: studentId });

describe('special events: dates in order', () => {
  it('refuses registration closing before it opens, after the event ends, and an event ending before it starts', async () => {
    const before = await count('special_events');
    const cases: [Row, string, string][] = [
      [{ reg_start_date: '2027-03-10', reg_end_date: '2027-03-09' }, 'reg_end_date', 'regEndBeforeRegStart'],
      [
        { event_start: '2027-03-20T10:00:00+08:00', event_end: '2027-03-20T09:59:00+08:00' },
        'event_end',
        'endBeforeStart',
      ],
      [
        {
          reg_start_date: '2027-03-01',
          reg_end_date: '2027-03-21',
          event_start: '2027-03-20T10:00:00+08:00',
          event_end: '2027-03-20T12:00:00+08:00',
        },
        'reg_end_date',
        'regEndAfterEventEnd',
      ],
    ];
    for (const [dates, field, key] of cases) {
      const res = await admin.post('/api/special-events', eventBody(dates));
      expect([key, res.status, res.body.code]).toEqual([key, 422, 'validation']);
      expect(res.body.error_keys[field]).toEqual([{ key }]);
    }
    expect(await count('special_events')).toBe(before);
  });

  it('reads the event’s last day in Hong Kong time: registration may close on it, not after', async () => {
    // 16:30 UTC on 1 March is 00:30 on 2 March in Hong Kong
    const late = {
      reg_start_date: '2027-02-01',
      event_start: '2027-03-01T10:00:00Z',
      event_end: '2027-03-01T16:30:00Z',
    };
    await event({ ...late, reg_end_date: '2027-03-02' });
    const res = await admin.post('/api/special-events', eventBody({ ...late, reg_end_date: '2027-03-03' }));
    expect(res.status).toBe(422);
    expect(res.body.error_keys.reg_end_date).toEqual([{ key: 'regEndAfterEventEnd' }]);
  });

  it('checks an update against the stored dates, naming the field it changes', async () => {
    const row = await event();
    const res = await admin.put(`/api/special-events/${row.id}`, { reg_start_date: addDays(today(), 30) });
    expect(res.status).toBe(422);
    expect(res.body.error_keys.reg_start_date).toEqual([{ key: 'regEndBeforeRegStart' }]);
    const moved = await admin.put(`/api/special-events/${row.id}`, {
      event_end: `${addDays(today(), -10)}T12:00:00+08:00`,
    });
    expect(moved.status).toBe(422);
    expect(Object.keys(moved.body.error_keys)).toEqual(['event_end']);
    expect((await admin.get(`/api/special-events/${row.id}`).expect(200)).body.reg_start_date).toBe(
      row.reg_start_date,
    );
  });

  it('stores the event’s times in UTC and answers them as ISO 8601', async () => {
    const row = await event({
      reg_start_date: '2027-05-01',
      reg_end_date: '2027-05-10',
      event_start: '2027-05-10T18:30:00+08:00',
      event_end: '2027-05-10T20:00:00+08:00',
    });
    expect(row.event_start).toBe('2027-05-10T10:30:00.000Z');
    expect((await t.db('special_events').where({ id: row.id }).first()).event_start).toMatch(
      /^2027-05-10[ T]10:30:00/,
    );
  });
});

describe('the special events list’s date window (?date_type=&start=&end=)', () => {
  let open: Row, closed: Row, laterThisYear: Row | null, nextYear: Row, eventOnly: Row;

  beforeAll(async () => {
    const now = today();
    const year = Number(now.slice(0, 4));
    open = await event({ reg_start_date: addDays(now, -5), reg_end_date: now });
    closed = await event({ reg_start_date: addDays(now, -30), reg_end_date: addDays(now, -1) });
    // registration opens later this year (none when today is 31 December)
    laterThisYear =
      now < `${year}-12-31`
        ? await event({
            reg_start_date: `${year}-12-31`,
            reg_end_date: `${year}-12-31`,
            event_start: `${year + 1}-01-05T10:00:00+08:00`,
            event_end: `${year + 1}-01-05T12:00:00+08:00`,
          })
        : null;
    nextYear = await event({
      reg_start_date: `${year + 1}-01-02`,
      reg_end_date: `${year + 1}-01-20`,
      event_start: `${year + 1}-01-25T10:00:00+08:00`,
      event_end: `${year + 1}-01-25T12:00:00+08:00`,
    });
    // registration closed long ago, the event itself next month
    eventOnly = await event({
      reg_start_date: addDays(now, -60),
      reg_end_date: addDays(now, -40),
      event_start: `${addDays(now, 30)}T10:00:00+08:00`,
      event_end: `${addDays(now, 30)}T12:00:00+08:00`,
    });
  });

  const ids = async (query: string) =>
    (await listAll(admin, `/api/special-events?${query}`)).map((r) => r.id);

  it('defaults to registration dates from today (Hong Kong) to 31 December of this year', async () => {
    const year = today().slice(0, 4);
    const byDefault = await ids('date_type=reg_date');
    const explicit = await ids(`date_type=reg_date&start=${today()}&end=${year}-12-31`);
    expect(byDefault).toEqual(explicit);
    // the start alone or the end alone take the other's default; no date_type means registration dates
    expect(await ids(`start=${today()}`)).toEqual(explicit);
    expect(await ids(`end=${year}-12-31`)).toEqual(explicit);
    expect(byDefault).toContain(open.id);
    if (laterThisYear) expect(byDefault).toContain(laterThisYear.id);
    for (const out of [closed, nextYear, eventOnly]) expect(byDefault).not.toContain(out.id);
    console.log(
      `special events window: date_type=reg_date → ${today()} to ${year}-12-31 (Hong Kong), ` +
        `${byDefault.length} events, the same as the explicit range`,
    );
  });

  it('ranges over the events’ own dates with date_type=event_date', async () => {
    const found = await ids(`date_type=event_date&start=${addDays(today(), 29)}&end=${addDays(today(), 31)}`);
    expect(found).toContain(eventOnly.id);
    expect(found).not.toContain(open.id);
    const next = await ids(`date_type=event_date&start=${nextYear.event_start.slice(0, 10)}`);
    expect(next).toContain(nextYear.id);
  });

  it('lists every event when no window is asked for (pickers, exports of the whole list)', async () => {
    const all = (await listAll(admin, '/api/special-events')).map((r) => r.id);
    for (const e of [open, closed, nextYear, eventOnly]) expect(all).toContain(e.id);
  });

  it('refuses a window that ends before it starts, or an unknown date type, on its field', async () => {
    const reversed = await admin.get(`/api/special-events?start=${today()}&end=${addDays(today(), -1)}`);
    expect(reversed.status).toBe(422);
    expect(reversed.body.error_keys.end).toEqual([{ key: 'dateRangeOrder' }]);
    const unknown = await admin.get('/api/special-events?date_type=deadline');
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.error_keys)).toEqual(['date_type']);
  });
});

describe('registrations (POST /api/special-events/:id/registrations)', () => {
  it('holds the capacity under concurrency: 30 parallel registrations for 10 places', async () => {
    const row = await event({ capacity: 10 });
    const ids = await students(30);
    const answers = await Promise.all(ids.map((id) => register(admin, row.id, id)));
    const registered = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter(
      (r) => r.status === 422 && r.body.code === 'business_rule' && r.body.message_key === 'eventFull',
    ).length;
    const errors = answers.length - registered - refused;
    console.log(
      `registrations: ${answers.length} tried, ${registered} registered, ${refused} refused, ${errors} errors ` +
        `(${onMysql ? 'MariaDB' : 'SQLite'})`,
    );
    expect({ registered, refused, errors }).toEqual({ registered: 10, refused: 20, errors: 0 });
    expect(await count('special_event_registrations', { special_event_id: row.id })).toBe(10);
    const refusal = answers.find((r) => r.status === 422)!;
    expect(refusal.body.message_params).toEqual({ capacity: 10 });
    expect((await admin.get(`/api/special-events/${row.id}`).expect(200)).body.registered_count).toBe(10);
  });

  it('registers a student once per event, even when asked five times at once', async () => {
    const row = await event();
    const [student] = await students(1);
    const answers = await Promise.all(Array.from({ length: 5 }, () => register(admin, row.id, student)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 201)) {
      expect([r.status, r.body.code, Object.keys(r.body.errors)]).toEqual([422, 'duplicate', ['student_id']]);
    }
    expect(await count('special_event_registrations', { special_event_id: row.id })).toBe(1);
    // the same student may register for another event
    await register(admin, (await event()).id, student).expect(201);
  });

  it('is closed outside the registration period, unless the caller may change events', async () => {
    const registrar = await signIn(t, ['students.view', 'students.create', 'special_events.view']);
    const manager = await signIn(t, [
      'students.view',
      'students.create',
      'special_events.view',
      'special_events.update',
    ]);
    const past = await event({ reg_start_date: addDays(today(), -10), reg_end_date: addDays(today(), -1) });
    const future = await event({
      reg_start_date: addDays(today(), 2),
      reg_end_date: addDays(today(), 3),
      event_start: `${addDays(today(), 4)}T10:00:00+08:00`,
      event_end: `${addDays(today(), 4)}T11:00:00+08:00`,
    });
    const current = await event({ reg_start_date: today(), reg_end_date: today() });
    const [a, b, c] = await students(3);
    for (const closed of [past, future]) {
      const res = await register(registrar, closed.id, a);
      expect([res.status, res.body.code, res.body.message_key]).toEqual([
        422,
        'business_rule',
        'eventRegistrationClosed',
      ]);
      expect(res.body.message_params).toEqual({ start: closed.reg_start_date, end: closed.reg_end_date });
      await register(manager, closed.id, b).expect(201);
    }
    // the first and last days are open
    await register(registrar, current.id, c).expect(201);
    expect(await count('special_event_registrations', { student_id: a })).toBe(0);
  });

  it('marks a registration attended or cancelled, a cancelled one freeing its place', async () => {
    const row = await event({ capacity: 1 });
    const [a, b] = await students(2);
    const first = (await register(admin, row.id, a).expect(201)).body;
    expect(first.status).toBe('registered');
    expect(first.allowed_actions).toEqual(['update', 'delete', 'attend', 'cancel']);
    expect(Date.parse(first.registered_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await register(admin, row.id, b)).body.message_key).toBe('eventFull');
    const cancelled = await admin.post(`/api/special-event-registrations/${first.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', allowed_actions: ['update', 'delete'] });
    const second = (await register(admin, row.id, b).expect(201)).body;
    const attended = await admin.post(`/api/special-event-registrations/${second.id}/attend`).expect(200);
    expect(attended.body.status).toBe('attended');
    // no other move: a cancelled registration is not attended, an attended one not cancelled
    const wrong = await admin.post(`/api/special-event-registrations/${first.id}/attend`);
    expect([wrong.status, wrong.body.message_key]).toEqual([409, 'registrationCannotAttend']);
    const late = await admin.post(`/api/special-event-registrations/${second.id}/cancel`);
    expect([late.status, late.body.message_key]).toEqual([409, 'registrationCannotCancel']);
    const audit = await t
      .db('audit_logs')
      .where({ entity: 'special_event_registration', entity_id: first.id });
    expect(audit.map((r: Row) => r.action).sort()).toEqual(['cancel', 'create']);
  });

  it('keeps the capacity at or above the places taken', async () => {
    const row = await event({ capacity: 5 });
    for (const id of await students(3)) await register(admin, row.id, id).expect(201);
    const res = await admin.put(`/api/special-events/${row.id}`, { capacity: 2 });
    expect([res.status, res.body.error_keys?.capacity]).toEqual([
      422,
      [{ key: 'capacityBelowTaken', params: { count: 3 } }],
    ]);
    await admin.put(`/api/special-events/${row.id}`, { capacity: 3 }).expect(200);
    await admin.put(`/api/special-events/${row.id}`, { capacity: null }).expect(200);
  });

  it('is in its student’s branch: another branch sees neither it nor its student, nor registers that student', async () => {
    const row = await event();
    const [mine] = await students(1, branchA);
    const [theirs] = await students(1, branchB);
    const own = (await register(admin, row.id, mine).expect(201)).body;
    const other = (await register(admin, row.id, theirs).expect(201)).body;
    const keys = [
      'students.view',
      'students.create',
      'students.update',
      'students.delete',
      'special_events.view',
    ];
    const scoped = await signIn(t, keys, { branchId: branchB });
    const seen = (await listAll(scoped, `/api/special-events/${row.id}/registrations`)).map((r) => r.id);
    expect(seen).toEqual([other.id]);
    await scoped.get(`/api/special-event-registrations/${own.id}`).expect(404);
    await scoped.post(`/api/special-event-registrations/${own.id}/cancel`).expect(404);
    await scoped.get(`/api/students/${mine}/event-registrations`).expect(404);
    const [another] = await students(1, branchA);
    await register(scoped, row.id, another).expect(404);
    expect(await count('special_event_registrations', { student_id: another })).toBe(0);
    // the student's record lists the student's registrations, with the event's name in the reader's language
    const listed = await listAll(admin, `/api/students/${mine}/event-registrations`, 'zh_HK');
    expect(listed.map((r) => [r.id, r.special_event_name])).toEqual([[own.id, row.title_zh]]);
  });

  it('keeps an event with registrations, and a student with registrations, from deletion', async () => {
    const row = await event();
    const [student] = await students(1);
    await register(admin, row.id, student).expect(201);
    const refused = await admin.delete(`/api/special-events/${row.id}`);
    expect([refused.status, refused.body.references]).toEqual([409, { registrations: 1 }]);
    const kept = await admin.delete(`/api/students/${student}`);
    expect([kept.status, kept.body.references]).toEqual([409, { event_registrations: 1 }]);
  });
});

describe('services (products)', () => {
  async function category(): Promise<Row> {
    const n = ++seq;
    return (
      await admin
        .post('/api/product-categories', { name_en: `Visa services ${n}`, name_zh: `簽證服務 ${n}` })
        .expect(201)
    ).body;
  }

  async function product(extra: Row = {}): Promise<Row> {
    const n = ++seq;
    const res = await admin.post('/api/products', {
      code: `svc-${n}`,
      name_en: `Application handling ${n}`,
      name_zh: `申請手續 ${n}`,
      category_id: (await category()).id,
      unit: 'item',
      price: 250_000,
      currency: 'HKD',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('cannot be deleted while a quotation item, a quotation line or an order line uses it', async () => {
    const used = await product();
    // codes are kept upper-cased
    expect(used.code).toMatch(/^SVC-\d+$/);
    const item = await admin
      .post('/api/quotation-items', {
        code: `QI-${++seq}`,
        name_en: 'Visa bundle',
        name_zh: '簽證套餐',
        product_id: used.id,
        unit_price: 300_000,
        currency: 'HKD',
      })
      .expect(201);
    const refused = await admin.delete(`/api/products/${used.id}`);
    expect([refused.status, refused.body.code, refused.body.references]).toEqual([
      409,
      'referenced',
      { quotation_items: 1 },
    ]);
    expect(await count('products', { id: used.id })).toBe(1);
    // the sales documents' lines (issue 27) count too: a quotation line naming each, an order line the service
    const [studentId] = await students(1);
    const lineOf = (source: Row) => ({ description: 'x', quantity: 1, unit_price: 100, ...source });
    const quotation = await admin
      .post('/api/quotations', {
        student_id: studentId,
        date: today(),
        currency: 'HKD',
        lines: [lineOf({ product_id: used.id }), lineOf({ quotation_item_id: item.body.id })],
      })
      .expect(201);
    const order = await admin
      .post('/api/orders', {
        student_id: studentId,
        date: today(),
        currency: 'HKD',
        lines: [lineOf({ product_id: used.id })],
      })
      .expect(201);
    const both = await admin.delete(`/api/products/${used.id}`);
    expect(both.body.references).toEqual({ quotation_items: 1, quotation_lines: 1, order_items: 1 });
    const line = await admin.delete(`/api/quotation-items/${item.body.id}`);
    expect([line.status, line.body.references]).toEqual([409, { quotation_lines: 1 }]);
    await admin.delete(`/api/quotations/${quotation.body.id}`).expect(204);
    await admin.delete(`/api/quotation-items/${item.body.id}`).expect(204);
    // an invoice is never deleted (voided instead): the service it bills stays, refused with its count
    await admin.delete(`/api/orders/${order.body.id}`).expect(404);
    const billed = await admin.delete(`/api/products/${used.id}`);
    expect([billed.status, billed.body.references]).toEqual([409, { order_items: 1 }]);
  });

  it('keeps KRW ×100 like every currency, and exports it without decimals', async () => {
    const won = await product({ price: 15_000_000, currency: 'KRW' });
    expect(Number((await t.db('products').where({ id: won.id }).first()).price)).toBe(15_000_000);
    const csv = readCsv((await download(admin, `/api/products?format=csv&lang=en&q=${won.code}`)).body);
    const price = csv[0].indexOf('Price');
    expect(csv[1][price]).toBe('150000');
  });

  it('gives its import template in either language, the columns a file may hold', async () => {
    const en = await readXlsx(
      (await download(admin, '/api/products/import/template?format=xlsx&lang=en')).body,
    );
    const zh = await readXlsx(
      (await download(admin, '/api/products/import/template?format=xlsx&lang=zh_HK')).body,
    );
    expect(en[0]).toEqual([
      'Service code',
      'English name',
      'Chinese name',
      'Category',
      'Unit',
      'Price',
      'Currency',
      'Description',
      'Active',
    ]);
    expect(zh[0]).toEqual([
      '服務編號',
      '英文名稱',
      '中文名稱',
      '類別',
      '單位',
      '價格',
      '貨幣',
      '説明',
      '啟用',
    ]);
  });
});

describe('quotation items: school → intake → subject', () => {
  let school: Row, otherSchool: Row, intake: Row, subject: Row, notOpened: Row;

  beforeAll(async () => {
    const make = async (path: string, body: Row) => (await admin.post(path, body).expect(201)).body;
    school = await make('/api/schools', { code: `QS${++seq}`, name_en: 'Yonsei', name_zh: '延世' });
    otherSchool = await make('/api/schools', { code: `QS${++seq}`, name_en: 'Korea', name_zh: '高麗' });
    subject = await make(`/api/schools/${school.id}/subjects`, {
      code: 'KLP',
      name_en: 'KLP',
      name_zh: '韓語',
    });
    notOpened = await make(`/api/schools/${school.id}/subjects`, {
      code: 'BUS',
      name_en: 'BUS',
      name_zh: '商',
    });
    intake = await make(`/api/schools/${school.id}/admissions`, {
      name_en: 'Spring',
      name_zh: '春季',
      year: 2027,
      subject_ids: [subject.id],
    });
  });

  const item = (extra: Row) =>
    admin.post('/api/quotation-items', {
      code: `QI${++seq}`,
      name_en: 'Package',
      name_zh: '套餐',
      unit_price: 1_000_000,
      currency: 'KRW',
      ...extra,
    });

  it('takes a package whose intake is the school’s and opens the subject', async () => {
    const res = await item({ school_id: school.id, admission_id: intake.id, subject_id: subject.id });
    expect(res.status).toBe(201);
    const read = await admin
      .get(`/api/quotation-items/${res.body.id}`)
      .set('Accept-Language', 'zh-HK')
      .expect(200);
    expect(read.body).toMatchObject({
      school_name: '延世',
      admission_name: '春季',
      subject_name: 'KLP 韓語',
    });
  });

  it('refuses an intake without its school, of another school, a subject without an intake or not opened', async () => {
    const cases: [Row, string, string][] = [
      [{ admission_id: intake.id }, 'admission_id', 'chooseSchoolFirst'],
      [{ school_id: otherSchool.id, admission_id: intake.id }, 'admission_id', 'intakeNotOfSchool'],
      [{ school_id: school.id, subject_id: subject.id }, 'subject_id', 'chooseIntakeFirst'],
      [
        { school_id: school.id, admission_id: intake.id, subject_id: notOpened.id },
        'subject_id',
        'subjectNotOfIntake',
      ],
    ];
    const before = await count('quotation_items');
    for (const [body, field, key] of cases) {
      const res = await item(body);
      expect([key, res.status, res.body.error_keys?.[field]]).toEqual([key, 422, [{ key }]]);
    }
    expect(await count('quotation_items')).toBe(before);
  });
});

describe('special events in the calendar', () => {
  it('shows registration periods and the events to whoever may view events, in every branch scope', async () => {
    const row = await event({
      reg_start_date: '2031-03-01',
      reg_end_date: '2031-03-05',
      event_start: '2031-03-10T19:00:00+08:00',
      event_end: '2031-03-10T21:00:00+08:00',
    });
    const url = '/api/calendars?type=list&start=2031-03-01&end=2031-04-01';
    const viewer = await signIn(t, ['calendar.view', 'special_events.view'], {
      branchId: branchB,
      language: 'en',
    });
    const feed = (await viewer.get(url).set('Accept-Language', 'en').expect(200)).body;
    const mine = feed.items.filter((e: Row) => e.record.type === 'special_event' && e.record.id === row.id);
    expect(mine).toEqual([
      expect.objectContaining({
        source: 'event_registration',
        title: `Registration: ${row.title_en}`,
        start: '2031-03-01',
        end: '2031-03-06',
        all_day: true,
        url: `/special-events/basic/${row.id}`,
        branch_id: null,
      }),
      expect.objectContaining({
        source: 'special_event',
        title: row.title_en,
        detail: 'Mong Kok office',
        start: '2031-03-10T11:00:00.000Z',
        end: '2031-03-10T13:00:00.000Z',
        all_day: false,
        url: `/special-events/basic/${row.id}`,
      }),
    ]);
    const zh = (await viewer.get(url).set('Accept-Language', 'zh-HK').expect(200)).body;
    expect(zh.items.map((e: Row) => e.title)).toContain(`報名：${row.title_zh}`);
    const blind = await signIn(t, ['calendar.view'], { branchId: branchB });
    const none = (await blind.get(url).expect(200)).body;
    expect(none.items.some((e: Row) => e.record.type === 'special_event')).toBe(false);
    expect(none.sources.map((s: Row) => s.key)).not.toContain('special_event');
  });
});

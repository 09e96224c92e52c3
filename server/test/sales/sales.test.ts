/**
 * Quotations and invoices (issue 27), the rules beyond the generic contract: lines saved whole with totals the
 * server computes (shared/money.ts), a line's source in another currency refused, at most one source; quotations
 * numbered per branch and year, draft → sent → accepted, `expired` from `valid_until` in Hong Kong dates; the
 * contract tab; convert once (twice in parallel: one order, nothing else created); orders numbered gap-free under
 * 50 parallel creates; void / unvoid keeping the number, refused with an approved receipt, audited; the total never
 * below the receipts; the student's invoice tab and its refused delete; list filters; branch scope 404 on
 * quotations, orders and their PDFs. Run on SQLite and MariaDB.
 */
import { businessToday } from '../../src/modules/numbering/business-time';
import { addDays } from '../../src/modules/calendar/calendar.sources';
import { createBranch, createTestApp, onMysql, signedInAdmin, type Client, type TestApp } from '../harness';
import { PDF } from '../files/file-fixtures';
import { download, readXlsx, signIn } from '../resources/helpers';
import { insertProduct, insertStudent, line } from './sales-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
let studentA: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
  studentA = await insertStudent(t, branchA);
});
afterAll(() => t.close());

const count = async (table: string, where: Row = {}) =>
  Number((await t.db(table).where(where).count({ n: '*' }).first())?.n);

async function quotation(extra: Row = {}, client = admin): Promise<Row> {
  const res = await client.post('/api/quotations', {
    student_id: studentA,
    date: businessToday(),
    valid_until: addDays(businessToday(), 30),
    currency: 'HKD',
    lines: [line(2, 150_000, 1000), line(1, 99_999, 1250), line(3, 33_333)],
    ...extra,
  });
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

async function order(extra: Row = {}, client = admin): Promise<Row> {
  const res = await client.post('/api/orders', {
    student_id: studentA,
    date: businessToday(),
    due_date: addDays(businessToday(), 14),
    currency: 'HKD',
    lines: [line(1, 500_000), line(2, 12_345, 500)],
    ...extra,
  });
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

describe('lines and totals', () => {
  it('computes each net amount and the totals on the server, rounding half up once per line', async () => {
    const q = await quotation();
    // 2 × 1,500.00 less 10 % = 2,700.00; 999.99 less 12.5 % = 874.99125 → 874.99; 3 × 333.33 = 999.99
    expect(q.lines.map((l: Row) => l.net_amount)).toEqual([270_000, 87_499, 99_999]);
    expect([q.subtotal, q.total, q.discount_total]).toEqual([
      300_000 + 99_999 + 99_999,
      270_000 + 87_499 + 99_999,
      300_000 + 99_999 + 99_999 - (270_000 + 87_499 + 99_999),
    ]);
    const stored = await t.db('quotations').where({ id: q.id }).first();
    expect(Number(stored.total)).toBe(q.total);
    expect(q.branch_id).toBe(branchA);
    expect(q.status).toBe('draft');
    expect(q.quotation_no).toMatch(/^QUO-/);
  });

  it('rounds a KRW document to whole won, and recomputes the stored lines when the currency changes', async () => {
    const q = await quotation({ currency: 'KRW', lines: [line(1, 1_234_550, 1000)] });
    // ₩12,345.50 → stored ×100; less 10 % = ₩11,110.95 → ₩11,111 (whole won)
    expect(q.lines[0].net_amount).toBe(1_111_100);
    const hkd = await admin.put(`/api/quotations/${q.id}`, { currency: 'HKD' }).expect(200);
    expect(hkd.body.lines[0].net_amount).toBe(1_111_095);
    expect(hkd.body.total).toBe(1_111_095);
  });

  it('refuses a line whose service is priced in another currency, and a line with two sources', async () => {
    const krw = await insertProduct(t, 'KRW');
    const hkd = await insertProduct(t, 'HKD');
    const before = await count('quotations');
    const res = await admin.post('/api/quotations', {
      student_id: studentA,
      date: businessToday(),
      currency: 'HKD',
      lines: [line(1, 100, 0, { product_id: hkd }), line(1, 100, 0, { product_id: krw })],
    });
    expect(res.status).toBe(422);
    expect(res.body.error_keys['lines.1.product_id'][0].key).toBe('lineCurrencyMismatch');
    const two = await admin.post('/api/quotations', {
      student_id: studentA,
      date: businessToday(),
      currency: 'HKD',
      lines: [line(1, 100, 0, { product_id: hkd, quotation_item_id: 1 })],
    });
    expect(two.status).toBe(422);
    expect(two.body.error_keys['lines.0.quotation_item_id'][0].key).toBe('lineOneSource');
    // a net amount is never taken from a body
    const sent = await admin.post('/api/quotations', {
      student_id: studentA,
      date: businessToday(),
      currency: 'HKD',
      lines: [{ ...line(1, 100), net_amount: 1 }],
    });
    expect(sent.status).toBe(422);
    expect(await count('quotations')).toBe(before);
  });
});

describe('quotations', () => {
  it('opens a new document’s form on today (Hong Kong), the usual validity or due date, HKD', async () => {
    const q = (await admin.get('/api/quotations/create').expect(200)).body.defaults;
    expect(q).toMatchObject({
      date: businessToday(),
      valid_until: addDays(businessToday(), 30),
      currency: 'HKD',
    });
    const o = (await admin.get('/api/orders/create').expect(200)).body.defaults;
    expect(o).toMatchObject({
      date: businessToday(),
      due_date: addDays(businessToday(), 14),
      currency: 'HKD',
    });
  });

  it('moves draft → sent → accepted, shows expired past valid_until (Hong Kong dates) and refuses to accept it', async () => {
    const q = await quotation();
    expect(q.allowed_actions).toEqual(expect.arrayContaining(['update', 'delete', 'send']));
    await admin.post(`/api/quotations/${q.id}/accept`).expect(409);
    expect((await admin.post(`/api/quotations/${q.id}/send`).expect(200)).body.status).toBe('sent');
    // yesterday's validity: shown expired, found by the filter, never accepted
    const yesterday = addDays(businessToday(), -1);
    await t.db('quotations').where({ id: q.id }).update({ valid_until: yesterday });
    const read = (await admin.get(`/api/quotations/${q.id}`).expect(200)).body;
    expect(read.status).toBe('expired');
    expect(read.allowed_actions).not.toContain('accept');
    const expired = (await admin.get(`/api/quotations?status=expired&per_page=100`).expect(200)).body;
    expect(expired.items.map((r: Row) => r.id)).toContain(q.id);
    const sent = (await admin.get(`/api/quotations?status=sent&per_page=100`).expect(200)).body;
    expect(sent.items.map((r: Row) => r.id)).not.toContain(q.id);
    const refused = await admin.post(`/api/quotations/${q.id}/accept`);
    expect([refused.status, refused.body.message_key]).toEqual([409, 'quotationExpired']);
    // valid today (the last day counts)
    await t.db('quotations').where({ id: q.id }).update({ valid_until: businessToday() });
    expect((await admin.post(`/api/quotations/${q.id}/accept`).expect(200)).body.status).toBe('accepted');
  });

  it('numbers per branch and year, and copies the chosen order terms into the contract tab', async () => {
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    const [termId] = await t.db('order_terms').insert({
      title_en: 'Standard',
      title_zh: '標準條款',
      content_en: '<p>Pay within 14 days.</p>',
      content_zh: '<p>請於十四日內付款。</p>',
      is_default: false,
      is_active: true,
      sort_order: 0,
      created_at: now,
      updated_at: now,
    });
    const first = await quotation({ order_term_id: Number(termId) });
    const second = await quotation();
    const seqOf = (no: string) => Number(no.split('-').pop());
    expect(seqOf(second.quotation_no)).toBe(seqOf(first.quotation_no) + 1);
    expect(first.quotation_no).toContain(`-${businessToday().slice(0, 4)}-`);
    expect(first.contract_terms).toBe('<p>請於十四日內付款。</p>');
    const tab = (await admin.get(`/api/quotations/${first.id}?tab=contract`).expect(200)).body;
    expect(tab.tab).toBe('contract');
    expect(tab.order_terms).toMatchObject({ id: Number(termId), title: '標準條款' });
    const edited = await admin
      .put(`/api/quotations/${first.id}`, {
        contract_no: 'C-001',
        contract_date: businessToday(),
        signatory_name: '陳大文',
        contract_terms: '<p>Edited</p>',
      })
      .expect(200);
    expect(edited.body.contract_terms).toBe('<p>Edited</p>');
    const pdf = await admin.get(`/api/quotations/${first.id}?format=pdf&tab=contract`).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});

describe('convert', () => {
  it('converts an accepted quotation once: two conversions in parallel give one order and one refusal', async () => {
    const q = await quotation();
    await admin.post(`/api/quotations/${q.id}/convert`).expect(409);
    await admin.post(`/api/quotations/${q.id}/send`).expect(200);
    await admin.post(`/api/quotations/${q.id}/accept`).expect(200);
    const before = await count('orders');
    const answers = await Promise.all([
      admin.post(`/api/quotations/${q.id}/convert`),
      admin.post(`/api/quotations/${q.id}/convert`),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    console.log(`convert twice in parallel (${onMysql ? 'MariaDB' : 'SQLite'}): ${statuses.join(', ')}`);
    expect(statuses).toEqual([201, 409]);
    expect(await count('orders')).toBe(before + 1);
    const made = answers.find((r) => r.status === 201)!.body;
    const refusal = answers.find((r) => r.status === 409)!.body;
    expect(refusal.message_key).toBe('quotationAlreadyConverted');
    expect(made.quotation_id).toBe(q.id);
    expect(made.order_no).toMatch(/^INV-/);
    expect(
      made.lines.map((l: Row) => [l.description, l.quantity, l.unit_price, l.discount_rate, l.net_amount]),
    ).toEqual(
      q.lines.map((l: Row) => [l.description, l.quantity, l.unit_price, l.discount_rate, l.net_amount]),
    );
    expect([made.total, made.outstanding, made.status]).toEqual([q.total, q.total, 'issued']);
    // due as a new invoice's form has it (14 days), so that it can fall overdue
    expect([made.date, made.due_date]).toEqual([businessToday(), addDays(businessToday(), 14)]);
    const after = (await admin.get(`/api/quotations/${q.id}`).expect(200)).body;
    expect([after.status, after.order_id]).toEqual(['converted', made.id]);
    // a converted quotation keeps its lines; its contract still changes
    expect((await admin.put(`/api/quotations/${q.id}`, { remark: 'x', currency: 'KRW' })).status).toBe(409);
    await admin.put(`/api/quotations/${q.id}`, { signatory_name: 'Chan' }).expect(200);
    expect(await count('audit_logs', { entity: 'quotation', entity_id: q.id, action: 'convert' })).toBe(1);
  });
});

describe('orders', () => {
  it('numbers 50 parallel creates with 50 consecutive numbers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        admin.post('/api/orders', {
          student_id: studentA,
          date: businessToday(),
          currency: 'HKD',
          lines: [line(1, 1000)],
        }),
      ),
    );
    const statuses = [...new Set(answers.map((r) => r.status))];
    expect(statuses).toEqual([201]);
    const seqs = answers.map((r) => Number(String(r.body.order_no).split('-').pop())).sort((a, b) => a - b);
    const consecutive = seqs.every((n, i) => i === 0 || n === seqs[i - 1] + 1);
    console.log(
      `50 parallel order creates (${onMysql ? 'MariaDB' : 'SQLite'}): ${new Set(seqs).size} distinct numbers, ${seqs[0]}–${seqs[49]}, consecutive: ${consecutive}`,
    );
    expect(new Set(seqs).size).toBe(50);
    expect(consecutive).toBe(true);
  });

  it('voids with a reason and unvoids, keeping the number, audited; a void order is not changed', async () => {
    const o = await order();
    await admin.post(`/api/orders/${o.id}/void`, {}).expect(422);
    const voided = (await admin.post(`/api/orders/${o.id}/void`, { void_reason: 'Issued twice' }).expect(200))
      .body;
    expect([voided.status, voided.order_no, voided.void_reason]).toEqual([
      'void',
      o.order_no,
      'Issued twice',
    ]);
    expect(voided.voided_at).toEqual(expect.any(String));
    expect(voided).not.toHaveProperty('status_before_void');
    // read-only while void, saying why; unvoid and the e-mail stay offered
    expect(o.allowed_actions).toContain('update');
    expect(o.locked).toBeNull();
    expect([voided.allowed_actions.includes('update'), voided.locked]).toEqual([false, 'orderVoidLocked']);
    expect(voided.allowed_actions).toEqual(expect.arrayContaining(['unvoid', 'email']));
    const shown = (await admin.get(`/api/orders/${o.id}`).expect(200)).body;
    expect([shown.allowed_actions.includes('update'), shown.locked]).toEqual([false, 'orderVoidLocked']);
    const refused = await admin.put(`/api/orders/${o.id}`, { remark: 'x' });
    expect([refused.status, refused.body.message_key]).toEqual([409, 'orderVoidLocked']);
    expect((await t.db('orders').where({ id: o.id }).first()).remark).toBeNull();
    await admin.post(`/api/orders/${o.id}/void`, { void_reason: 'again' }).expect(409);
    const back = (await admin.post(`/api/orders/${o.id}/unvoid`).expect(200)).body;
    expect([back.allowed_actions.includes('update'), back.locked]).toEqual([true, null]);
    expect([back.status, back.order_no, back.void_reason, back.voided_at]).toEqual([
      'issued',
      o.order_no,
      null,
      null,
    ]);
    expect(await count('audit_logs', { entity: 'order', entity_id: o.id, action: 'void' })).toBe(1);
    expect(await count('audit_logs', { entity: 'order', entity_id: o.id, action: 'unvoid' })).toBe(1);
    // unvoid restores what void left: a partially paid order comes back partially paid
    await t
      .db('orders')
      .where({ id: o.id })
      .update({ paid_amount: 100, outstanding: o.total - 100, status: 'partially_paid' });
    await admin.post(`/api/orders/${o.id}/void`, { void_reason: 'test' }).expect(200);
    expect((await admin.post(`/api/orders/${o.id}/unvoid`).expect(200)).body.status).toBe('partially_paid');
  });

  it('needs orders.void to void', async () => {
    const o = await order();
    const clerk = await signIn(t, ['orders.view', 'orders.update']);
    expect((await clerk.post(`/api/orders/${o.id}/void`, { void_reason: 'x' })).status).toBe(403);
    const voider = await signIn(t, ['orders.view', 'orders.void']);
    await voider.post(`/api/orders/${o.id}/void`, { void_reason: 'x' }).expect(200);
  });

  it('refuses void while an approved receipt is not refunded, and a total below the receipts', async () => {
    const o = await order();
    const receipt = (body: Row) =>
      admin.post('/api/receipts', { order_id: o.id, date: businessToday(), method: 'cash', ...body });
    expect((await receipt({ amount: 400_000 })).status).toBe(201);
    // a receipt not approved does not keep the order from being voided, but counts against the total
    const lower = await admin.put(`/api/orders/${o.id}`, { lines: [line(1, 399_999)] });
    expect([lower.status, lower.body.message_key, lower.body.error_keys?.lines?.[0]?.key]).toEqual([
      422,
      'receiptsAboveTotal',
      'receiptsAboveTotal',
    ]);
    expect(lower.body.errors.lines[0]).toBe(
      'Total receipt amount must be equal to or below the total amount.',
    );
    await admin.put(`/api/orders/${o.id}`, { lines: [line(1, 400_000)] }).expect(200);
    expect((await admin.put(`/api/orders/${o.id}`, { currency: 'KRW' })).body.message_key).toBe(
      'orderCurrencyLocked',
    );
    await admin.put(`/api/orders/${o.id}`, { lines: [line(1, 400_001)] }).expect(200);
    const one = (await receipt({ amount: 1 }).expect(201)).body;
    const approver = await signIn(t, ['receipts.view', 'receipts.approve']);
    await approver.post(`/api/receipts/${one.id}/approve`).expect(200);
    const refused = await admin.post(`/api/orders/${o.id}/void`, { void_reason: 'x' });
    expect([refused.status, refused.body.message_key]).toEqual([409, 'orderVoidReceipts']);
    expect((await admin.get(`/api/orders/${o.id}`)).body.status).toBe('partially_paid');
  });
});

describe('the student', () => {
  it('lists its quotations and orders, sums outstanding per currency, and cannot be deleted with them', async () => {
    const student = await insertStudent(t, branchA);
    await quotation({ student_id: student });
    const hkd = await order({ student_id: student });
    const krw = await order({ student_id: student, currency: 'KRW', lines: [line(2, 5_000_000)] });
    const tab = (await admin.get(`/api/students/${student}?tab=order`).expect(200)).body;
    expect(tab.outstanding_by_currency).toEqual([
      { currency: 'HKD', count: 1, total: hkd.total, paid: 0, outstanding: hkd.total },
      { currency: 'KRW', count: 1, total: krw.total, paid: 0, outstanding: krw.total },
    ]);
    expect((await admin.get(`/api/students/${student}/orders`).expect(200)).body.total).toBe(2);
    expect((await admin.get(`/api/students/${student}/quotations`).expect(200)).body.total).toBe(1);
    const refused = await admin.delete(`/api/students/${student}`);
    expect([refused.status, refused.body.references]).toEqual([409, { quotations: 1, orders: 2 }]);
  });
});

describe('lists and branch scope', () => {
  it('filters by branch, status, student, date range and currency', async () => {
    const student = await insertStudent(t, branchA);
    const krw = await order({
      student_id: student,
      currency: 'KRW',
      date: '2031-03-05',
      lines: [line(1, 100)],
    });
    await order({ student_id: student, currency: 'HKD', date: '2031-04-05' });
    const ids = async (query: string) =>
      (await admin.get(`/api/orders?per_page=100&${query}`).expect(200)).body.items.map((r: Row) => r.id);
    expect(await ids(`student_id=${student}&currency=KRW`)).toEqual([krw.id]);
    expect(await ids(`student_id=${student}&date_from=2031-03-01&date_to=2031-03-31`)).toEqual([krw.id]);
    expect(await ids(`student_id=${student}&branch_id=${branchB}`)).toEqual([]);
    expect((await ids(`student_id=${student}&status=issued`)).length).toBe(2);
  });

  it('hides another branch’s quotations, orders and their PDFs (404), and refuses its students', async () => {
    const q = await quotation();
    const o = await order();
    const other = await signIn(t, ['quotations.view', 'quotations.create', 'orders.view', 'orders.create'], {
      branchId: branchB,
    });
    await other.get(`/api/quotations/${q.id}`).expect(404);
    await other.get(`/api/quotations/${q.id}?format=pdf`).expect(404);
    await other.get(`/api/quotations/${q.id}?format=pdf&tab=contract`).expect(404);
    await other.get(`/api/orders/${o.id}`).expect(404);
    await other.get(`/api/orders/${o.id}?format=pdf`).expect(404);
    const before = await count('orders');
    const res = await other.post('/api/orders', {
      student_id: studentA,
      date: businessToday(),
      currency: 'HKD',
    });
    expect(res.status).toBe(404);
    expect(await count('orders')).toBe(before);
    const mine = await signIn(t, ['orders.view'], { branchId: branchA });
    await mine.get(`/api/orders/${o.id}?format=pdf`).expect(200);
  });
});

describe('files', () => {
  it('exports amounts as numbers in major units beside a currency column (KRW whole won)', async () => {
    const student = await insertStudent(t, branchA);
    await order({ student_id: student, currency: 'KRW', lines: [line(3, 50_000_000, 333)] });
    await order({ student_id: student, currency: 'HKD', lines: [line(1, 123_456)] });
    const rows = await readXlsx(
      (await download(admin, `/api/orders?format=xlsx&lang=en&student_id=${student}&sort=total`)).body,
    );
    const [header, ...data] = rows;
    const at = (name: string) => header.indexOf(name);
    expect(at('Currency')).toBeGreaterThanOrEqual(0);
    expect(data.map((r) => [r[at('Currency')], r[at('Total')], r[at('Outstanding')]])).toEqual([
      ['HKD', 1234.56, 1234.56],
      ['KRW', 1_450_050, 1_450_050],
    ]);
  });

  it('keeps the signed copy of a contract as the quotation’s file', async () => {
    const q = await quotation();
    const res = await admin
      .post(`/api/quotations/${q.id}/signed`)
      .attach('file', PDF, { filename: 'signed.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(200);
    expect(res.body.signed_file_id).toEqual(expect.any(Number));
    const file = await t.db('files').where({ id: res.body.signed_file_id }).first();
    expect([file.owner_type, Number(file.owner_id), Number(file.branch_id)]).toEqual([
      'quotation',
      q.id,
      branchA,
    ]);
    const other = await signIn(t, ['quotations.view', 'quotations.update'], { branchId: branchB });
    const refused = await other
      .post(`/api/quotations/${q.id}/signed`)
      .attach('file', PDF, { filename: 'signed.pdf', contentType: 'application/pdf' });
    expect(refused.status).toBe(404);
  });

  it('replays a conversion sent again with the same Idempotency-Key', async () => {
    const q = await quotation();
    await admin.post(`/api/quotations/${q.id}/send`).expect(200);
    await admin.post(`/api/quotations/${q.id}/accept`).expect(200);
    const first = await admin
      .post(`/api/quotations/${q.id}/convert`)
      .set('Idempotency-Key', `convert-${q.id}`);
    const again = await admin
      .post(`/api/quotations/${q.id}/convert`)
      .set('Idempotency-Key', `convert-${q.id}`);
    expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
    expect(again.body.id).toBe(first.body.id);
    expect(await count('orders', { quotation_id: q.id })).toBe(1);
  });
});

/**
 * Receipts, refunds and prepaid balances (issue 28, decision 0020), through the API: a receipt against an invoice
 * (its branch, student and currency, numbered per branch and year), within the invoice's room under 50 parallel
 * requests; approval by a second person (never the recorder) moving paid / outstanding / status in the same
 * transaction, 50 parallel approve / unapprove flips ending with paid = Σ approved; cancel, never deleted;
 * refunds under refund terms within what was paid (30 in parallel), approved by a second person; prepaid deposits
 * and receipts drawn on them (30 parallel draws, never below zero); one Idempotency-Key → one receipt; a replayed
 * approve moves nothing twice; a void invoice takes nothing; branch scope 404; the receipt's and refund's PDFs.
 * Run on SQLite and MariaDB.
 */
import { businessToday } from '../../src/modules/numbering/business-time';
import { createBranch, createTestApp, onMysql, signedInAdmin, type Client, type TestApp } from '../harness';
import { pdfText } from '../pdf-text';
import { download, signIn } from '../resources/helpers';
import { insertStudent, line } from '../sales/sales-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let approver: Client;
let branchA: number;
let branchB: number;
let studentA: number;
let terms: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  approver = await signIn(t, [
    'orders.view',
    'receipts.view',
    'receipts.approve',
    'refunds.view',
    'refunds.approve',
  ]);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
  studentA = await insertStudent(t, branchA, { name_zh: '陳大文', name_ko: '진대문' });
  const res = await admin.post('/api/refund-terms', {
    title_en: 'Refund terms',
    title_zh: '退款條款',
    content_en: '<p>Refunds within 14 days.</p>',
    content_zh: '<p>十四日內退款。</p>',
  });
  expect(res.status).toBe(201);
  terms = res.body.id;
});
afterAll(() => t.close());

const count = async (table: string, where: Row = {}) =>
  Number((await t.db(table).where(where).count({ n: '*' }).first())?.n);

async function order(total = 500_000, extra: Row = {}): Promise<Row> {
  const res = await admin.post('/api/orders', {
    student_id: studentA,
    date: businessToday(),
    currency: 'HKD',
    lines: [line(1, total)],
    ...extra,
  });
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

const receiptBody = (orderId: number, amount: number, extra: Row = {}) => ({
  order_id: orderId,
  date: businessToday(),
  method: 'cash',
  amount,
  reference_no: 'REF-1',
  ...extra,
});

async function receipt(orderId: number, amount: number, extra: Row = {}): Promise<Row> {
  const res = await admin.post('/api/receipts', receiptBody(orderId, amount, extra));
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

const orderNow = async (id: number) => (await admin.get(`/api/orders/${id}`).expect(200)).body;

/** Σ amount of the order's receipts in `statuses`, read straight from the table. */
async function sumOf(table: string, orderId: number, statuses: string[]): Promise<number> {
  const row = await t
    .db(table)
    .where({ order_id: orderId })
    .whereIn('status', statuses)
    .sum({ s: 'amount' })
    .first();
  return Number(row?.s ?? 0);
}

describe('receipts', () => {
  it('takes the invoice’s branch, student and currency, is numbered, and moves paid only once approved by a second person', async () => {
    const o = await order();
    const r = await receipt(o.id, 200_000);
    expect(r).toMatchObject({
      branch_id: branchA,
      student_id: studentA,
      currency: 'HKD',
      status: 'not_approved',
      amount: 200_000,
    });
    expect(r.receipt_no).toMatch(/^REC-/);
    expect(r.allowed_actions).toEqual(['update', 'approve', 'cancel']);
    expect((await orderNow(o.id)).paid_amount).toBe(0);

    // the recorder cannot approve it: a clear code
    const own = await admin.post(`/api/receipts/${r.id}/approve`);
    expect([own.status, own.body.code, own.body.message_key]).toEqual([
      403,
      'insufficient_rights',
      'receiptOwnApproval',
    ]);
    // nor someone without receipts.approve
    const clerk = await signIn(t, ['receipts.view', 'receipts.update']);
    expect((await clerk.post(`/api/receipts/${r.id}/approve`)).status).toBe(403);

    const approved = (await approver.post(`/api/receipts/${r.id}/approve`).expect(200)).body;
    expect(approved.status).toBe('approved');
    expect(approved.approved_at).toBeTruthy();
    let after = await orderNow(o.id);
    expect([after.paid_amount, after.outstanding, after.status]).toEqual([
      200_000,
      300_000,
      'partially_paid',
    ]);

    // an approved receipt is not cancelled nor changed; unapproved first
    expect((await admin.post(`/api/receipts/${r.id}/cancel`)).body.message_key).toBe('receiptCannotCancel');
    expect((await admin.put(`/api/receipts/${r.id}`, { reference_no: 'x' })).body.message_key).toBe(
      'receiptApprovedLocked',
    );
    await approver.post(`/api/receipts/${r.id}/unapprove`).expect(200);
    after = await orderNow(o.id);
    expect([after.paid_amount, after.outstanding, after.status]).toEqual([0, 500_000, 'issued']);

    // the whole amount: paid
    const rest = await receipt(o.id, 300_000);
    await approver.post(`/api/receipts/${r.id}/approve`).expect(200);
    await approver.post(`/api/receipts/${rest.id}/approve`).expect(200);
    after = await orderNow(o.id);
    expect([after.paid_amount, after.outstanding, after.status]).toEqual([500_000, 0, 'paid']);

    for (const action of ['approve', 'unapprove'])
      expect(await count('audit_logs', { entity: 'receipt', entity_id: r.id, action })).toBeGreaterThan(0);
  });

  it('refuses an amount above the invoice’s room (both statuses count; cancelled ones do not), a void invoice, and a change of amount', async () => {
    const o = await order(100_000);
    const a = await receipt(o.id, 60_000);
    const above = await admin.post('/api/receipts', receiptBody(o.id, 40_001));
    expect([above.status, above.body.code, above.body.message_key, above.body.errors?.amount?.[0]]).toEqual([
      422,
      'business_rule',
      'receiptsAboveTotal',
      'Total receipt amount must be equal to or below the total amount.',
    ]);
    expect((await admin.put(`/api/receipts/${a.id}`, { amount: 1 })).body.message_key).toBe(
      'receiptOrderLocked',
    );
    await admin.put(`/api/receipts/${a.id}`, { reference_no: 'CHQ-99' }).expect(200);
    await admin.post(`/api/receipts/${a.id}/cancel`).expect(200);
    // cancelled: its room is free again; never deleted
    await receipt(o.id, 100_000);
    expect((await admin.delete(`/api/receipts/${a.id}`)).status).toBe(404);
    expect(await count('receipts', { id: a.id })).toBe(1);
    expect(await count('audit_logs', { entity: 'receipt', entity_id: a.id, action: 'cancel' })).toBe(1);

    const v = await order(100_000);
    await admin.post(`/api/orders/${v.id}/void`, { void_reason: 'test' }).expect(200);
    const onVoid = await admin.post('/api/receipts', receiptBody(v.id, 1));
    expect([onVoid.status, onVoid.body.message_key]).toEqual([422, 'orderVoidNoMoney']);
    expect(await count('receipts', { order_id: v.id })).toBe(0);
  });

  it('50 parallel receipts on an invoice with room for 7: 7 created, 43 refused with the rule, Σ = the room', async () => {
    const o = await order(1_000_000);
    await receipt(o.id, 930_000); // room left: 70,000 = 7 × 10,000
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => admin.post('/api/receipts', receiptBody(o.id, 10_000))),
    );
    const created = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter(
      (r) => r.status === 422 && r.body.message_key === 'receiptsAboveTotal',
    ).length;
    const errors = answers.filter((r) => r.status >= 500).length;
    const sum = await sumOf('receipts', o.id, ['not_approved', 'approved']);
    const numbers = new Set(answers.filter((r) => r.status === 201).map((r) => r.body.receipt_no));
    console.log(
      `receipts race (${onMysql ? 'MariaDB' : 'SQLite'}): 50 parallel on room 70,000 → ${created} created, ` +
        `${refused} refused receiptsAboveTotal, ${errors} errors; Σ receipts ${sum} of total ${o.total}`,
    );
    expect([created, refused, errors]).toEqual([7, 43, 0]);
    expect(numbers.size).toBe(7);
    expect(sum).toBe(o.total);
    expect((await orderNow(o.id)).paid_amount).toBe(0);
  });

  it('50 parallel approve / unapprove flips on 10 receipts: paid = Σ approved afterwards', async () => {
    const o = await order(1_000_000);
    const rs: Row[] = [];
    for (let i = 0; i < 10; i++) rs.push(await receipt(o.id, 10_000 * (i + 1)));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        approver.post(`/api/receipts/${rs[i % 10].id}/${Math.floor(i / 10) % 2 ? 'unapprove' : 'approve'}`),
      ),
    );
    const statuses = answers.map((r) => r.status);
    const errors = statuses.filter((s) => s >= 500).length;
    const approved = await sumOf('receipts', o.id, ['approved']);
    const after = await orderNow(o.id);
    console.log(
      `approval flips (${onMysql ? 'MariaDB' : 'SQLite'}): 50 parallel on 10 receipts → ` +
        `${statuses.filter((s) => s === 200).length} moved, ${statuses.filter((s) => s === 409).length} refused (state), ` +
        `${errors} errors; paid_amount ${after.paid_amount} = Σ approved ${approved}; outstanding ${after.outstanding}`,
    );
    expect(errors).toBe(0);
    expect(after.paid_amount).toBe(approved);
    expect(after.outstanding).toBe(o.total - approved);
  });

  it('one Idempotency-Key: 20 parallel POSTs make one receipt, and a replayed approve moves nothing twice', async () => {
    const o = await order(100_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin.post('/api/receipts', receiptBody(o.id, 1_000)).set('Idempotency-Key', `rec-${o.id}`),
      ),
    );
    const ids = new Set(answers.map((r) => r.body.id));
    const made = await count('receipts', { order_id: o.id });
    console.log(
      `idempotent receipt: 20 parallel POSTs with one key → ${made} receipt, ${ids.size} distinct answer(s), ` +
        `statuses ${[...new Set(answers.map((r) => r.status))].join(',')}`,
    );
    expect(made).toBe(1);
    expect(ids.size).toBe(1);
    expect(answers.every((r) => r.status === 201)).toBe(true);
    const id = [...ids][0];
    const first = await approver.post(`/api/receipts/${id}/approve`).set('Idempotency-Key', `appr-${id}`);
    const again = await approver.post(`/api/receipts/${id}/approve`).set('Idempotency-Key', `appr-${id}`);
    expect([first.status, again.status, again.body.id]).toEqual([200, 200, id]);
    expect(await count('audit_logs', { entity: 'receipt', entity_id: id, action: 'approve' })).toBe(1);
    expect((await orderNow(o.id)).paid_amount).toBe(1_000);
  });

  it('hides another branch’s receipts (404), and a branch-scoped clerk cannot write against another branch’s invoice', async () => {
    const o = await order(100_000);
    const r = await receipt(o.id, 1_000);
    const other = await signIn(
      t,
      ['receipts.view', 'receipts.create', 'receipts.update', 'receipts.approve'],
      {
        branchId: branchB,
      },
    );
    await other.get(`/api/receipts/${r.id}`).expect(404);
    await other.post(`/api/receipts/${r.id}/approve`).expect(404);
    await other.get(`/api/receipts/${r.id}?format=pdf`).expect(404);
    expect((await other.post('/api/receipts', receiptBody(o.id, 1))).status).toBe(404);
    expect(await count('receipts', { order_id: o.id })).toBe(1);
  });

  it('prints a receipt with the student’s Chinese and Korean names and the amount as shown', async () => {
    const o = await order(123_456);
    const r = await receipt(o.id, 123_456);
    const res = await download(admin, `/api/receipts/${r.id}?format=pdf`);
    expect(res.status).toBe(200);
    const text = pdfText(res.body);
    expect(text).toContain(r.receipt_no);
    expect(text).toContain('陳大文');
    expect(text).toContain('진대문');
    expect(text).toContain('1,234.56');
    expect(text).toContain(o.order_no);
  });
});

describe('refunds', () => {
  async function paidOrder(amount: number): Promise<Row> {
    const o = await order(amount);
    const r = await receipt(o.id, amount);
    await approver.post(`/api/receipts/${r.id}/approve`).expect(200);
    return { ...(await orderNow(o.id)), receipt_id: r.id };
  }
  const refundBody = (orderId: number, amount: number, extra: Row = {}) => ({
    order_id: orderId,
    date: businessToday(),
    refund_term_id: terms,
    method: 'bank_transfer',
    amount,
    reason: 'Course cancelled',
    ...extra,
  });

  it('refunds within what was paid, approved by a second person: refunded and outstanding move', async () => {
    const o = await paidOrder(200_000);
    const above = await admin.post('/api/refunds', refundBody(o.id, 200_001));
    expect([above.status, above.body.code, above.body.message_key]).toEqual([
      422,
      'business_rule',
      'refundAbovePaid',
    ]);
    // a receipt of another invoice
    const elsewhere = await receipt((await order(1_000)).id, 1_000);
    const wrongReceipt = await admin.post('/api/refunds', refundBody(o.id, 1, { receipt_id: elsewhere.id }));
    expect([wrongReceipt.status, wrongReceipt.body.message_key]).toEqual([422, 'refundReceiptMismatch']);
    const f = (
      await admin.post('/api/refunds', refundBody(o.id, 50_000, { receipt_id: o.receipt_id })).expect(201)
    ).body;
    expect(f).toMatchObject({ status: 'pending', branch_id: branchA, currency: 'HKD' });
    expect(f.refund_no).toMatch(/^REF-/);
    expect((await admin.post(`/api/refunds/${f.id}/approve`)).body.message_key).toBe('receiptOwnApproval');
    await approver.post(`/api/refunds/${f.id}/approve`).expect(200);
    const after = await orderNow(o.id);
    expect([after.paid_amount, after.refunded_amount, after.outstanding, after.status]).toEqual([
      200_000,
      50_000,
      50_000,
      'partially_paid',
    ]);
    // the receipt cannot be unapproved below what is refunded
    const un = await approver.post(`/api/receipts/${o.receipt_id}/unapprove`);
    expect([un.status, un.body.message_key]).toEqual([422, 'receiptUnapproveRefunded']);
    expect(await count('audit_logs', { entity: 'refund', entity_id: f.id, action: 'approve' })).toBe(1);
    expect((await admin.delete(`/api/refunds/${f.id}`)).status).toBe(404);

    const pdf = await download(admin, `/api/refunds/${f.id}?format=pdf`);
    const text = pdfText(pdf.body);
    expect(text).toContain(f.refund_no);
    expect(text).toContain('陳大文');
    expect(text).toContain('진대문');
    expect(text).toContain('十四日內退款');
  });

  it('30 parallel refunds: Σ refunds ≤ paid', async () => {
    const o = await paidOrder(100_000);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => admin.post('/api/refunds', refundBody(o.id, 7_000))),
    );
    const created = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter((r) => r.body.message_key === 'refundAbovePaid').length;
    const errors = answers.filter((r) => r.status >= 500).length;
    const sum = await sumOf('refunds', o.id, ['pending', 'approved']);
    console.log(
      `refunds race (${onMysql ? 'MariaDB' : 'SQLite'}): 30 parallel of 7,000 on paid 100,000 → ${created} created, ` +
        `${refused} refused refundAbovePaid, ${errors} errors; Σ refunds ${sum} ≤ paid ${o.paid_amount}`,
    );
    expect([created, refused, errors]).toEqual([14, 16, 0]);
    expect(sum).toBeLessThanOrEqual(o.paid_amount);
  });
});

describe('prepaid balances', () => {
  it('deposits add to the balance per currency; a prepaid receipt draws on it, never below zero, 30 in parallel', async () => {
    const student = await insertStudent(t, branchA);
    const deposit = (amount: number, currency: string) =>
      admin.post(`/api/students/${student}/prepaids`, {
        date: businessToday(),
        amount,
        currency,
        method: 'cash',
        reference_no: 'DEP',
      });
    expect((await deposit(50_000, 'HKD')).status).toBe(201);
    expect((await deposit(1_000_000, 'KRW')).status).toBe(201);
    const tab = (await admin.get(`/api/students/${student}?tab=prepaid`).expect(200)).body;
    expect(tab.prepaid_balances).toEqual([
      { currency: 'HKD', balance: 50_000 },
      { currency: 'KRW', balance: 1_000_000 },
    ]);
    expect((await admin.get(`/api/students/${student}/prepaids`).expect(200)).body.total).toBe(2);

    const o = await order(1_000_000, { student_id: student });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        admin.post('/api/receipts', receiptBody(o.id, 3_000, { method: 'prepaid' })),
      ),
    );
    const created = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter((r) => r.body.message_key === 'prepaidInsufficient').length;
    const errors = answers.filter((r) => r.status >= 500).length;
    const balances = (await admin.get(`/api/students/${student}?tab=prepaid`).expect(200)).body
      .prepaid_balances;
    const hkd = balances.find((b: Row) => b.currency === 'HKD').balance;
    console.log(
      `prepaid draws (${onMysql ? 'MariaDB' : 'SQLite'}): 30 parallel of 3,000 on a balance of 50,000 → ` +
        `${created} drawn, ${refused} refused prepaidInsufficient, ${errors} errors; balance ${hkd} ≥ 0`,
    );
    expect([created, refused, errors]).toEqual([16, 14, 0]);
    expect(hkd).toBe(50_000 - 16 * 3_000);
    // cancelling a prepaid receipt gives its money back to the balance
    const one = answers.find((r) => r.status === 201)!.body;
    await admin.post(`/api/receipts/${one.id}/cancel`).expect(200);
    const back = (await admin.get(`/api/students/${student}?tab=prepaid`).expect(200)).body.prepaid_balances;
    expect(back.find((b: Row) => b.currency === 'HKD').balance).toBe(hkd + 3_000);
    // prepaid money paid back to the student: never more than the balance
    const refund = (amount: number) =>
      admin.post(`/api/students/${student}/prepaids`, {
        kind: 'refund',
        date: businessToday(),
        amount,
        currency: 'HKD',
        method: 'bank_transfer',
      });
    const tooMuch = await refund(hkd + 3_001);
    expect([tooMuch.status, tooMuch.body.message_key]).toEqual([422, 'prepaidInsufficient']);
    expect((await refund(hkd + 3_000)).status).toBe(201);
    const emptied = (await admin.get(`/api/students/${student}?tab=prepaid`).expect(200)).body
      .prepaid_balances;
    expect(emptied.find((b: Row) => b.currency === 'HKD').balance).toBe(0);
    // a deposit's amount does not change afterwards, nor is it deleted
    const dep = (await admin.get(`/api/students/${student}/prepaids`)).body.items[0];
    expect(
      (await admin.put(`/api/students/${student}/prepaids/${dep.id}`, { amount: 1 })).body.message_key,
    ).toBe('prepaidLocked');
    expect((await admin.delete(`/api/students/${student}/prepaids/${dep.id}`)).status).toBe(404);
  });
});

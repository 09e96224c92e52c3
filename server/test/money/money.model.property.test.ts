/**
 * A model-based property test of receipts, refunds, void / unvoid and prepaid balances (issue 28, decision 0020):
 * random sequences of create / approve / unapprove / cancel receipt (cash or prepaid), refund, approve / cancel
 * refund, void / unvoid invoice, prepaid deposit and prepaid refund run through the API, each checked after it ran against a plain
 * in-memory model: the answer (done or refused) is the model's; paid = Σ approved receipts, refunded = Σ approved
 * refunds, outstanding = total − paid + refunded; Σ receipts not cancelled ≤ total, Σ refunds not cancelled ≤ paid,
 * the prepaid balance ≥ 0 and equal to the model's; a void invoice takes nothing; every change writes one audit
 * row and a refusal none. Run on SQLite and MariaDB.
 */
import fc from 'fast-check';
import { businessToday } from '../../src/modules/numbering/business-time';
import { createBranch, createTestApp, onMysql, signedInAdmin, type Client, type TestApp } from '../harness';
import { signIn } from '../resources/helpers';
import { insertStudent, line } from '../sales/sales-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let approver: Client;
let branch: number;
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
  branch = await createBranch(t.db);
  const res = await admin.post('/api/refund-terms', {
    title_en: 'Terms',
    title_zh: '條款',
    content_en: '<p>x</p>',
    content_zh: '<p>x</p>',
  });
  terms = res.body.id;
});
afterAll(() => t.close());

const TOTAL = 100_000;

type Command =
  | { kind: 'receipt'; order: number; amount: number; prepaid: boolean }
  | { kind: 'approve' | 'unapprove' | 'cancel'; pick: number }
  | { kind: 'refund'; order: number; amount: number }
  | { kind: 'approveRefund' | 'cancelRefund'; pick: number }
  | { kind: 'void' | 'unvoid'; order: number }
  | { kind: 'deposit' | 'withdraw'; amount: number };

const amount = fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.constantFrom(1, 10_000, 50_000, TOTAL));
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('receipt' as const),
      order: fc.nat(1),
      amount,
      prepaid: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('approve' as const, 'unapprove' as const, 'cancel' as const),
      pick: fc.nat(20),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), order: fc.nat(1), amount }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('approveRefund' as const, 'cancelRefund' as const),
      pick: fc.nat(20),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('void' as const, 'unvoid' as const), order: fc.nat(1) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('deposit' as const, 'withdraw' as const), amount }),
  },
);

interface Money {
  id: number;
  order: number;
  amount: number;
  status: string;
  prepaid?: boolean;
}

const sum = (rows: Money[], order: number, statuses: string[]) =>
  rows.filter((r) => r.order === order && statuses.includes(r.status)).reduce((s, r) => s + r.amount, 0);

async function auditCount(): Promise<number> {
  return Number((await t.db('audit_logs').count({ n: '*' }).first())?.n);
}

let steps = 0;
let refusedSteps = 0;

it('matches the in-memory model after every step', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 25 }), async (commands) => {
      const student = await insertStudent(t, branch);
      const orders: { id: number; void: boolean }[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await admin.post('/api/orders', {
          student_id: student,
          date: businessToday(),
          currency: 'HKD',
          lines: [line(1, TOTAL)],
        });
        orders.push({ id: res.body.id, void: false });
      }
      const receipts: Money[] = [];
      const refunds: Money[] = [];
      let balance = 0;
      const paid = (o: number) => sum(receipts, o, ['approved']);
      for (const c of commands) {
        const before = await auditCount();
        let expected: boolean;
        let res: { status: number; body: Row };
        const pick = <T>(rows: T[], i: number): T | undefined => rows[i % Math.max(rows.length, 1)];
        switch (c.kind) {
          case 'receipt': {
            const o = orders[c.order];
            expected =
              !o.void &&
              sum(receipts, c.order, ['not_approved', 'approved']) + c.amount <= TOTAL &&
              (!c.prepaid || balance >= c.amount);
            res = await admin.post('/api/receipts', {
              order_id: o.id,
              date: businessToday(),
              method: c.prepaid ? 'prepaid' : 'cash',
              amount: c.amount,
            });
            if (res.status === 201) {
              receipts.push({
                id: res.body.id,
                order: c.order,
                amount: c.amount,
                status: 'not_approved',
                prepaid: c.prepaid,
              });
              if (c.prepaid) balance -= c.amount;
            }
            break;
          }
          case 'approve':
          case 'unapprove':
          case 'cancel': {
            const r = pick(receipts, c.pick);
            if (!r) continue;
            const o = orders[r.order];
            if (c.kind === 'approve') expected = r.status === 'not_approved' && !o.void;
            else if (c.kind === 'unapprove')
              expected =
                r.status === 'approved' &&
                !o.void &&
                paid(r.order) - r.amount >= sum(refunds, r.order, ['pending', 'approved']);
            else expected = r.status === 'not_approved';
            const client = c.kind === 'cancel' ? admin : approver;
            res = await client.post(`/api/receipts/${r.id}/${c.kind}`);
            if (res.status === 200) {
              r.status =
                c.kind === 'approve' ? 'approved' : c.kind === 'unapprove' ? 'not_approved' : 'cancelled';
              if (c.kind === 'cancel' && r.prepaid) balance += r.amount;
            }
            break;
          }
          case 'refund': {
            const o = orders[c.order];
            expected = !o.void && c.amount <= paid(c.order) - sum(refunds, c.order, ['pending', 'approved']);
            res = await admin.post('/api/refunds', {
              order_id: o.id,
              date: businessToday(),
              refund_term_id: terms,
              amount: c.amount,
            });
            if (res.status === 201)
              refunds.push({ id: res.body.id, order: c.order, amount: c.amount, status: 'pending' });
            break;
          }
          case 'approveRefund':
          case 'cancelRefund': {
            const f = pick(refunds, c.pick);
            if (!f) continue;
            expected = f.status === 'pending' && (c.kind === 'cancelRefund' || !orders[f.order].void);
            const action = c.kind === 'approveRefund' ? 'approve' : 'cancel';
            res = await (action === 'approve' ? approver : admin).post(`/api/refunds/${f.id}/${action}`);
            if (res.status === 200) f.status = action === 'approve' ? 'approved' : 'cancelled';
            break;
          }
          case 'void':
          case 'unvoid': {
            const o = orders[c.order];
            expected =
              c.kind === 'void'
                ? !o.void && paid(c.order) - sum(refunds, c.order, ['approved']) === 0
                : o.void;
            res = await admin.post(
              `/api/orders/${o.id}/${c.kind}`,
              c.kind === 'void' ? { void_reason: 'model' } : undefined,
            );
            if (res.status === 200) o.void = c.kind === 'void';
            break;
          }
          case 'deposit':
          case 'withdraw': {
            // a deposit, or prepaid money paid back to the student (never more than the balance)
            expected = c.kind === 'deposit' || balance >= c.amount;
            res = await admin.post(`/api/students/${student}/prepaids`, {
              kind: c.kind === 'deposit' ? 'deposit' : 'refund',
              date: businessToday(),
              amount: c.amount,
              currency: 'HKD',
              method: 'cash',
            });
            if (res.status === 201) balance += c.kind === 'deposit' ? c.amount : -c.amount;
            break;
          }
        }
        steps++;
        const done = res!.status === 200 || res!.status === 201;
        if (!done) refusedSteps++;
        expect([c, res!.status < 500, done]).toEqual([c, true, expected!]);
        expect([c, (await auditCount()) - before]).toEqual([c, done ? 1 : 0]);
        for (const [i, o] of orders.entries()) {
          const row = await t.db('orders').where({ id: o.id }).first();
          const p = paid(i);
          const refunded = sum(refunds, i, ['approved']);
          expect([
            Number(row.paid_amount),
            Number(row.refunded_amount),
            Number(row.outstanding),
            row.status === 'void',
          ]).toEqual([p, refunded, TOTAL - p + refunded, o.void]);
          expect(sum(receipts, i, ['not_approved', 'approved'])).toBeLessThanOrEqual(TOTAL);
          expect(sum(refunds, i, ['pending', 'approved'])).toBeLessThanOrEqual(p);
        }
        const stored = await t
          .db('student_prepaid_balances')
          .where({ student_id: student, currency: 'HKD' })
          .first();
        expect(Number(stored?.balance ?? 0)).toBe(balance);
        expect(balance).toBeGreaterThanOrEqual(0);
      }
    }),
    { numRuns: 60 },
  );
  console.log(
    `money model (${onMysql ? 'MariaDB' : 'SQLite'}): 60 random sequences, ${steps} steps (${refusedSteps} refused as ` +
      'the model said), 0 differences from the model',
  );
}, 600_000);

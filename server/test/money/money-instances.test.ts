/**
 * The money races of issue 28 across two app instances on one MariaDB database and one Redis (decision 0020):
 * two real instances (`node --import tsx server/src/main.ts`, as production starts them), every burst split between
 * them. 50 parallel receipts on an invoice with room for 7 → 7 created, 43 refused with the rule, Σ = the room;
 * 50 parallel approve / unapprove flips on 10 receipts → paid = Σ approved; 30 parallel refunds → Σ ≤ paid; 30
 * parallel prepaid draws → balance ≥ 0; 20 parallel POSTs with one Idempotency-Key → 1 receipt, 20 identical
 * answers. MariaDB + Redis only (skipped on SQLite: one instance serves a file).
 */
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { startInstance, type Instance } from '../../../scripts/cluster-processes';
import { createDb } from '../../src/db/knex';
import { businessToday } from '../../src/modules/numbering/business-time';
import { Browser } from '../cluster-browser';
import { createBranch, createUser, freshDatabaseUrl, onMysql, onRedis, type TestApp } from '../harness';
import { insertStudent, line } from '../sales/sales-helpers';

jest.setTimeout(180_000);

type Row = Record<string, any>;

const twoInstances = onMysql && onRedis ? describe : describe.skip;

twoInstances('money across two instances on one MariaDB and one Redis', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let db: Knex;
  let one: Instance;
  let two: Instance;
  let clerk: Browser;
  let approver: Browser;
  let student: number;
  let terms: number;
  const prefix = `satest:money${process.pid}${Date.now().toString(36)}:`;
  const lines: string[] = [];
  const on = (i: number) => (i % 2 ? two : one);

  beforeAll(async () => {
    database = await freshDatabaseUrl({ migrated: true });
    db = createDb(database.url);
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      BCRYPT_COST: '4',
      SEED_DEMO: 'false',
      SHUTDOWN_DRAIN_SECONDS: '0',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: prefix,
    };
    [one, two] = await Promise.all([startInstance('1', env), startInstance('2', env)]);
    const branch = await createBranch(db);
    const owner = await createUser(db, { is_admin: true });
    await db('users').where({ id: owner.id }).update({ branch_id: branch });
    clerk = new Browser();
    await clerk.signIn(one, owner.email, owner.password);
    const second = await createUser(db, {
      permissions: ['orders.view', 'receipts.view', 'receipts.approve', 'refunds.view', 'refunds.approve'],
    });
    approver = new Browser();
    await approver.signIn(two, second.email, second.password);
    student = await insertStudent({ db } as unknown as TestApp, branch);
    terms = (
      await clerk.send(one, 'post', '/api/refund-terms', {
        title_en: 'Terms',
        title_zh: '條款',
        content_en: '<p>x</p>',
        content_zh: '<p>x</p>',
      })
    ).body.id;
  });

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    if (lines.length) console.log(`money across two instances (MariaDB + Redis):\n${lines.join('\n')}`);
    const redis = new Redis(process.env.REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await db?.destroy();
    await database?.drop();
  });

  async function order(total: number): Promise<Row> {
    const res = await clerk.send(one, 'post', '/api/orders', {
      student_id: student,
      date: businessToday(),
      currency: 'HKD',
      lines: [line(1, total)],
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const receiptBody = (orderId: number, amount: number, method = 'cash') => ({
    order_id: orderId,
    date: businessToday(),
    method,
    amount,
  });
  const sumOf = async (table: string, orderId: number, statuses: string[]) =>
    Number(
      (await db(table).where({ order_id: orderId }).whereIn('status', statuses).sum({ s: 'amount' }).first())
        ?.s ?? 0,
    );
  const tally = (answers: { status: number; body: Row }[], key: string) => ({
    done: answers.filter((r) => r.status === 200 || r.status === 201).length,
    refused: answers.filter((r) => r.body?.message_key === key).length,
    errors: answers.filter((r) => r.status >= 500).length,
  });

  it('50 parallel receipts on room for 7, split across both: 7 created, 43 refused, Σ = the room', async () => {
    const o = await order(1_000_000);
    expect((await clerk.send(one, 'post', '/api/receipts', receiptBody(o.id, 930_000))).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        clerk.send(on(i), 'post', '/api/receipts', receiptBody(o.id, 10_000)),
      ),
    );
    const { done, refused, errors } = tally(answers, 'receiptsAboveTotal');
    const sum = await sumOf('receipts', o.id, ['not_approved', 'approved']);
    lines.push(
      `  50 parallel receipts, room for 7: ${done} created, ${refused} refused, ${errors} errors; Σ ${sum} = total ${o.total}`,
    );
    expect([done, refused, errors, sum]).toEqual([7, 43, 0, o.total]);
  });

  it('50 parallel approve / unapprove flips on 10 receipts, split across both: paid = Σ approved', async () => {
    const o = await order(1_000_000);
    const ids: number[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await clerk.send(one, 'post', '/api/receipts', receiptBody(o.id, 10_000 * (i + 1)))).body.id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        approver.send(
          on(i),
          'post',
          `/api/receipts/${ids[i % 10]}/${Math.floor(i / 10) % 2 ? 'unapprove' : 'approve'}`,
        ),
      ),
    );
    const errors = answers.filter((r) => r.status >= 500).length;
    const approved = await sumOf('receipts', o.id, ['approved']);
    const row = await db('orders').where({ id: o.id }).first();
    lines.push(
      `  50 parallel approve/unapprove flips: ${errors} errors; paid_amount ${Number(row.paid_amount)} = Σ approved ${approved}`,
    );
    expect(errors).toBe(0);
    expect(Number(row.paid_amount)).toBe(approved);
    expect(Number(row.outstanding)).toBe(o.total - approved);
  });

  it('30 parallel refunds, split across both: Σ refunds ≤ paid', async () => {
    const o = await order(100_000);
    const r = (await clerk.send(one, 'post', '/api/receipts', receiptBody(o.id, 100_000))).body;
    expect((await approver.send(two, 'post', `/api/receipts/${r.id}/approve`)).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        clerk.send(on(i), 'post', '/api/refunds', {
          order_id: o.id,
          date: businessToday(),
          refund_term_id: terms,
          amount: 7_000,
        }),
      ),
    );
    const { done, refused, errors } = tally(answers, 'refundAbovePaid');
    const sum = await sumOf('refunds', o.id, ['pending', 'approved']);
    lines.push(
      `  30 parallel refunds of 7,000 on 100,000 paid: ${done} created, ${refused} refused, ${errors} errors; Σ ${sum} ≤ 100000`,
    );
    expect([done, refused, errors]).toEqual([14, 16, 0]);
    expect(sum).toBeLessThanOrEqual(100_000);
  });

  it('30 parallel prepaid draws, split across both: the balance never below zero', async () => {
    const deposit = await clerk.send(one, 'post', `/api/students/${student}/prepaids`, {
      date: businessToday(),
      amount: 50_000,
      currency: 'HKD',
      method: 'cash',
    });
    expect(deposit.status).toBe(201);
    const o = await order(1_000_000);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        clerk.send(on(i), 'post', '/api/receipts', receiptBody(o.id, 3_000, 'prepaid')),
      ),
    );
    const { done, refused, errors } = tally(answers, 'prepaidInsufficient');
    const balance = Number(
      (await db('student_prepaid_balances').where({ student_id: student, currency: 'HKD' }).first())?.balance,
    );
    lines.push(
      `  30 parallel prepaid draws of 3,000 on 50,000: ${done} drawn, ${refused} refused, ${errors} errors; balance ${balance}`,
    );
    expect([done, refused, errors, balance]).toEqual([16, 14, 0, 2_000]);
  });

  it('20 parallel POSTs with one Idempotency-Key, split across both: 1 receipt, 20 identical answers', async () => {
    const o = await order(100_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        clerk.send(on(i), 'post', '/api/receipts', receiptBody(o.id, 1_000), {
          'Idempotency-Key': `money-${o.id}`,
        }),
      ),
    );
    const made = Number((await db('receipts').where({ order_id: o.id }).count({ n: '*' }).first())?.n);
    const bodies = new Set(answers.map((r) => JSON.stringify(r.body)));
    lines.push(
      `  20 parallel POSTs with one Idempotency-Key: ${made} receipt, ${bodies.size} distinct answer(s), statuses ${[...new Set(answers.map((r) => r.status))].join(',')}`,
    );
    expect(made).toBe(1);
    expect(answers.every((r) => r.status === 201)).toBe(true);
    expect(bodies.size).toBe(1);
  });
});

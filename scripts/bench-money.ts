/**
 * The money part of `npm run bench` (issue 29 "Done when"; `BENCH_PARTS=money`, called by scripts/bench.ts, whose
 * helpers it uses): a MariaDB database `bench_money_<pid>` (`bench_money_keep` with BENCH_KEEP=1, then filled once)
 * with 100,000 invoices and 1,000,000 invoice lines over the three years up to Hong Kong's today, in three branches,
 * HKD and KRW, filled by SQL in the shape the app writes them: each line's net amount rounded half up as
 * shared/money.ts does, the invoice's subtotal, discount total and total the sums of its lines, receipts (approved,
 * not approved, cancelled) with the invoice's paid, receipted and outstanding amounts and its status derived from
 * them, some invoices void, numbers per branch and year and the sequences they continue from. Then, through the
 * app:
 * - `GET /api/dashboard/show`, the admin (every branch) and a branch user: alone, and p95 at BENCH_USERS (10) users
 *   ≤ 200 ms, with the app process's CPU time a request;
 * - the invoices report's result page (`/api/reports/orders/order`) this month (its default) and over the three
 *   years: one row per invoice, grouped by status and by month, and for the branch user; p95 of BENCH_SAMPLES
 *   requests one after another ≤ 300 ms;
 * - the other money reports' pages (invoice lines, the analysis, receipts), printed for what they cost: the issue
 *   sets them no target;
 * - `format=xlsx` of the invoices report over the three years (100,000 rows) and of the invoice lines report over
 *   the latest months that hold 100,000 lines or more: ≤ 3 s, the app process's peak RSS (VmHWM) ≤ 200 MB, with its
 *   CPU time; the file read back and its rows counted.
 * The load average is printed beside every figure: the machine may be shared.
 *
 * Environment: BENCH_ORDERS (100000 invoices; 10 lines each on average), BENCH_MONEY_STUDENTS (3000).
 */
import type { Knex } from 'knex';
import { hongKongDay } from '../shared/reports/criteria';
import {
  BRANCH_CODES,
  DATABASES,
  KEEP,
  SAMPLES,
  Server,
  USERS,
  call,
  concurrently,
  databaseExists,
  dropDatabase,
  f1,
  fillStudents,
  heading,
  int,
  loadAverage,
  median,
  mib,
  percentile,
  prepareDatabase,
  section,
  sequentially,
  signIn,
  target,
  type BenchCase,
} from './bench';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const STUDENTS = Number(process.env.BENCH_MONEY_STUDENTS ?? 3_000);
/** an invoice has 5 to 15 lines, 10 on average: two invoices in a row have 20 */
const MOST_LINES = 15;
const BRANCHES = BRANCH_CODES.slice(0, 3);
/** the days the invoices are dated over: three years up to today */
const DAYS = 3 * 365 + 1;
/** invoices per statement when their lines are written */
const BATCH = 10_000;
const BRANCH_USER = { email: 'bench-branch@example.com', password: 'Bench-branch-123' };

/** The load average now, short: printed beside each figure (the machine is shared). */
const load = () => `load ${loadAverage().replace(/^load average /, '')}`;

/** The service categories and services the lines are of (HKD and KRW, ×100 like every currency). */
const CATEGORIES: readonly [string, string][] = [
  ['Application services', '申請服務'],
  ['Visa and accommodation', '簽證及住宿'],
  ['Language courses', '語言課程'],
  ['Tuition', '學費'],
];
const PRODUCTS: readonly [number, string, string, string, string, number, 'HKD' | 'KRW'][] = [
  [0, 'APP-UNI', 'University application handling', '大學申請手續', 'item', 880_000, 'HKD'],
  [0, 'APP-LANG', 'Language institute application', '語學堂申請手續', 'item', 480_000, 'HKD'],
  [0, 'APP-GRAD', 'Graduate school application', '研究院申請手續', 'item', 1_280_000, 'HKD'],
  [0, 'DOC-TRANS', 'Document translation', '文件翻譯', 'item', 45_000, 'HKD'],
  [0, 'COUNSEL', 'Study counselling session', '升學諮詢', 'hour', 98_000, 'HKD'],
  [1, 'VISA-D4', 'D-4 visa service', 'D-4 簽證服務', 'item', 150_000, 'HKD'],
  [1, 'VISA-D2', 'D-2 visa service', 'D-2 簽證服務', 'item', 180_000, 'HKD'],
  [1, 'AIRPORT', 'Airport pick-up', '機場接送', 'time', 60_000, 'HKD'],
  [1, 'INSURE', 'Travel insurance', '旅遊保險', 'year', 120_000, 'HKD'],
  [2, 'TOPIK-PREP', 'TOPIK preparation course', 'TOPIK 備試課程', 'month', 360_000, 'HKD'],
  [1, 'DORM', 'Dormitory arrangement', '宿舍安排', 'term', 30_000_000, 'KRW'],
  [2, 'LANG-TERM', 'Language institute term', '語學堂學期', 'term', 180_000_000, 'KRW'],
  [3, 'TUITION-UNI', 'University tuition', '大學學費', 'term', 450_000_000, 'KRW'],
  [3, 'APP-FEE-KR', 'University application fee', '大學報名費', 'item', 15_000_000, 'KRW'],
  [1, 'INSURE-KR', 'Student health insurance', '學生醫療保險', 'term', 12_000_000, 'KRW'],
];

async function count(db: Knex, table: string): Promise<number> {
  const row = await db(table).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The categories and services, by code (once). */
async function catalogue(db: Knex, now: string): Promise<{ HKD: number[]; KRW: number[] }> {
  const stamp = { created_at: now, updated_at: now };
  const categories: number[] = [];
  for (const [i, [name_en, name_zh]] of CATEGORIES.entries()) {
    let row = await db('product_categories').where({ name_en }).first('id');
    if (!row) {
      await db('product_categories').insert({ name_en, name_zh, sort_order: i, ...stamp });
      row = await db('product_categories').where({ name_en }).first('id');
    }
    categories.push(Number(row.id));
  }
  const ids = { HKD: [] as number[], KRW: [] as number[] };
  for (const [category, code, name_en, name_zh, unit, price, currency] of PRODUCTS) {
    let row = await db('products').where({ code }).first('id');
    if (!row) {
      await db('products').insert({
        category_id: categories[category],
        code,
        name_en,
        name_zh,
        unit,
        price,
        currency,
        ...stamp,
      });
      row = await db('products').where({ code }).first('id');
    }
    ids[currency].push(Number(row.id));
  }
  return ids;
}

/**
 * The invoices, their lines and receipts, by SQL (INSERT … SELECT from MariaDB's sequence engine), as the app writes
 * them: see the header. The sequences (`number_sequences`) are written last: they mark a complete fill.
 */
async function fillMoney(db: Knex, adminId: number): Promise<void> {
  const { toDbDateTime } = await import('../server/src/lib/clock');
  const now = toDbDateTime();
  const today = hongKongDay();
  await fillStudents(db, STUDENTS, BRANCHES);
  const products = await catalogue(db, now);
  const students = await count(db, 'students');
  const elt = (index: string, values: readonly (string | number)[]) =>
    `ELT(${index}, ${values.map((v) => (typeof v === 'number' ? String(v) : `'${v}'`)).join(', ')})`;

  // the invoices: dated evenly over the days (numbered in date order, as they were made), a student picked by a
  // hash (the invoice is in the student's branch, made by the student's consultant), 3 in 10 in KRW
  let started = Date.now();
  await db.raw(
    `INSERT INTO orders (order_no, branch_id, student_id, date, currency, language, due_date, status, created_at,
        updated_at, created_by, updated_by)
     SELECT CONCAT('INV-', x.code, '-', YEAR(x.date), '-',
              LPAD(ROW_NUMBER() OVER (PARTITION BY x.branch_id, YEAR(x.date) ORDER BY x.seq), 5, '0')),
            x.branch_id, x.student_id, x.date, x.currency, x.language, DATE_ADD(x.date, INTERVAL 14 DAY), 'issued',
            x.at, x.at, x.consultant, x.consultant
     FROM (SELECT s.seq, st.id AS student_id, st.branch_id, br.code, st.consultant_user_id AS consultant,
             DATE_SUB(?, INTERVAL ${DAYS - 1} - ((s.seq - 1) * ${DAYS}) DIV ${ORDERS} DAY) AS date,
             IF(((s.seq * 2654435761) MOD 1000003) MOD 10 < 3, 'KRW', 'HKD') AS currency,
             IF(((s.seq * 40503) MOD 999983) MOD 5 = 0, 'en', 'zh_HK') AS language,
             DATE_ADD(TIMESTAMP(DATE_SUB(?, INTERVAL ${DAYS - 1} - ((s.seq - 1) * ${DAYS}) DIV ${ORDERS} DAY)),
               INTERVAL 60 + (s.seq * 7) MOD 540 MINUTE) AS at
           FROM seq_1_to_${ORDERS} s
           JOIN (SELECT ROW_NUMBER() OVER (ORDER BY id) AS k, id, branch_id, consultant_user_id FROM students) st
             ON st.k = 1 + (s.seq * 7919) MOD ${students}
           JOIN branches br ON br.id = st.branch_id) x
     ORDER BY x.seq`,
    [today, today],
  );
  const first = Number((await db('orders').min({ id: 'id' }).first())?.id);
  const last = Number((await db('orders').max({ id: 'id' }).first())?.id);
  console.log(`  ${int(last - first + 1)} invoices in ${f1((Date.now() - started) / 1000)} s`);

  // the lines: invoice i has 10 ± d lines (d from 0 to 5, + for the first of a pair and − for the second), of a
  // service in its currency, mostly one of it, one in ten 10 % off and one in ten 5 % off; the net amount rounded half
  // up to what the currency shows (a cent; a whole won), as shared/money.ts `lineNet` does
  started = Date.now();
  const lines = `IF((o.id - ${first}) MOD 2 = 0, 10 + d, 10 - d)`;
  for (let from = first; from <= last; from += BATCH) {
    const to = Math.min(last, from + BATCH - 1);
    await db.raw(
      `INSERT INTO order_items (order_id, sort_order, product_id, description, quantity, unit, unit_price,
          discount_rate, net_amount)
       SELECT x.order_id, x.seq - 1, pr.id, IF(x.language = 'en', pr.name_en, pr.name_zh), x.quantity, pr.unit,
              pr.price, x.rate,
              (x.quantity * pr.price * (10000 - x.rate) * 2 + 10000 * x.unit) DIV (20000 * x.unit) * x.unit
       FROM (SELECT h.order_id, h.language, h.seq, IF(h.currency = 'KRW', 100, 1) AS unit,
               IF(h.currency = 'KRW', ${elt(`1 + h.h MOD ${products.KRW.length}`, products.KRW)},
                  ${elt(`1 + h.h MOD ${products.HKD.length}`, products.HKD)}) AS product_id,
               IF(h.h MOD 9 = 0, 2, 1) AS quantity,
               ${elt('1 + (h.h DIV 7) MOD 10', [1000, 500, 0, 0, 0, 0, 0, 0, 0, 0])} AS rate
             FROM (SELECT o.id AS order_id, o.language, o.currency, s.seq,
                     (o.id * 2654435761 + s.seq * 40503) MOD 1000003 AS h
                   FROM (SELECT o.*, ((((o.id - ${first}) DIV 2) * 2654435761) MOD 1000003) MOD 6 AS d
                         FROM orders o WHERE o.id BETWEEN ? AND ?) o
                   JOIN seq_1_to_${MOST_LINES} s ON s.seq <= ${lines}) h) x
       JOIN products pr ON pr.id = x.product_id
       ORDER BY x.order_id, x.seq`,
      [from, to],
    );
    await db.raw(
      `UPDATE orders o
       JOIN (SELECT order_id, SUM(quantity * unit_price) AS subtotal, SUM(net_amount) AS total
             FROM order_items WHERE order_id BETWEEN ? AND ? GROUP BY order_id) t ON t.order_id = o.id
       SET o.subtotal = t.subtotal, o.discount_total = t.subtotal - t.total, o.total = t.total,
           o.outstanding = t.total`,
      [from, to],
    );
  }
  console.log(
    `  ${int(await count(db, 'order_items'))} invoice lines and the invoices' totals in ${f1((Date.now() - started) / 1000)} s`,
  );

  // receipts: an invoice older than 60 days is paid (7 in 10; a third of them in two receipts, a 30 % deposit
  // and the rest), partly paid (12 in 100: 40 % approved, half of them with a cancelled receipt of 20 %), awaiting
  // approval (5 in 100: the whole or half) or unpaid; a newer one less often paid; 3 in 100 are void (no receipt)
  started = Date.now();
  const r = '((k.id * 48271) MOD 1000003) MOD 100';
  const kind = `CASE WHEN ${r} >= 97 THEN 'void'
      WHEN ${r} < IF(DATEDIFF(?, k.date) > 60, 70, 25) THEN 'paid'
      WHEN ${r} < IF(DATEDIFF(?, k.date) > 60, 82, 45) THEN 'partial'
      WHEN ${r} < IF(DATEDIFF(?, k.date) > 60, 87, 65) THEN 'pending'
      ELSE 'none' END`;
  const share = (percent: number) => `GREATEST(y.unit, (y.total * ${percent} DIV 100) DIV y.unit * y.unit)`;
  await db.raw(
    `INSERT INTO receipts (receipt_no, order_id, student_id, branch_id, date, method, amount, currency, status,
        approved_by, approved_at, created_at, updated_at, created_by, updated_by)
     SELECT CONCAT('REC-', br.code, '-', YEAR(z.date), '-',
              LPAD(ROW_NUMBER() OVER (PARTITION BY z.branch_id, YEAR(z.date) ORDER BY z.date, z.order_id, z.part),
                5, '0')),
            z.order_id, z.student_id, z.branch_id, z.date, z.method, z.amount, z.currency, z.status,
            IF(z.status = 'approved', ?, NULL), IF(z.status = 'approved', z.at + INTERVAL 1 HOUR, NULL),
            z.at, z.at, z.created_by, z.created_by
     FROM (SELECT y.id AS order_id, y.student_id, y.branch_id, y.currency, y.created_by, p.seq AS part,
             LEAST(?, DATE_ADD(y.date, INTERVAL IF(p.seq = 1, y.r MOD 10, 10 + y.r MOD 20) DAY)) AS date,
             DATE_ADD(TIMESTAMP(LEAST(?, DATE_ADD(y.date, INTERVAL IF(p.seq = 1, y.r MOD 10, 10 + y.r MOD 20) DAY))),
               INTERVAL 60 + (y.id * 13 + p.seq) MOD 480 MINUTE) AS at,
             ${elt('1 + (y.id + p.seq) MOD 5', ['cash', 'cheque', 'bank_transfer', 'fps', 'credit_card'])} AS method,
             CASE
               WHEN y.kind = 'paid' AND y.r MOD 3 = 0 THEN IF(p.seq = 1, ${share(30)}, y.total - ${share(30)})
               WHEN y.kind = 'paid' THEN y.total
               WHEN y.kind = 'partial' THEN IF(p.seq = 1, ${share(40)}, ${share(20)})
               ELSE IF(y.r MOD 2 = 0, y.total, ${share(50)})
             END AS amount,
             CASE
               WHEN y.kind = 'pending' THEN 'not_approved'
               WHEN y.kind = 'partial' AND p.seq = 2 THEN 'cancelled'
               ELSE 'approved'
             END AS status
           FROM (SELECT k.id, k.student_id, k.branch_id, k.currency, k.created_by, k.date, k.total,
                   IF(k.currency = 'KRW', 100, 1) AS unit, ${r} AS r, ${kind} AS kind
                 FROM orders k) y
           JOIN seq_1_to_2 p
             ON p.seq = 1 AND y.kind IN ('paid', 'partial', 'pending')
             OR p.seq = 2 AND (y.kind = 'paid' AND y.r MOD 3 = 0 OR y.kind = 'partial' AND y.r MOD 2 = 0)) z
     JOIN branches br ON br.id = z.branch_id
     ORDER BY z.date, z.order_id, z.part`,
    [adminId, today, today, today, today, today],
  );
  // the invoices' amounts as the receipts' rules keep them (money.repository.ts `moveOrderMoney`), then the void
  await db.raw(
    `UPDATE orders o
     JOIN (SELECT order_id, SUM(IF(status <> 'cancelled', amount, 0)) AS receipted,
             SUM(IF(status = 'approved', amount, 0)) AS paid
           FROM receipts GROUP BY order_id) t ON t.order_id = o.id
     SET o.receipted_amount = t.receipted, o.paid_amount = t.paid, o.outstanding = o.total - t.paid,
         o.status = IF(t.paid > 0 AND t.paid >= o.total, 'paid', IF(t.paid > 0, 'partially_paid', 'issued'))`,
  );
  await db.raw(
    `UPDATE orders k SET k.status_before_void = k.status, k.status = 'void',
       k.voided_at = DATE_ADD(k.created_at, INTERVAL 1 DAY), k.voided_by = ?, k.void_reason = 'Issued in error'
     WHERE ${r} >= 97 AND k.receipted_amount = 0`,
    [adminId],
  );
  console.log(
    `  ${int(await count(db, 'receipts'))} receipts, the invoices' paid, outstanding and status in ` +
      `${f1((Date.now() - started) / 1000)} s`,
  );
  for (const [document, table] of [
    ['receipt', 'receipts'],
    ['order', 'orders'],
  ])
    await db.raw(
      `INSERT INTO number_sequences (document, branch_id, year, next_value, created_at, updated_at)
       SELECT ?, branch_id, YEAR(date), COUNT(*) + 1, ?, ? FROM ${table} GROUP BY branch_id, YEAR(date)`,
      [document, now, now],
    );
  await db.raw('ANALYZE TABLE orders, order_items, receipts, students');
}

/** What the database holds, as the reports will read it. */
async function describe(db: Knex): Promise<{ first: string; last: string }> {
  const span = await db('orders').min({ first: 'date' }).max({ last: 'date' }).first();
  const byStatus = (await db('orders')
    .select('status', 'currency')
    .count({ n: '*' })
    .groupBy('status', 'currency')
    .orderBy(['currency', 'status'])) as unknown as { status: string; currency: string; n: number }[];
  const receipts = (await db('receipts')
    .select('status')
    .count({ n: '*' })
    .groupBy('status')
    .orderBy('status')) as unknown as { status: string; n: number }[];
  const day = (v: unknown) => (v instanceof Date ? hongKongDay(v.getTime()) : String(v).slice(0, 10));
  console.log(
    `  ${int(await count(db, 'orders'))} invoices from ${day(span?.first)} to ${day(span?.last)}, ` +
      `${int(await count(db, 'order_items'))} lines, ${int(await count(db, 'receipts'))} receipts ` +
      `(${receipts.map((x) => `${x.status} ${int(Number(x.n))}`).join(', ')}), ${int(await count(db, 'students'))} students`,
  );
  console.log(
    `  invoices by currency and status: ${byStatus.map((x) => `${x.currency} ${x.status} ${int(Number(x.n))}`).join(', ')}`,
  );
  return { first: day(span?.first), last: day(span?.last) };
}

/** The first day of the latest months whose invoices have `lines` lines or more (null: all of them have fewer). */
async function monthsHolding(db: Knex, lines: number): Promise<string | null> {
  const perMonth = (await db('order_items as d')
    .join('orders as o', 'o.id', 'd.order_id')
    .select({ month: db.raw("DATE_FORMAT(o.date, '%Y-%m')") })
    .count({ n: '*' })
    .groupBy('month')
    .orderBy('month', 'desc')) as unknown as { month: string; n: number }[];
  let sum = 0;
  for (const row of perMonth) {
    sum += Number(row.n);
    if (sum >= lines) return `${row.month}-01`;
  }
  return null;
}

/** A user of one branch whose role sees the dashboard's figures and the money reports (data scope: the branch). */
async function branchUser(db: Knex): Promise<void> {
  const { createUser } = await import('../server/test/harness');
  if (await db('users').where({ email: BRANCH_USER.email }).first('id')) return;
  const branch = await db('branches').where({ code: BRANCHES[0] }).first('id');
  const user = await createUser(db, {
    ...BRANCH_USER,
    permissions: [
      'dashboard.view',
      'students.view',
      'orders.view',
      'receipts.view',
      'reports.orders',
      'reports.export',
    ],
  });
  await db('roles').where({ id: user.roleId }).update({ data_scope: 'branch' });
  await db('users').where({ id: user.id }).update({ branch_id: branch.id });
}

const none = async () => undefined;

/** A report's result page, `n` times one after another: its times, p95, whether every answer was 200; printed. */
async function reportPage(app: Server, c: BenchCase & { cookie: string }, n: number) {
  const answer = await call(app.base, c.path(0), { headers: { cookie: c.cookie } });
  const body =
    answer.status === 200
      ? (JSON.parse(answer.body.toString()) as { total: number; totals: unknown[] })
      : null;
  const { times, statuses } = await sequentially(app, c.cookie, c, n, 0, none);
  const p95 = percentile(times, 95);
  const st = [...new Set([answer.status, ...statuses])];
  console.log(
    `  ${c.name.padEnd(40)} ${body ? `${int(body.total)} rows, ${body.totals.length} totals` : 'no rows'}: ` +
      `median ${f1(median(times))} ms, p95 ${f1(p95)} ms, max ${f1(Math.max(...times))} ms ` +
      `(status ${st.join(', ')}; ${load()})`,
  );
  return { times, p95, ok: st.every((x) => x === 200) };
}

export async function moneyPart(secrets: Record<string, string>): Promise<void> {
  const name = DATABASES.money;
  const reuse = KEEP && (await databaseExists(name));
  let db = await prepareDatabase(name, !reuse);
  const servers: Server[] = [];
  try {
    heading(
      `money: ${int(ORDERS)} invoices, ${int(ORDERS * 10)} lines${reuse ? ` (database ${name} kept from an earlier run)` : ''}`,
    );
    if (!(await db('number_sequences').where({ document: 'order' }).first('id'))) {
      if (reuse) {
        // an earlier fill that did not finish: start again
        await db.destroy();
        db = await prepareDatabase(name, true);
      }
      const started = Date.now();
      const admin = await db('users').where({ is_admin: true }).first('id');
      await fillMoney(db, Number(admin.id));
      console.log(`  filled by SQL in ${f1((Date.now() - started) / 1000)} s (${load()})`);
    }
    await branchUser(db);
    const { first, last } = await describe(db);
    // the latest months that hold 100,000 lines or more (the lines report's file)
    const linesFrom = (await monthsHolding(db, 100_000)) ?? first;

    const app = await Server.start('app', name, secrets);
    servers.push(app);
    const cookie = await signIn(app);
    const branchCookie = await signIn(app, BRANCH_USER);

    heading(
      `money: GET /api/dashboard/show, ${SAMPLES} requests one after another, then ${USERS} users at once`,
    );
    await section('money: dashboard', async () => {
      for (const [who, c] of [
        ['the admin (every branch)', cookie],
        [`a user of branch ${BRANCHES[0]}`, branchCookie],
      ] as const) {
        const dashboard: BenchCase = { name: 'dashboard', path: () => '/api/dashboard/show' };
        const answer = await call(app.base, '/api/dashboard/show', { headers: { cookie: c } });
        if (answer.status !== 200) throw new Error(`the dashboard answered ${answer.status}`);
        const figures = (JSON.parse(answer.body.toString()) as { figures: { key: string; data: unknown }[] })
          .figures;
        const invoiced = figures.find((f) => f.key === 'month_invoiced')?.data as {
          values: { currency: string; amount: number }[];
        };
        const alone = await sequentially(app, c, dashboard, SAMPLES, 0, none);
        const cpu = app.cpuMs();
        const r = await concurrently(app, c, dashboard, 0, none);
        const cpuEach = (app.cpuMs() - cpu) / Math.max(1, r.times.length);
        const p95 = percentile(r.times, 95);
        console.log(
          `  ${who}: ${figures.length} figures (this month invoiced ${invoiced?.values.map((v) => `${v.currency} ${int(v.amount / 100)}`).join(', ')}); ` +
            `alone median ${f1(median(alone.times))} ms, p95 ${f1(percentile(alone.times, 95))} ms; ` +
            `${USERS} users: ${int(r.rps)} req/s, p50 ${f1(percentile(r.times, 50))} ms, p95 ${f1(p95)} ms, ` +
            `${r.errors} errors of ${int(r.times.length)}, the app's CPU ${f1(cpuEach)} ms a request (${load()})`,
        );
        target(
          `dashboard, ${who}, p95 at ${USERS} users`,
          `${f1(p95)} ms (${load()})`,
          p95 <= 200 && r.errors === 0,
          '≤ 200 ms',
        );
      }
    });

    const wide = `date_from=${first}&date_to=${last}`;
    heading(
      `money: the invoices report's result page, ${SAMPLES} requests one after another (this month; ${first} to ${last})`,
    );
    await section('money: invoices report', async () => {
      const cases: (BenchCase & { cookie: string })[] = [
        { name: 'this month (the default)', path: () => '/api/reports/orders/order', cookie },
        { name: 'three years', path: () => `/api/reports/orders/order?${wide}`, cookie },
        {
          name: 'three years, by status',
          path: () => `/api/reports/orders/order?${wide}&group_by=status`,
          cookie,
        },
        {
          name: 'three years, by month',
          path: () => `/api/reports/orders/order?${wide}&group_by=month`,
          cookie,
        },
        {
          name: `three years, a user of branch ${BRANCHES[0]}`,
          path: () => `/api/reports/orders/order?${wide}`,
          cookie: branchCookie,
        },
      ];
      for (const c of cases) {
        const r = await reportPage(app, c, SAMPLES);
        target(
          `invoices report, ${c.name} (p95 of ${r.times.length})`,
          `${f1(r.p95)} ms (${load()})`,
          r.p95 <= 300 && r.ok,
          '≤ 300 ms',
        );
      }
    });

    heading(
      `money: the other money reports' result pages, for what they cost (the issue sets them no target)`,
    );
    await section('money: other reports', async () => {
      const lines = '/api/reports/orders/order-items';
      const cases: [BenchCase & { cookie: string }, number][] = [
        [{ name: 'invoice lines, this month', path: () => lines, cookie }, SAMPLES],
        [
          {
            name: `invoice lines, ${linesFrom} on`,
            path: () => `${lines}?date_from=${linesFrom}&date_to=${last}`,
            cookie,
          },
          5,
        ],
        [{ name: 'invoice lines, three years', path: () => `${lines}?${wide}`, cookie }, 3],
        [
          {
            name: 'invoice analysis, this year by branch',
            path: () => '/api/reports/orders/order-analysis?group_by=branch',
            cookie,
          },
          5,
        ],
        [
          { name: 'receipts, three years', path: () => `/api/reports/orders/receipt?${wide}`, cookie },
          SAMPLES,
        ],
      ];
      for (const [c, n] of cases) await reportPage(app, c, n);
    });

    heading('money: report files (XLSX), the app process peak RSS read from outside (VmHWM)');
    await section('money: report files', async () => {
      const { readXlsx } = await import('../server/test/resources/helpers');
      for (const [label, path] of [
        [`invoices ${first} to ${last}`, `/api/reports/orders/order?${wide}`],
        [
          `invoice lines ${linesFrom} to ${last}`,
          `/api/reports/orders/order-items?date_from=${linesFrom}&date_to=${last}`,
        ],
      ]) {
        const json = await call(app.base, path, { headers: { cookie } });
        const total = Number(JSON.parse(json.body.toString()).total);
        const idle = app.rss();
        app.resetPeak();
        const cpu = app.cpuMs();
        const res = await call(app.base, `${path}&format=xlsx`, { headers: { cookie } });
        const peak = app.peakRss();
        const cpuMs = app.cpuMs() - cpu;
        const rows = res.status === 200 ? (await readXlsx(res.body)).length - 1 : NaN;
        console.log(
          `  ${label}: ${int(total)} rows in the result, ${int(rows)} in the file (${int(res.bytes)} B, status ${res.status}) ` +
            `in ${f1(res.ms)} ms, the app's CPU ${f1(cpuMs)} ms; RSS ${mib(idle)} before, peak ${mib(peak)} (${load()})`,
        );
        target(
          `${label} to XLSX (${int(rows)} rows): time`,
          `${f1(res.ms / 1000)} s (${load()})`,
          res.ms <= 3000 && res.status === 200 && rows === total && rows >= 100_000,
          '≤ 3 s, ≥ 100,000 rows',
        );
        target(
          `${label} to XLSX: the app's peak RSS`,
          mib(peak),
          peak <= 200 * 1024 * 1024 && res.status === 200,
          '≤ 200 MB',
        );
      }
    });
  } finally {
    for (const s of servers) await s.stop();
    await db.destroy();
    if (!KEEP) await dropDatabase(name);
    else console.log(`\n  BENCH_KEEP=1: database ${name} kept for the next run`);
  }
}

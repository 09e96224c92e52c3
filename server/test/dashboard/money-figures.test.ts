/**
 * The dashboard's money figures (issue 29, item 5), on SQLite and MariaDB: this Hong Kong month's invoiced (not
 * void), outstanding and received (approved receipts); the invoices overdue today (due before today, outstanding,
 * not void) — how many and what is outstanding —; the receipts awaiting approval — how many and their amount —; the
 * invoiced per month of the last twelve, a series per currency. One value per currency — HKD and KRW never added
 * together —, checked against sums computed here over the seeded rows, for an admin and for a branch user who must
 * not count another branch's; each needs its list's key, and links to the report or list that explains it only
 * for whoever may open it — where the report or list answers the same figures.
 */
import { addDays, hongKongDay, presetRange } from '../../../shared/reports/criteria';
import { toDbDateTime } from '../../src/lib/clock';
import { changeEvents } from '../../src/lib/change-events';
import { moneyFiguresRepository } from '../../src/modules/dashboard/money.figures.repository';
import { Client, createBranch, createTestApp, signedInAdmin, type TestApp } from '../harness';
import { signIn } from '../resources/helpers';
import { insertStudent } from '../sales/sales-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
const today = hongKongDay();
const month = presetRange('this_month', today);
const lastMonth = addDays(month.from, -1);

/** The 15th of the month `months` before this one (Hong Kong). */
function monthsAgo(months: number): string {
  const d = new Date(`${today.slice(0, 7)}-15T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}
/** The series' months, oldest first: this one and the eleven before. */
const seriesMonths = Array.from({ length: 12 }, (_, i) => monthsAgo(11 - i).slice(0, 7));

interface Seeded {
  branch: number;
  date: string;
  currency: string;
  total: number;
  outstanding: number;
  status: string;
  due: string | null;
}
const orders: Seeded[] = [];
const receipts: { branch: number; date: string; currency: string; amount: number; status: string }[] = [];

async function show(client: Client): Promise<Row> {
  const res = await client.get('/api/dashboard/show').set('Accept-Language', 'en');
  expect([res.status, res.status === 200 ? null : res.body]).toEqual([200, null]);
  return res.body;
}
/** The statements of one dashboard answer that read this month's invoices' totals and outstanding. */
async function invoiceReads(client: Client): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  t.db.on('query', listener);
  try {
    await show(client);
  } finally {
    t.db.removeListener('query', listener);
  }
  // (the overdue invoices and the months' series read the invoices too, each its own question)
  return seen.filter(
    (sql) =>
      /from [`"]orders[`"]/i.test(sql) &&
      /sum\([`"]d[`"]\.[`"]outstanding[`"]\) as [`"]outstanding[`"]/i.test(sql),
  );
}
const figure = (body: Row, key: string) => body.figures.find((f: Row) => f.key === key);

function sums<T extends { currency: string }>(rows: T[], value: (r: T) => number): Row[] {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.currency, (out.get(r.currency) ?? 0) + value(r));
  return [...out].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount }));
}

function expected(inScope: (branch: number) => boolean) {
  const mine = orders.filter(
    (o) => inScope(o.branch) && o.date >= month.from && o.date <= month.to && o.status !== 'void',
  );
  const overdue = orders.filter(
    (o) => inScope(o.branch) && o.due !== null && o.due < today && o.outstanding > 0 && o.status !== 'void',
  );
  const awaiting = receipts.filter((r) => inScope(r.branch) && r.status === 'not_approved');
  const invoiced = orders.filter(
    (o) => inScope(o.branch) && o.status !== 'void' && seriesMonths.includes(o.date.slice(0, 7)),
  );
  const currencies = [...new Set(invoiced.map((o) => o.currency))].sort();
  return {
    invoiced: sums(mine, (o) => o.total),
    outstanding: sums(mine, (o) => o.outstanding),
    received: sums(
      receipts.filter(
        (r) => inScope(r.branch) && r.date >= month.from && r.date <= month.to && r.status === 'approved',
      ),
      (r) => r.amount,
    ),
    overdue: { count: overdue.length, values: sums(overdue, (o) => o.outstanding) },
    awaiting: { count: awaiting.length, values: sums(awaiting, (r) => r.amount) },
    series: {
      currencies,
      points: seriesMonths.map((period) => ({
        period,
        amounts: Object.fromEntries(
          currencies.map((c) => [
            c,
            invoiced
              .filter((o) => o.currency === c && o.date.startsWith(period))
              .reduce((n, o) => n + o.total, 0),
          ]),
        ),
      })),
    },
  };
}

/** The new figures as the dashboard answered them. */
function answered(body: Row) {
  return {
    overdue: figure(body, 'overdue_invoices').data,
    awaiting: figure(body, 'receipts_awaiting_approval').data,
    series: figure(body, 'month_invoiced_series').data,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
  const now = toDbDateTime();
  const students = new Map([
    [branchA, await insertStudent(t, branchA)],
    [branchB, await insertStudent(t, branchB)],
  ]);
  // overdue: due before today with money outstanding, not void — not due today, nor without a due date, nor paid
  const spec: [number, string, string, number, number, string, string | null][] = [
    [branchA, month.from, 'HKD', 1_000_050, 400_000, 'partially_paid', addDays(today, -1)],
    [branchA, today, 'KRW', 250_000_000, 250_000_000, 'issued', today],
    [branchB, today, 'HKD', 300_000, 0, 'paid', addDays(today, -10)],
    [branchB, month.from, 'KRW', 70_000_000, 20_000_000, 'partially_paid', addDays(today, -3)],
    [branchA, today, 'HKD', 999_900, 999_900, 'void', addDays(today, -5)],
    [branchB, lastMonth, 'HKD', 123_400, 123_400, 'issued', lastMonth],
    [branchA, monthsAgo(11), 'KRW', 55_000_000, 55_000_000, 'issued', addDays(monthsAgo(11), 14)],
    [branchA, monthsAgo(12), 'HKD', 777_700, 0, 'paid', null],
    [branchB, monthsAgo(5), 'HKD', 250_000, 50_000, 'partially_paid', null],
    [branchB, monthsAgo(5), 'KRW', 9_000_000, 9_000_000, 'issued', addDays(monthsAgo(5), 30)],
    [branchA, today, 'HKD', 500_000, 500_000, 'issued', addDays(today, 14)],
  ];
  let n = 0;
  for (const [branch, date, currency, total, outstanding, status, due] of spec) {
    const [id] = await t.db('orders').insert({
      order_no: `INV-MF-${++n}`,
      branch_id: branch,
      student_id: students.get(branch),
      date,
      due_date: due,
      currency,
      subtotal: total,
      total,
      paid_amount: total - outstanding,
      outstanding,
      status,
      created_at: now,
      updated_at: now,
    });
    orders.push({ branch, date, currency, total, outstanding, status, due });
    // its one line (the invoice analysis sums the lines of the invoices)
    await t.db('order_items').insert({
      order_id: Number(id),
      description: `Line of INV-MF-${n}`,
      quantity: 1,
      unit_price: total,
      net_amount: total,
    });
    for (const [amount, rstatus] of [
      [total - outstanding, 'approved'],
      [Math.min(10_000 * n, outstanding), 'not_approved'],
      [n % 3 === 0 ? 5_000 : 0, 'cancelled'],
    ] as const) {
      if (!amount) continue;
      await t.db('receipts').insert({
        receipt_no: `REC-MF-${n}-${rstatus}`,
        order_id: Number(id),
        student_id: students.get(branch),
        branch_id: branch,
        date,
        method: 'cash',
        amount,
        currency,
        status: rstatus,
        created_at: now,
        updated_at: now,
      });
      receipts.push({ branch, date, currency, amount, status: rstatus });
    }
  }
});

afterAll(async () => {
  await t?.close();
});

describe('the dashboard’s money figures', () => {
  it('sums this month per currency for every branch, each linking to its money report', async () => {
    const body = await show(admin);
    const { invoiced, outstanding, received } = expected(() => true);
    const want = { invoiced, outstanding, received };
    const got = {
      invoiced: figure(body, 'month_invoiced').data.values,
      outstanding: figure(body, 'month_outstanding').data.values,
      received: figure(body, 'month_received').data.values,
    };
    console.log('money figures (admin):', JSON.stringify(got));
    expect(got).toEqual(want);
    expect(got.invoiced.map((v: Row) => v.currency)).toEqual(['HKD', 'KRW']);
    expect(figure(body, 'month_invoiced').kind).toBe('money');
    expect(figure(body, 'month_invoiced').link).toBe(
      '/reports/orders/order-result?date_preset=this_month&group_by=status',
    );
    expect(figure(body, 'month_received').link).toBe(
      '/reports/orders/receipt-result?date_preset=this_month&status=approved',
    );
    // the report the figure links to sums the same: its approved receipts this month per currency
    const report = await admin.get('/api/reports/orders/receipt?date_preset=this_month&status=approved');
    expect(report.body.totals.map((r: Row) => ({ currency: r.currency, amount: r.amount }))).toEqual(
      want.received,
    );
  });

  it('reads this month’s invoices once for the invoiced and the outstanding figures', async () => {
    expect(await invoiceReads(admin)).toHaveLength(1);
    // and again for the next answer: nothing is kept between requests
    expect(await invoiceReads(admin)).toHaveLength(1);
  });

  it('shares a figure’s read among the requests in flight, and reads anew after any change', async () => {
    const reads: string[] = [];
    const listener = (q: { sql: string }) => {
      if (/from [`"]orders[`"]/i.test(q.sql) && /[`"]due_date[`"] </i.test(q.sql)) reads.push(q.sql);
    };
    t.db.on('query', listener);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => moneyFiguresRepository.overdue(t.db, null, today)),
      );
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      const shared = reads.length;
      // a change while one is in flight: the read that comes after it is its own
      reads.length = 0;
      const before = moneyFiguresRepository.overdue(t.db, null, today);
      await changeEvents.emit(['orders'], 'uncommitted');
      const after = moneyFiguresRepository.overdue(t.db, null, today);
      await Promise.all([before, after]);
      console.log(
        `shared figure reads: 6 at once read the overdue invoices ${shared} time(s); a change between two: ${reads.length}`,
      );
      expect(shared).toBe(1);
      expect(reads).toHaveLength(2);
    } finally {
      t.db.removeListener('query', listener);
    }
  });

  it('counts a branch user’s own branch only, needs the lists’ keys, and links only to what it may open', async () => {
    const own = await signIn(t, ['dashboard.view', 'orders.view', 'receipts.view'], { branchId: branchB });
    const body = await show(own);
    const { invoiced, outstanding, received } = expected((branch) => branch === branchB);
    const want = { invoiced, outstanding, received };
    const got = {
      invoiced: figure(body, 'month_invoiced').data.values,
      outstanding: figure(body, 'month_outstanding').data.values,
      received: figure(body, 'month_received').data.values,
    };
    console.log('money figures (branch B user):', JSON.stringify(got));
    expect(got).toEqual(want);
    expect(figure(body, 'month_invoiced').link).toBeNull();
    const withReports = await signIn(t, ['dashboard.view', 'orders.view', 'reports.orders'], {
      branchId: branchB,
    });
    const second = await show(withReports);
    expect(figure(second, 'month_received')).toBeUndefined();
    expect(figure(second, 'month_invoiced').link).toMatch(/^\/reports\/orders\/order-result/);
    const none = await show(await signIn(t, ['dashboard.view']));
    expect(none.figures).toEqual([]);
  });
});

describe('overdue invoices, receipts awaiting approval, invoiced per month', () => {
  const overdueLink = `/reports/orders/order-result?date_to=${today}&due=overdue`;
  const seriesLink =
    `/reports/orders/order-analysis-result?group_by=month&date_from=${seriesMonths[0]}-01` +
    `&date_to=${month.to}`;
  /** The data call of a report's result screen (`/reports/…-result?…` → `/api/reports/…?…`). */
  const dataCall = (link: string) => `/api${link.replace('-result?', '?')}&per_page=100`;

  it('counts and sums per currency for every branch, as the report and the list they link to do', async () => {
    const body = await show(admin);
    const want = expected(() => true);
    const got = answered(body);
    console.log('overdue, awaiting approval, invoiced per month (admin):', JSON.stringify(got));
    expect(got).toEqual({
      overdue: want.overdue,
      awaiting: want.awaiting,
      series: want.series,
    });
    // what the seed makes them: both currencies in each, never one sum
    expect(want.overdue.count).toBe(5);
    expect(want.overdue.values.map((v: Row) => v.currency)).toEqual(['HKD', 'KRW']);
    expect(want.awaiting.values.map((v: Row) => v.currency)).toEqual(['HKD', 'KRW']);
    expect(want.series.currencies).toEqual(['HKD', 'KRW']);
    expect(got.series.points.map((p: Row) => p.period)).toEqual(seriesMonths);
    expect(got.series.points[11].period).toBe(today.slice(0, 7));
    // this month's point is this month's invoiced figure
    expect(
      Object.entries(got.series.points[11].amounts)
        .filter(([, amount]) => amount)
        .map(([currency, amount]) => ({ currency, amount })),
    ).toEqual(figure(body, 'month_invoiced').data.values);

    expect(figure(body, 'month_invoiced_series').kind).toBe('money_series');
    expect(figure(body, 'overdue_invoices').link).toBe(overdueLink);
    expect(figure(body, 'receipts_awaiting_approval').link).toBe('/orders/receipt?status=not_approved');
    expect(figure(body, 'month_invoiced_series').link).toBe(seriesLink);

    // the invoices report's overdue invoices: the same number and outstanding per currency
    const report = await admin.get(dataCall(overdueLink));
    expect([report.status, report.body.total]).toEqual([200, want.overdue.count]);
    expect(report.body.totals.map((r: Row) => ({ currency: r.currency, amount: r.outstanding }))).toEqual(
      want.overdue.values,
    );
    // the receipts list filtered to not approved: the same receipts
    const list = await admin.get('/api/receipts?status=not_approved&per_page=100');
    expect([list.status, list.body.total]).toEqual([200, want.awaiting.count]);
    expect(sums(list.body.items, (r: Row) => Number(r.amount))).toEqual(want.awaiting.values);
    // the invoice analysis by month: the same amount per month and currency
    const analysis = await admin.get(dataCall(seriesLink));
    expect(analysis.status).toBe(200);
    const byMonth = new Map(analysis.body.items.map((r: Row) => [`${r.month} ${r.currency}`, r.amount]));
    for (const p of want.series.points)
      for (const [currency, amount] of Object.entries(p.amounts))
        expect([p.period, currency, byMonth.get(`${p.period} ${currency}`) ?? 0]).toEqual([
          p.period,
          currency,
          amount,
        ]);
  });

  it('counts a branch user’s own branch only, each figure behind its list’s key', async () => {
    const own = await signIn(t, ['dashboard.view', 'orders.view', 'receipts.view'], { branchId: branchB });
    const body = await show(own);
    const want = expected((branch) => branch === branchB);
    const got = answered(body);
    console.log('overdue, awaiting approval, invoiced per month (branch B user):', JSON.stringify(got));
    expect(got).toEqual({ overdue: want.overdue, awaiting: want.awaiting, series: want.series });
    // branch A's rows would change every one of them
    const all = expected(() => true);
    expect(want.overdue).not.toEqual(all.overdue);
    expect(want.awaiting).not.toEqual(all.awaiting);
    expect(want.series).not.toEqual(all.series);
    // the reports' links need reports.orders; the receipts list opens with receipts.view
    expect(figure(body, 'overdue_invoices').link).toBeNull();
    expect(figure(body, 'month_invoiced_series').link).toBeNull();
    expect(figure(body, 'receipts_awaiting_approval').link).toBe('/orders/receipt?status=not_approved');
    const list = await own.get('/api/receipts?status=not_approved&per_page=100');
    expect(list.body.total).toBe(want.awaiting.count);

    const invoicesOnly = await signIn(t, ['dashboard.view', 'orders.view', 'reports.orders'], {
      branchId: branchB,
    });
    const second = await show(invoicesOnly);
    expect(second.figures.map((f: Row) => f.key)).toEqual([
      'month_invoiced',
      'month_outstanding',
      'overdue_invoices',
      'month_invoiced_series',
    ]);
    expect(figure(second, 'overdue_invoices').data).toEqual(want.overdue);
    expect(figure(second, 'month_invoiced_series').data).toEqual(want.series);
    const report = await invoicesOnly.get(dataCall(figure(second, 'overdue_invoices').link));
    expect(report.body.total).toBe(want.overdue.count);
    const receiptsOnly = await show(
      await signIn(t, ['dashboard.view', 'receipts.view'], { branchId: branchB }),
    );
    expect(receiptsOnly.figures.map((f: Row) => f.key)).toEqual([
      'month_received',
      'receipts_awaiting_approval',
    ]);
  });
});

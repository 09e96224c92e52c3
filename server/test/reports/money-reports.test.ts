/**
 * The money reports (issue 29, item 2): invoices, receipts and refunds, on SQLite and MariaDB. Seeded straight into
 * the tables — HKD and KRW documents in one range, in two branches, one outside the range — and each report's
 * totals checked against sums computed here over the seeded rows (never read back from the database): one total
 * row per currency, never HKD added to KRW; a branch user sees its own branch only (another branch asked for is a
 * 404); the groupings are per group and currency; the XLSX read back holds the screen's rows, money as numbers (major
 * units) beside a currency column.
 */
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createBranch, createTestApp, signedInAdmin, type TestApp } from '../harness';
import { lineBatches } from '../../src/modules/reports/money-report.repository';
import { download, readCsv, readXlsx, signIn } from '../resources/helpers';
import { insertStudent } from '../sales/sales-helpers';
import { optionValue } from '../students/students-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
const terms: number[] = [];

interface Doc {
  id?: number;
  no: string;
  branch: 'A' | 'B';
  date: string;
  currency: 'HKD' | 'KRW';
  status: string;
  amount: number;
  paid?: number;
  method?: string;
  term?: number;
  order?: number;
}

const orders: Doc[] = [];
interface Line {
  order: Doc;
  product: number | null;
  category: number | null;
  school: number | null;
  intake: number | null;
  quantity: number;
  amount: number;
}
const lines: Line[] = [];
const ids: Row = {};
const receipts: Doc[] = [];
const refunds: Doc[] = [];

const RANGE = 'date_from=2030-03-01&date_to=2030-03-31';
const ORDERS = `/api/reports/orders/order?${RANGE}`;
const RECEIPTS = `/api/reports/orders/receipt?${RANGE}`;
const REFUNDS = `/api/reports/orders/refund?${RANGE}`;
const inRange = (d: Doc) => d.date >= '2030-03-01' && d.date <= '2030-03-31';

async function get(client: Client, url: string, status = 200): Promise<Row> {
  const res = await client.get(url).set('Accept-Language', 'en');
  expect([url, res.status, res.status === status ? null : res.body]).toEqual([url, status, null]);
  return res.body;
}

/** The sums of `docs` per currency, as the report's totals row reads. */
function expectedTotals(docs: Doc[], count: string, sums: Record<string, (d: Doc) => number>): Row[] {
  const out = new Map<string, Row>();
  for (const d of docs) {
    let row = out.get(d.currency);
    if (!row)
      out.set(
        d.currency,
        (row = {
          currency: d.currency,
          [count]: 0,
          ...Object.fromEntries(Object.keys(sums).map((k) => [k, 0])),
        }),
      );
    row[count] += 1;
    for (const [k, f] of Object.entries(sums)) row[k] += f(d);
  }
  return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

const orderSums = {
  total: (d: Doc) => d.amount,
  paid: (d: Doc) => d.paid ?? 0,
  outstanding: (d: Doc) => d.amount - (d.paid ?? 0),
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db, 'MRA');
  branchB = await createBranch(t.db, 'MRB');
  await t.db('branches').where({ id: branchA }).update({ name_en: 'Alpha', name_zh: '甲分行' });
  await t.db('branches').where({ id: branchB }).update({ name_en: 'Beta', name_zh: '乙分行' });
  for (const value of ['HKD', 'KRW']) await optionValue(t.db, 'currency', value);
  for (const value of ['cash', 'cheque']) await optionValue(t.db, 'payment_method', value);
  const now = toDbDateTime();
  for (const n of [1, 2]) {
    const [id] = await t.db('refund_terms').insert({
      title_en: `Terms ${n}`,
      title_zh: `條款 ${n}`,
      content_en: 'x',
      content_zh: 'x',
      created_at: now,
      updated_at: now,
    });
    terms.push(Number(id));
  }
  const students = { A: await insertStudent(t, branchA), B: await insertStudent(t, branchB) };
  const branchOf = (b: 'A' | 'B') => (b === 'A' ? branchA : branchB);
  // HKD and KRW in one range, both branches; one of each currency outside the range
  const spec: [Doc['branch'], string, Doc['currency'], number, number][] = [
    ['A', '2030-03-01', 'HKD', 1_234_550, 1_000_000],
    ['A', '2030-03-15', 'KRW', 150_000_000, 0],
    ['A', '2030-03-31', 'HKD', 500_000, 500_000],
    ['B', '2030-03-10', 'HKD', 777_700, 0],
    ['B', '2030-03-20', 'KRW', 99_000_000, 33_000_000],
    ['A', '2030-02-28', 'HKD', 999_900, 0],
    ['B', '2030-04-01', 'KRW', 10_000_000, 0],
  ];
  let n = 0;
  for (const [branch, date, currency, amount, paid] of spec) {
    const status = paid === 0 ? 'issued' : paid === amount ? 'paid' : 'partially_paid';
    const doc: Doc = { no: `INV-MR-${++n}`, branch, date, currency, status, amount, paid };
    const [id] = await t.db('orders').insert({
      order_no: doc.no,
      branch_id: branchOf(branch),
      student_id: students[branch],
      date,
      currency,
      subtotal: amount,
      total: amount,
      paid_amount: paid,
      outstanding: amount - paid,
      status,
      created_at: now,
      updated_at: now,
    });
    doc.id = Number(id);
    orders.push(doc);
  }
  // lines: two services in two categories, a quotation item of a school's intake; their amounts are the invoice's
  const stamp = { created_at: now, updated_at: now };
  const [catX] = await t.db('product_categories').insert({ name_en: 'Fees X', name_zh: '費用甲', ...stamp });
  const [catY] = await t.db('product_categories').insert({ name_en: 'Fees Y', name_zh: '費用乙', ...stamp });
  const product = async (code: string, category: number) =>
    Number(
      (
        await t.db('products').insert({
          category_id: category,
          code,
          name_en: `Service ${code}`,
          name_zh: `服務 ${code}`,
          price: 100,
          currency: 'HKD',
          ...stamp,
        })
      )[0],
    );
  ids.catX = Number(catX);
  ids.catY = Number(catY);
  ids.p1 = await product('MRP1', ids.catX);
  ids.p2 = await product('MRP2', ids.catY);
  const [school] = await t
    .db('schools')
    .insert({ code: 'MRS', name_en: 'Money School', name_zh: '錢學校', ...stamp });
  ids.school = Number(school);
  const [intake] = await t
    .db('school_admissions')
    .insert({ school_id: ids.school, name_en: 'Fall 2030', name_zh: '2030秋季', year: 2030, ...stamp });
  ids.intake = Number(intake);
  const [item] = await t.db('quotation_items').insert({
    code: 'MRQ',
    name_en: 'Package',
    name_zh: '套餐',
    school_id: ids.school,
    admission_id: ids.intake,
    unit_price: 100,
    currency: 'HKD',
    ...stamp,
  });
  for (const o of orders) {
    // the first line a service (alternating), the rest of the amount a quotation item's line
    const first = Math.floor(o.amount / 3);
    const parts: [number | null, number | null, number, number][] = [
      [o.no.endsWith('1') || o.no.endsWith('3') ? ids.p1 : ids.p2, null, 1, first],
      [null, Number(item), 2, o.amount - first],
    ];
    let order = 0;
    for (const [productId, itemId, quantity, amount] of parts) {
      await t.db('order_items').insert({
        order_id: o.id,
        sort_order: order++,
        product_id: productId,
        quotation_item_id: itemId,
        description: `Line of ${o.no}`,
        quantity,
        unit_price: amount,
        net_amount: amount,
      });
      lines.push({
        order: o,
        product: productId,
        category: productId === null ? null : productId === ids.p1 ? ids.catX : ids.catY,
        school: itemId === null ? null : ids.school,
        intake: itemId === null ? null : ids.intake,
        quantity,
        amount,
      });
    }
  }
  // receipts: each order with money paid, approved, plus a cancelled and a pending one
  let r = 0;
  for (const o of orders) {
    const entries: [number, string, string][] = [];
    if (o.paid) entries.push([o.paid, 'approved', r % 2 ? 'cash' : 'cheque']);
    if (o.amount - (o.paid ?? 0) > 0)
      entries.push([
        Math.min(100_000, o.amount - (o.paid ?? 0)),
        r % 3 ? 'not_approved' : 'cancelled',
        'cash',
      ]);
    for (const [amount, status, method] of entries) {
      const doc: Doc = {
        no: `REC-MR-${++r}`,
        branch: o.branch,
        date: o.date,
        currency: o.currency,
        status,
        amount,
        method,
        order: o.id,
      };
      const [id] = await t.db('receipts').insert({
        receipt_no: doc.no,
        order_id: o.id,
        student_id: students[o.branch],
        branch_id: branchOf(o.branch),
        date: o.date,
        method,
        amount,
        currency: o.currency,
        status,
        created_at: now,
        updated_at: now,
      });
      doc.id = Number(id);
      receipts.push(doc);
    }
  }
  // refunds on the approved receipts, alternating terms and statuses
  let f = 0;
  for (const rec of receipts.filter((x) => x.status === 'approved')) {
    const status = ['pending', 'approved', 'cancelled'][f % 3];
    const term = terms[f % 2];
    const doc: Doc = {
      no: `REF-MR-${++f}`,
      branch: rec.branch,
      date: rec.date,
      currency: rec.currency,
      status,
      amount: Math.floor(rec.amount / 2),
      term,
    };
    const [id] = await t.db('refunds').insert({
      refund_no: doc.no,
      order_id: rec.order,
      receipt_id: rec.id,
      refund_term_id: term,
      student_id: students[rec.branch],
      branch_id: branchOf(rec.branch),
      date: rec.date,
      amount: doc.amount,
      currency: rec.currency,
      status,
      created_at: now,
      updated_at: now,
    });
    doc.id = Number(id);
    refunds.push(doc);
  }
});

afterAll(async () => {
  await t?.close();
});

describe('the invoices report', () => {
  it('lists the invoices of the range with paid and outstanding, totals one row per currency', async () => {
    const body = await get(admin, `${ORDERS}&per_page=100`);
    const expected = orders.filter(inRange);
    expect(body.total).toBe(expected.length);
    expect(body.items.map((r: Row) => r.order_no).sort()).toEqual(expected.map((d) => d.no).sort());
    const first = body.items.find((r: Row) => r.order_no === 'INV-MR-1');
    expect(first).toMatchObject({
      currency: 'HKD',
      total: 1_234_550,
      paid: 1_000_000,
      outstanding: 234_550,
      branch: 'Alpha',
      url: `/orders/order/${orders[0].id}`,
    });
    const totals = expectedTotals(expected, 'orders', orderSums);
    console.log('invoices report totals (admin):', JSON.stringify(body.totals));
    expect(body.totals).toEqual(totals);
    // never mixed: one row per currency, each the sum of its own currency only
    expect(body.totals.map((r: Row) => r.currency)).toEqual(['HKD', 'KRW']);
    // newest first by default
    expect(body.items.map((r: Row) => r.date)).toEqual(
      [...body.items.map((r: Row) => r.date)].sort().reverse(),
    );
  });

  it('narrows by status, currency and student, and groups by branch, status, month and currency per currency', async () => {
    const krw = await get(admin, `${ORDERS}&currency=KRW&per_page=100`);
    expect(krw.items.every((r: Row) => r.currency === 'KRW')).toBe(true);
    expect(krw.totals).toHaveLength(1);
    const issued = await get(admin, `${ORDERS}&status=issued&per_page=100`);
    expect(issued.items.map((r: Row) => r.order_no).sort()).toEqual(
      orders
        .filter((d) => inRange(d) && d.status === 'issued')
        .map((d) => d.no)
        .sort(),
    );
    const byBranch = await get(admin, `${ORDERS}&group_by=branch`);
    const expected = (['A', 'B'] as const).flatMap((b) =>
      expectedTotals(
        orders.filter((d) => inRange(d) && d.branch === b),
        'orders',
        orderSums,
      ).map((row) => ({ branch: b === 'A' ? 'Alpha' : 'Beta', ...row })),
    );
    const strip = (rows: Row[]) =>
      rows
        .map(({ group_key: _k, ...rest }) => rest)
        .sort((a, b) => `${a.branch}${a.currency}`.localeCompare(`${b.branch}${b.currency}`));
    console.log('invoices by branch and currency:', JSON.stringify(strip(byBranch.items)));
    expect(strip(byBranch.items)).toEqual(expected);
    // the grouped totals are still per currency, and equal the detail totals
    const detail = await get(admin, ORDERS);
    expect(byBranch.totals).toEqual(detail.totals.map((r: Row) => r));
    const byMonth = await get(
      admin,
      `/api/reports/orders/order?date_from=2030-02-01&date_to=2030-04-30&group_by=month`,
    );
    expect(byMonth.items.map((r: Row) => `${r.month} ${r.currency} ${r.orders}`).sort()).toEqual([
      '2030-02 HKD 1',
      '2030-03 HKD 3',
      '2030-03 KRW 2',
      '2030-04 KRW 1',
    ]);
    const byCurrency = await get(admin, `${ORDERS}&group_by=currency`);
    expect(byCurrency.items.map(({ group_key: _k, ...rest }: Row) => rest)).toEqual(
      expectedTotals(orders.filter(inRange), 'orders', orderSums),
    );
  });

  it('shows a branch user its own branch only: another branch is not found', async () => {
    const own = await signIn(t, ['reports.orders'], { branchId: branchB });
    const body = await get(own, `${ORDERS}&per_page=100`);
    const expected = orders.filter((d) => inRange(d) && d.branch === 'B');
    expect(body.items.map((r: Row) => r.order_no).sort()).toEqual(expected.map((d) => d.no).sort());
    expect(body.totals).toEqual(expectedTotals(expected, 'orders', orderSums));
    console.log('invoices report totals (branch B user):', JSON.stringify(body.totals));
    await get(own, `${ORDERS}&branch_id=${branchA}`, 404);
    await get(own, `${ORDERS}&branch_id=${branchB}`);
    await get(await signIn(t, ['reports.students']), ORDERS, 403);
  });

  it('writes XLSX of the screen’s rows: money as numbers in major units beside a currency column', async () => {
    const res = await download(admin, `${ORDERS}&format=xlsx&lang=en&sort=order_no`);
    expect(res.status).toBe(200);
    const [header, ...rows] = await readXlsx(res.body as unknown as Buffer);
    expect(header).toEqual([
      'Invoice no.',
      'Date',
      'Student',
      'Branch',
      'Status',
      'Currency',
      'Amount',
      'Paid',
      'Outstanding',
    ]);
    const screen = await get(admin, `${ORDERS}&sort=order_no&per_page=100`);
    expect(rows).toHaveLength(screen.items.length);
    rows.forEach((row, i) => {
      const item = screen.items[i];
      expect(row[0]).toBe(item.order_no);
      expect(row[5]).toBe(item.currency);
      expect(row.slice(6)).toEqual([item.total / 100, item.paid / 100, item.outstanding / 100]);
      expect(typeof row[6]).toBe('number');
    });
    console.log('invoices XLSX first row:', JSON.stringify(rows[0]));
    const pdf = await download(admin, `${ORDERS}&format=pdf&lang=zh_HK`);
    expect(pdf.status).toBe(200);
  });
});

describe('the receipts report', () => {
  it('lists the receipts of the range, totals per currency, grouped by method and approval status', async () => {
    const body = await get(admin, `${RECEIPTS}&per_page=100`);
    const expected = receipts.filter(inRange);
    expect(body.items.map((r: Row) => r.receipt_no).sort()).toEqual(expected.map((d) => d.no).sort());
    expect(body.totals).toEqual(expectedTotals(expected, 'receipts', { amount: (d) => d.amount }));
    console.log('receipts report totals:', JSON.stringify(body.totals));
    const byMethod = await get(admin, `${RECEIPTS}&group_by=method`);
    const want = ['cash', 'cheque'].flatMap((m) =>
      expectedTotals(
        expected.filter((d) => d.method === m),
        'receipts',
        { amount: (d) => d.amount },
      ).map((row) => `${m} (en) ${row.currency} ${row.receipts} ${row.amount}`),
    );
    expect(
      byMethod.items.map((r: Row) => `${r.method} ${r.currency} ${r.receipts} ${r.amount}`).sort(),
    ).toEqual(want.sort());
    const approved = await get(admin, `${RECEIPTS}&status=approved&per_page=100`);
    expect(approved.items.map((r: Row) => r.receipt_no).sort()).toEqual(
      expected
        .filter((d) => d.status === 'approved')
        .map((d) => d.no)
        .sort(),
    );
    const byStatus = await get(admin, `${RECEIPTS}&group_by=status`);
    expect(byStatus.items.reduce((n: number, r: Row) => n + r.receipts, 0)).toBe(expected.length);
    const own = await signIn(t, ['reports.orders'], { branchId: branchA });
    const mine = await get(own, `${RECEIPTS}&per_page=100`);
    expect(mine.items.map((r: Row) => r.receipt_no).sort()).toEqual(
      expected
        .filter((d) => d.branch === 'A')
        .map((d) => d.no)
        .sort(),
    );
  });
});

describe('the refunds report', () => {
  it('lists the refunds of the range, totals per currency, grouped by terms and status', async () => {
    const body = await get(admin, `${REFUNDS}&per_page=100`);
    const expected = refunds.filter(inRange);
    expect(body.items.map((r: Row) => r.refund_no).sort()).toEqual(expected.map((d) => d.no).sort());
    expect(body.totals).toEqual(expectedTotals(expected, 'refunds', { amount: (d) => d.amount }));
    console.log('refunds report totals:', JSON.stringify(body.totals));
    const byTerms = await get(admin, `${REFUNDS}&group_by=terms`);
    const want = [0, 1].flatMap((i) =>
      expectedTotals(
        expected.filter((d) => d.term === terms[i]),
        'refunds',
        { amount: (d) => d.amount },
      ).map((row) => `Terms ${i + 1} ${row.currency} ${row.refunds} ${row.amount}`),
    );
    expect(byTerms.items.map((r: Row) => `${r.terms} ${r.currency} ${r.refunds} ${r.amount}`).sort()).toEqual(
      want.sort(),
    );
    const pending = await get(admin, `${REFUNDS}&status=pending&per_page=100`);
    expect(pending.items.map((r: Row) => r.refund_no).sort()).toEqual(
      expected
        .filter((d) => d.status === 'pending')
        .map((d) => d.no)
        .sort(),
    );
    const own = await signIn(t, ['reports.orders'], { branchId: branchB });
    const mine = await get(own, `${REFUNDS}&per_page=100`);
    expect(mine.items.map((r: Row) => r.refund_no).sort()).toEqual(
      expected
        .filter((d) => d.branch === 'B')
        .map((d) => d.no)
        .sort(),
    );
  });
});

describe('the invoice lines report', () => {
  const LINES = `/api/reports/orders/order-items?${RANGE}`;
  const inRangeLines = () => lines.filter((l) => inRange(l.order));
  const lineTotals = (ls: Line[]) => {
    const out = new Map<string, Row>();
    for (const l of ls) {
      const row = out.get(l.order.currency) ?? {
        currency: l.order.currency,
        lines: 0,
        quantity: 0,
        amount: 0,
      };
      row.lines += 1;
      row.quantity += l.quantity;
      row.amount += l.amount;
      out.set(l.order.currency, row);
    }
    return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency));
  };

  it('lists the lines of the range’s invoices, totals per currency, by service, school and intake', async () => {
    const body = await get(admin, `${LINES}&per_page=100`);
    expect(body.total).toBe(inRangeLines().length);
    const totals = lineTotals(inRangeLines());
    console.log('invoice lines totals:', JSON.stringify(body.totals));
    expect(body.totals).toEqual(totals);
    // the lines add up to their invoices, per currency
    expect(body.totals.map((r: Row) => r.amount)).toEqual(
      expectedTotals(orders.filter(inRange), 'orders', orderSums).map((r) => r.total),
    );
    const withSchool = body.items.find((r: Row) => r.school === 'Money School');
    expect(withSchool).toMatchObject({ intake: 'Fall 2030', quantity: 2 });
    const bySchool = await get(admin, `${LINES}&school_id=${ids.school}&per_page=100`);
    expect(bySchool.totals).toEqual(lineTotals(inRangeLines().filter((l) => l.school === ids.school)));
    const byIntake = await get(admin, `${LINES}&group_by=intake`);
    expect(byIntake.items.map((r: Row) => `${r.intake} ${r.currency} ${r.lines} ${r.amount}`).sort()).toEqual(
      [
        ...lineTotals(inRangeLines().filter((l) => l.intake !== null)).map(
          (r) => `Fall 2030 ${r.currency} ${r.lines} ${r.amount}`,
        ),
        ...lineTotals(inRangeLines().filter((l) => l.intake === null)).map(
          (r) => `(none) ${r.currency} ${r.lines} ${r.amount}`,
        ),
      ].sort(),
    );
    const byService = await get(admin, `${LINES}&group_by=service&product_id=${ids.p1}`);
    expect(byService.items.map(({ group_key: _k, ...r }: Row) => r)).toEqual(
      lineTotals(inRangeLines().filter((l) => l.product === ids.p1)).map((r) => ({
        service: 'Service MRP1',
        ...r,
      })),
    );
    const own = await signIn(t, ['reports.orders'], { branchId: branchA });
    const mine = await get(own, `${LINES}&per_page=100`);
    expect(mine.totals).toEqual(lineTotals(inRangeLines().filter((l) => l.order.branch === 'A')));
  });

  it('writes every line of the range to a file in the screen’s order, reading a few invoices at a time', async () => {
    const kept = lineBatches.documents;
    // two invoices a batch: the range's five invoices are read in three
    lineBatches.documents = 2;
    try {
      for (const sort of ['-date', 'order_no']) {
        const res = await download(admin, `${LINES}&format=csv&lang=en&sort=${sort}`);
        expect(res.status).toBe(200);
        const [, ...rows] = readCsv(res.body as unknown as Buffer);
        const screen = await get(admin, `${LINES}&sort=${sort}&per_page=100`);
        expect(screen.items).toHaveLength(inRangeLines().length);
        // invoice no., quantity, amount (major units)
        expect(rows.map((r) => [r[0], Number(r[9]), Number(r[10])])).toEqual(
          screen.items.map((item: Row) => [item.order_no, item.quantity, item.amount / 100]),
        );
      }
      // a branch user's file: its own branch's lines only
      const own = await signIn(t, ['reports.orders', 'reports.export'], { branchId: branchB });
      const res = await download(own, `${LINES}&format=csv&lang=en`);
      const [, ...rows] = readCsv(res.body as unknown as Buffer);
      expect(rows.map((r) => r[0]).sort()).toEqual(
        inRangeLines()
          .filter((l) => l.order.branch === 'B')
          .map((l) => l.order.no)
          .sort(),
      );
    } finally {
      lineBatches.documents = kept;
    }
  });
});

describe('the invoice analysis', () => {
  const ANALYSIS = '/api/reports/orders/order-analysis?date_from=2030-01-01&date_to=2030-12-31';
  const key = (month: string, name: string, currency: string, n: number, ls: number, amount: number) =>
    `${month} ${name} ${currency} ${n} ${ls} ${amount}`;
  function expectedBy(name: (l: Line) => string): string[] {
    const groups = new Map<string, Line[]>();
    for (const l of lines.filter((x) => x.order.status !== 'void')) {
      const k = `${l.order.date.slice(0, 7)}|${name(l)}|${l.order.currency}`;
      groups.set(k, [...(groups.get(k) ?? []), l]);
    }
    return [...groups].map(([k, ls]) => {
      const [month, n, currency] = k.split('|');
      return key(
        month,
        n,
        currency,
        new Set(ls.map((l) => l.order.no)).size,
        ls.length,
        ls.reduce((a, l) => a + l.amount, 0),
      );
    });
  }

  it('counts invoices, lines and amounts per month and branch, and per month and category, per currency', async () => {
    const byBranch = await get(admin, `${ANALYSIS}&group_by=branch&per_page=100`);
    const got = byBranch.items.map((r: Row) =>
      key(r.month, r.branch, r.currency, r.orders, r.lines, r.amount),
    );
    console.log('invoice analysis by month and branch:', JSON.stringify(got));
    expect(got.sort()).toEqual(expectedBy((l) => (l.order.branch === 'A' ? 'Alpha' : 'Beta')).sort());
    const byCategory = await get(admin, `${ANALYSIS}&group_by=category&per_page=100`);
    expect(
      byCategory.items
        .map((r: Row) => key(r.month, r.category, r.currency, r.orders, r.lines, r.amount))
        .sort(),
    ).toEqual(
      expectedBy((l) =>
        l.category === ids.catX ? 'Fees X' : l.category === ids.catY ? 'Fees Y' : '(none)',
      ).sort(),
    );
    // totals per currency, never mixed
    expect(byBranch.totals.map((r: Row) => r.currency)).toEqual(['HKD', 'KRW']);
    const own = await signIn(t, ['reports.orders'], { branchId: branchB });
    const mine = await get(own, `${ANALYSIS}&group_by=branch&per_page=100`);
    expect(mine.items.every((r: Row) => r.branch === 'Beta')).toBe(true);
  });
});

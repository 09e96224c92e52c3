/**
 * The server's totals, exactly (issue 27, "Done when"): thousands of random documents — quantities 1–9,999, unit
 * prices up to 10^12 minor units, discount rates 0–10,000 basis points, HKD and KRW — computed by the server's own
 * rules (`documentRules`, what every save of a quotation or an order runs in its transaction) and checked against
 * an independent BigInt computation (quotient and remainder, rounding half up once per line to a cent, or to a
 * whole won for KRW) and against the client preview's function (shared/money.ts `documentTotals`). A second run
 * saves documents through the API and reads them back from the database (BIGINT columns on both databases). Prints
 * "N documents, 0 differences".
 */
import fc from 'fast-check';
import { documentTotals, MONEY_LIMITS } from '../../../shared/money';
import type { RequestContext } from '../../src/http/context';
import { documentRules } from '../../src/modules/sales/sales-documents';
import { businessToday } from '../../src/modules/numbering/business-time';
import { createBranch, createTestApp, onMysql, signedInAdmin, type Client, type TestApp } from '../harness';
import { insertStudent } from './sales-helpers';

type Row = Record<string, any>;
interface Line {
  quantity: number;
  unit_price: number;
  discount_rate: number;
}

let t: TestApp;
let admin: Client;
let studentId: number;
let branchId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchId = await createBranch(t.db);
  studentId = await insertStudent(t, branchId);
});
afterAll(() => t.close());

/** Independent of shared/money.ts: each line's net by quotient and remainder, half up, to the currency's unit. */
function expected(lines: Line[], currency: string): { nets: bigint[]; subtotal: bigint; total: bigint } {
  const unit = currency === 'KRW' ? 100n : 1n; // a whole won is 100 minor units
  const nets = lines.map((l) => {
    const numerator = BigInt(l.quantity) * BigInt(l.unit_price) * BigInt(10_000 - l.discount_rate);
    const divisor = 10_000n * unit;
    const quotient = numerator / divisor;
    const remainder = numerator % divisor;
    return (remainder * 2n >= divisor ? quotient + 1n : quotient) * unit;
  });
  const subtotal = lines.reduce((s, l) => s + BigInt(l.quantity) * BigInt(l.unit_price), 0n);
  return { nets, subtotal, total: nets.reduce((s, n) => s + n, 0n) };
}

const arbLine = fc.record({
  quantity: fc.integer({ min: 1, max: MONEY_LIMITS.maxQuantity }),
  unit_price: fc.oneof(
    fc.integer({ min: 0, max: 1_000 }),
    fc.integer({ min: 0, max: 10_000_000 }),
    fc.integer({ min: 0, max: MONEY_LIMITS.maxUnitPrice }),
  ),
  discount_rate: fc.oneof(fc.constantFrom(0, 1, 5_000, 9_999, 10_000), fc.integer({ min: 0, max: 10_000 })),
});
// documents whose subtotal fits a safe integer (the server refuses the others: `documentAmountsTooLarge`)
const arbDocument = fc.record({
  currency: fc.constantFrom('HKD', 'KRW'),
  lines: fc
    .array(arbLine, { minLength: 1, maxLength: 12 })
    .filter((lines) => expected(lines, 'HKD').subtotal <= BigInt(Number.MAX_SAFE_INTEGER)),
});

/** The differences between what the server answered and both references, as text (none: []). */
function differences(doc: { currency: string; lines: Line[] }, got: Row): string[] {
  const want = expected(doc.lines, doc.currency);
  const preview = documentTotals(doc.lines, doc.currency);
  const out: string[] = [];
  const check = (what: string, value: unknown, big: bigint, shared: number) => {
    if (BigInt(Number(value)) !== big || Number(value) !== shared || !Number.isSafeInteger(Number(value)))
      out.push(`${what}: server ${String(value)}, BigInt ${big}, shared ${shared}`);
  };
  doc.lines.forEach((_l, i) => check(`line ${i}`, got.lines[i].net_amount, want.nets[i], preview.nets[i]));
  check('subtotal', got.subtotal, want.subtotal, preview.subtotal);
  check('total', got.total, want.total, preview.total);
  check('discount_total', got.discount_total, want.subtotal - want.total, preview.discount_total);
  return out;
}

const ctx = { branchScope: null, access: null } as unknown as RequestContext;

it('computes the totals of thousands of random documents exactly (the save’s rules)', async () => {
  let documents = 0;
  const found: string[] = [];
  await fc.assert(
    fc.asyncProperty(arbDocument, async (doc) => {
      const data: Row = { lines: doc.lines.map((l) => ({ ...l, description: 'x' })) };
      const existing = {
        id: 1,
        currency: doc.currency,
        branch_id: branchId,
        student_id: studentId,
        language: 'en',
      };
      await documentRules(t.db as never, data, existing, ctx, { table: 'order_items', column: 'order_id' });
      documents++;
      const diff = differences(doc, data);
      found.push(...diff);
      return diff.length === 0;
    }),
    { numRuns: 5_000 },
  );
  console.log(
    `${documents} documents, ${found.length} differences (the save's rules against BigInt and shared/money)`,
  );
  expect(found).toEqual([]);
  expect(documents).toBeGreaterThanOrEqual(5_000);
});

it('saves random documents and reads back the same figures from the database', async () => {
  let documents = 0;
  const found: string[] = [];
  await fc.assert(
    fc.asyncProperty(arbDocument, fc.constantFrom('/api/quotations', '/api/orders'), async (doc, path) => {
      const res = await admin.post(path, {
        student_id: studentId,
        date: businessToday(),
        currency: doc.currency,
        lines: doc.lines.map((l) => ({ ...l, description: 'x' })),
      });
      if (res.status !== 201) {
        found.push(`${res.status} ${JSON.stringify(res.body)}`);
        return false;
      }
      const read = (await admin.get(`${path}/${res.body.id}`)).body;
      documents++;
      const diff = [...differences(doc, res.body), ...differences(doc, read)];
      found.push(...diff);
      return diff.length === 0;
    }),
    { numRuns: 300 },
  );
  console.log(
    `${documents} documents saved and read back (${onMysql ? 'MariaDB' : 'SQLite'}), ${found.length} differences`,
  );
  expect(found).toEqual([]);
}, 180_000);

import fc from 'fast-check';
import {
  currencyDecimals,
  documentTotals,
  formatMinor,
  formatRateText,
  lineNet,
  MONEY_LIMITS,
  parseMoney,
  parseRate,
  totalsFit,
} from './money';

/** The line arithmetic written another way: quotient and remainder, rounding up when the remainder is half or more. */
function independentNet(q: number, p: number, r: number, currency: string): bigint {
  const unit = currency === 'KRW' ? 100n : 1n;
  const n = BigInt(q) * BigInt(p) * BigInt(10_000 - r);
  const d = 10_000n * unit;
  const quotient = n / d;
  const remainder = n % d;
  return (remainder * 2n >= d ? quotient + 1n : quotient) * unit;
}

const line = fc.record({
  quantity: fc.integer({ min: 1, max: MONEY_LIMITS.maxQuantity }),
  // everyday prices mostly, and now and then one near the limit
  unit_price: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 10_000_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: MONEY_LIMITS.maxUnitPrice }) },
  ),
  discount_rate: fc.integer({ min: 0, max: 10_000 }),
});

describe('line arithmetic (domain.md): exact, half-up once per line', () => {
  it('rounds half up at the line, to a cent, and to a whole won for KRW', () => {
    // 3 × 333 × 50 % = 499.5 cents → 500
    expect(lineNet({ quantity: 3, unit_price: 333, discount_rate: 5000 }, 'HKD')).toBe(500);
    // 1 × 10,001 won (1,000,100 minor) × 12.5 % off = 8,750.875 won → 8,751 won
    expect(lineNet({ quantity: 1, unit_price: 1_000_100, discount_rate: 1250 }, 'KRW')).toBe(875_100);
    expect(lineNet({ quantity: 2, unit_price: 12_345, discount_rate: 0 }, 'HKD')).toBe(24_690);
    expect(lineNet({ quantity: 5, unit_price: 999, discount_rate: 10_000 }, 'HKD')).toBe(0);
  });

  it('agrees with an independent BigInt computation on 10,000 random documents (HKD and KRW)', () => {
    let documents = 0;
    let differences = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('HKD', 'KRW'),
        (lines, currency) => {
          documents++;
          // KRW prices are whole won
          const priced = lines.map((l) =>
            currency === 'KRW' ? { ...l, unit_price: l.unit_price - (l.unit_price % 100) } : l,
          );
          // a document whose figures would pass a safe integer is refused before any arithmetic (the server's rule)
          if (!totalsFit(priced)) {
            refused++;
            return true;
          }
          const totals = documentTotals(priced, currency);
          let subtotal = 0n;
          let total = 0n;
          priced.forEach((l, i) => {
            const net = independentNet(l.quantity, l.unit_price, l.discount_rate, currency);
            subtotal += BigInt(l.quantity) * BigInt(l.unit_price);
            total += net;
            if (BigInt(totals.nets[i]) !== net) differences++;
            if (BigInt(lineNet(l, currency)) !== net) differences++;
          });
          if (BigInt(totals.subtotal) !== subtotal || BigInt(totals.total) !== total) differences++;
          if (BigInt(totals.discount_total) !== subtotal - total) differences++;
          return differences === 0;
        },
      ),
      { numRuns: 10_000 },
    );
    console.log(
      `money: ${documents} random documents, ${documents - refused} within the safe-integer limit checked, ` +
        `${differences} differences from the independent computation`,
    );
    expect(differences).toBe(0);
  });
});

describe('typed and shown amounts, without floats', () => {
  it('reads typed text into minor units in the currency’s decimals', () => {
    expect(parseMoney('1,234.5', 'HKD')).toBe(123_450);
    expect(parseMoney('0.07', 'HKD')).toBe(7);
    expect(parseMoney('1500000', 'KRW')).toBe(150_000_000);
    expect(parseMoney('1,500,000', 'KRW')).toBe(150_000_000);
    expect(parseMoney('1.5', 'KRW')).toBeNull();
    expect(parseMoney('1.234', 'HKD')).toBeNull();
    expect(parseMoney('-5', 'HKD')).toBeNull();
    expect(parseMoney('-5', 'HKD', { allowNegative: true })).toBe(-500);
    expect(parseMoney('12,34', 'HKD')).toBeNull();
    expect(parseMoney('1e3', 'HKD')).toBeNull();
    expect(parseMoney('99999999999999999999', 'HKD')).toBeNull();
  });

  it('writes minor units as people read them, and reads back what it writes', () => {
    expect(formatMinor(123_450, 'HKD')).toBe('1,234.50');
    expect(formatMinor(150_000_000, 'KRW')).toBe('1,500,000');
    expect(formatMinor(-7, 'HKD')).toBe('-0.07');
    expect(formatMinor(123_456_789, 'HKD', { plain: true })).toBe('1234567.89');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('HKD', 'KRW'),
        (n, c) => {
          const minor = c === 'KRW' ? n - (n % 100) : n;
          return (
            parseMoney(formatMinor(minor, c), c) === minor &&
            parseMoney(formatMinor(minor, c, { plain: true }), c) === minor
          );
        },
      ),
      { numRuns: 2_000 },
    );
    expect(currencyDecimals('krw')).toBe(0);
  });

  it('reads and writes rates as percentages of basis points', () => {
    expect(parseRate('12.5')).toBe(1250);
    expect(parseRate('12.34%')).toBe(1234);
    expect(parseRate('100')).toBe(10_000);
    expect(parseRate('100.01')).toBeNull();
    expect(parseRate('1.234')).toBeNull();
    expect(formatRateText(1250)).toBe('12.5');
    expect(formatRateText(500)).toBe('5');
    expect(formatRateText(1234)).toBe('12.34');
  });
});

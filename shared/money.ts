/**
 * Money, exactly (domain.md "Money"): every amount is an integer number of minor units (×100 for every currency,
 * KRW too, whatever decimals it shows), every rate an integer of basis points (1250 = 12.50 %). Nothing here holds
 * an amount in a float or a decimal string: arithmetic is BigInt, typed text is read digit by digit, and shown text
 * is written digit by digit. The server's totals and the client's preview are this one module.
 */

/** Every currency is stored ×100. */
export const MINOR_PER_MAJOR = 100;

/** Limits that keep every figure of a document within a safe integer (and a BIGINT column). */
export const MONEY_LIMITS = {
  /** a unit price, in minor units (HKD 10,000,000,000.00) */
  maxUnitPrice: 1_000_000_000_000,
  /** a line's quantity (whole units) */
  maxQuantity: 9_999,
  /** a document's lines */
  maxLines: 500,
  /** the largest figure (a line's gross, a document's subtotal): Number.MAX_SAFE_INTEGER */
  maxAmount: Number.MAX_SAFE_INTEGER,
} as const;

export const MAX_RATE = 10_000;

/**
 * The decimals a currency shows (ISO 4217): 2 for HKD and most, 0 for KRW and JPY, at most 2 (amounts are stored
 * ×100, so a currency with 3 decimals shows 2).
 */
const NO_DECIMALS = new Set(['KRW', 'JPY', 'VND', 'IDR', 'TWD', 'CLP', 'ISK', 'UGX', 'PYG', 'XAF', 'XOF']);
export function currencyDecimals(currency: string | null | undefined): 0 | 2 {
  return NO_DECIMALS.has(String(currency ?? '').toUpperCase()) ? 0 : 2;
}

export interface LineInput {
  quantity: number;
  /** minor units */
  unit_price: number;
  /** basis points, 0–10000 */
  discount_rate: number;
}

export interface Totals {
  subtotal: number;
  discount_total: number;
  total: number;
}

/** `round_half_up(n / d)` for n ≥ 0, d > 0. */
function divideHalfUp(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (d * 2n);
}

/** The smallest amount a currency shows, in minor units: 1 (a cent) for HKD, 100 (a whole won) for KRW. */
export function smallestUnit(currency: string | null | undefined): 1 | 100 {
  return currencyDecimals(currency) === 2 ? 1 : 100;
}

/** gross × (10000 − rate) / 10000, rounded half up to the currency's smallest unit, once. */
function net(gross: bigint, rate: number, unit: bigint): bigint {
  return divideHalfUp(gross * BigInt(MAX_RATE - rate), BigInt(MAX_RATE) * unit) * unit;
}

/**
 * A line's net amount: `round_half_up(quantity × unit_price × (10000 − discount_rate) / 10000)`, rounded once, at
 * the line (domain.md "Line arithmetic"), to what the currency shows (a cent; a whole won for KRW), so that the
 * figures printed add up.
 */
export function lineNet(line: LineInput, currency: string | null | undefined): number {
  const gross = BigInt(line.quantity) * BigInt(line.unit_price);
  return Number(net(gross, line.discount_rate, BigInt(smallestUnit(currency))));
}

/** A line's amount before discount: quantity × unit price. */
export function lineGross(line: LineInput): number {
  return Number(BigInt(line.quantity) * BigInt(line.unit_price));
}

/** A document's figures: subtotal = Σ quantity × unit price; total = Σ net; discount_total = subtotal − total. */
export function documentTotals(
  lines: readonly LineInput[],
  currency: string | null | undefined,
): Totals & { nets: number[] } {
  const unit = BigInt(smallestUnit(currency));
  let subtotal = 0n;
  let total = 0n;
  const nets: number[] = [];
  for (const line of lines) {
    const gross = BigInt(line.quantity) * BigInt(line.unit_price);
    const lineNetAmount = net(gross, line.discount_rate, unit);
    subtotal += gross;
    total += lineNetAmount;
    nets.push(Number(lineNetAmount));
  }
  return {
    subtotal: Number(subtotal),
    discount_total: Number(subtotal - total),
    total: Number(total),
    nets,
  };
}

/** Whether a document's figures stay within safe integers (checked before anything is saved). */
export function totalsFit(lines: readonly LineInput[]): boolean {
  let subtotal = 0n;
  for (const line of lines) subtotal += BigInt(line.quantity) * BigInt(line.unit_price);
  return subtotal <= BigInt(MONEY_LIMITS.maxAmount);
}

/**
 * Typed text → integer minor units, or null when it is not an amount of this currency: digits with optional
 * thousands separators (`,`), and at most the currency's decimals after a `.` (none for KRW). A leading `-` is
 * read when `allowNegative`.
 */
export function parseMoney(
  text: string,
  currency: string | null | undefined,
  { allowNegative = false }: { allowNegative?: boolean } = {},
): number | null {
  const match = /^\s*(-)?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return null;
  const [, minus, whole, fraction = ''] = match;
  if (minus && !allowNegative) return null;
  if (fraction.length > currencyDecimals(currency)) return null;
  const minor = BigInt(whole.replace(/,/g, '')) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  if (minor > BigInt(MONEY_LIMITS.maxAmount)) return null;
  return Number(minus ? -minor : minor);
}

/** Groups the digits of a whole number in threes: `1234567` → `1,234,567`. */
function group(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/**
 * Integer minor units → the amount as people read it, in the currency's decimals: `123450` HKD → `1,234.50`,
 * `150000000` KRW → `1,500,000`. With `plain`, no separators (for an input box or a CSV cell).
 */
export function formatMinor(
  minor: number | bigint,
  currency: string | null | undefined,
  { plain = false }: { plain?: boolean } = {},
): string {
  const value = BigInt(minor);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = (abs / 100n).toString();
  const cents = (abs % 100n).toString().padStart(2, '0');
  const decimals = currencyDecimals(currency);
  // a KRW amount always holds whole won (×100); shown without decimals
  const shownWhole = plain ? whole : group(whole, ',');
  return `${negative ? '-' : ''}${shownWhole}${decimals ? `.${cents}` : ''}`;
}

/** The amount with its currency code before it: `HKD 1,234.50`, `KRW 1,500,000`. */
export function formatMoneyText(minor: number | bigint, currency: string | null | undefined): string {
  const amount = formatMinor(minor, currency);
  return currency ? `${String(currency).toUpperCase()} ${amount}` : amount;
}

/** A rate typed as a percentage with at most two decimals → basis points (`12.5` → 1250), or null. */
export function parseRate(text: string): number | null {
  const match = /^\s*(\d{1,3})(?:\.(\d{0,2}))?\s*%?\s*$/.exec(text);
  if (!match) return null;
  const bp = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0') || '0');
  return bp <= MAX_RATE ? bp : null;
}

/** Basis points → a percentage with its decimals as needed: 1250 → `12.5`, 1234 → `12.34`, 500 → `5`. */
export function formatRateText(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = String(basisPoints % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

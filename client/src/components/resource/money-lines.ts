import {
  documentTotals,
  MAX_RATE,
  MONEY_LIMITS,
  parseMoney,
  parseRate,
  type LineInput,
  type Totals,
} from '../../../../shared/money';

/**
 * The arithmetic of the screens' money, on the shared functions the server uses (shared/money.ts): what is typed
 * read into integers (minor units, basis points), a document's lines previewed as the server will compute them,
 * and a list page's totals per currency. No float ever holds an amount: sums are BigInt, typed text is read digit
 * by digit.
 */

/** What a money or rate box holds: nothing typed, an integer, or text that is not one (kept, shown in error). */
export type TypedNumber = { kind: 'empty' } | { kind: 'value'; value: number } | { kind: 'invalid' };

/** Typed text → integer minor units of the currency (`1,234.5` HKD → 123450; `1500000` KRW → 150000000). */
export function readMoneyText(text: string, currency: string | null | undefined): TypedNumber {
  if (!text.trim()) return { kind: 'empty' };
  const value = parseMoney(text, currency);
  return value === null ? { kind: 'invalid' } : { kind: 'value', value };
}

/** A percentage typed with at most two decimals → basis points (`12.5` → 1250, `100` → 10000). */
export function readRateText(text: string): TypedNumber {
  if (!text.trim()) return { kind: 'empty' };
  const value = parseRate(text);
  return value === null ? { kind: 'invalid' } : { kind: 'value', value };
}

/** A line as the form holds it while it is typed: any of its numbers may be missing or not yet valid. */
export interface DraftLine {
  quantity?: unknown;
  unit_price?: unknown;
  discount_rate?: unknown;
}

function wholeIn(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
    ? value
    : null;
}

/** A draft line's figures when they are complete and within the limits the server keeps, else null. */
export function completeLine(line: DraftLine | null | undefined): LineInput | null {
  const quantity = wholeIn(line?.quantity, 1, MONEY_LIMITS.maxQuantity);
  const unitPrice = wholeIn(line?.unit_price, 0, MONEY_LIMITS.maxUnitPrice);
  // a rate left empty is no discount
  const rate =
    line?.discount_rate === null || line?.discount_rate === undefined
      ? 0
      : wholeIn(line.discount_rate, 0, MAX_RATE);
  if (quantity === null || unitPrice === null || rate === null) return null;
  return { quantity, unit_price: unitPrice, discount_rate: rate };
}

/** The preview of a document being typed: each line's net (null until the line is complete) and the totals. */
export interface LinesPreview extends Totals {
  nets: (number | null)[];
  /** every line is complete: the totals are what the server will answer */
  complete: boolean;
}

/**
 * The document's figures as the server computes them (`documentTotals`, the same function), over the lines that
 * are complete; an incomplete line shows no net and adds nothing yet.
 */
export function previewLines(
  lines: readonly (DraftLine | null | undefined)[] | null | undefined,
  currency: string | null | undefined,
): LinesPreview {
  const rows = (lines ?? []).map(completeLine);
  const complete = rows.filter((row): row is LineInput => row !== null);
  const totals = documentTotals(complete, currency);
  let next = 0;
  const nets = rows.map((row) => (row === null ? null : totals.nets[next++]));
  return {
    subtotal: totals.subtotal,
    discount_total: totals.discount_total,
    total: totals.total,
    nets,
    complete: complete.length === rows.length,
  };
}

/** One currency's totals of a page of rows: each totalled field's sum in minor units, and the rows counted. */
export interface CurrencyTotals {
  currency: string;
  sums: Record<string, number>;
  rows: number;
}

/**
 * The totals of a list page's rows per currency, never summed across currencies: for each currency met (in the
 * order met), the sum of each of `fields` over its rows, in BigInt (a row without an amount adds nothing).
 */
export function pageTotalsByCurrency(
  rows: readonly Record<string, unknown>[],
  fields: readonly string[],
  currencyField = 'currency',
): CurrencyTotals[] {
  const byCurrency = new Map<string, { sums: bigint[]; rows: number }>();
  for (const row of rows) {
    const currency = String(row[currencyField] ?? '').toUpperCase();
    let entry = byCurrency.get(currency);
    if (!entry) {
      entry = { sums: fields.map(() => 0n), rows: 0 };
      byCurrency.set(currency, entry);
    }
    entry.rows += 1;
    fields.forEach((field, i) => {
      const value = row[field];
      if (typeof value === 'number' && Number.isSafeInteger(value)) entry.sums[i] += BigInt(value);
      else if (typeof value === 'string' && /^-?\d+$/.test(value)) entry.sums[i] += BigInt(value);
    });
  }
  return [...byCurrency.entries()].map(([currency, { sums, rows: count }]) => ({
    currency,
    rows: count,
    sums: Object.fromEntries(fields.map((field, i) => [field, Number(sums[i])])),
  }));
}

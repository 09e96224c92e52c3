import { documentTotals, formatMoneyText, totalsFit, type LineInput } from '../../../../shared/money';
import { msg } from '../../../../shared/messages';
import { LINE_SOURCES } from '../../../../shared/resources/sales';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import type { Row } from '../../resources/resource';
import { numberOrNull } from '../../resources/rows';
import { addDays } from '../calendar/calendar.sources';
import { businessToday } from '../numbering/business-time';
import { SOURCE_TABLES, salesRepository } from './sales.repository';

/** The value a write leaves in a column: the body's when it gives one, else the stored one. */
export function merged(data: Row, existing: Row | null, column: string): unknown {
  return column in data ? data[column] : existing?.[column];
}

/** The lines' own fields a copy carries (a conversion, a recomputation): no id, no owner column. */
export const LINE_COPY_FIELDS = [
  'product_id',
  'quotation_item_id',
  'special_event_id',
  'description',
  'quantity',
  'unit',
  'unit_price',
  'discount_rate',
] as const;

/**
 * The rules both sales documents share, inside the save's transaction (before the machinery writes the record and
 * its lines):
 * - the student is one the caller sees (404 otherwise, as a record outside its branch); the branch is the
 *   student's unless given; the document's language the student's unless given;
 * - each line names at most one of a service, a quotation item or an event (`lineOneSource`), and what it names is
 *   priced in the document's currency (`lineCurrencyMismatch`, on the line's field);
 * - each line's `net_amount` and the document's `subtotal`, `discount_total` and `total` are computed with
 *   shared/money.ts (`documentTotals`: rounding half up once per line), the function the client's preview calls.
 *   A change of currency without the lines recomputes the stored ones (KRW rounds to whole won).
 */
export async function documentRules(
  db: Trx,
  data: Row,
  existing: Row | null,
  ctx: RequestContext,
  lines: { table: string; column: string },
): Promise<void> {
  const studentId = numberOrNull(merged(data, existing, 'student_id'));
  if ('student_id' in data && studentId !== null) {
    const student = await salesRepository.student(db, studentId);
    if (!student) throw AppError.field('validation', 'student_id', 'recordMissing');
    const scope = ctx.branchScope;
    if (scope && Number(student.branch_id) !== scope.branchId) throw new AppError('not_found');
    if (!existing && (data.branch_id === undefined || data.branch_id === null))
      data.branch_id = numberOrNull(student.branch_id) ?? ctx.access?.branchId ?? null;
    if (!existing && !data.language) data.language = student.language ?? 'zh_HK';
  }
  if (!existing && (data.branch_id === undefined || data.branch_id === null))
    throw AppError.field('validation', 'branch_id', 'required');
  if (existing && 'language' in data && !data.language) data.language = existing.language;
  if (!existing && !data.language) data.language = 'zh_HK';

  const currency = String(merged(data, existing, 'currency') ?? '');
  const currencyChanged = existing !== null && 'currency' in data && data.currency !== existing.currency;
  if (!('lines' in data) && currencyChanged) {
    // the stored lines, recomputed (and checked) in the new currency
    const stored = await salesRepository.lines(db, lines.table, lines.column, Number(existing!.id));
    data.lines = stored.map((line) => ({
      id: Number(line.id),
      ...Object.fromEntries(LINE_COPY_FIELDS.map((f) => [f, line[f]])),
    }));
  }
  if (!Array.isArray(data.lines)) {
    if (!existing) {
      data.subtotal = 0;
      data.discount_total = 0;
      data.total = 0;
    }
    return;
  }
  const items = data.lines as Row[];
  await checkSources(db, items, currency);
  const inputs: LineInput[] = items.map((line) => ({
    quantity: Number(line.quantity),
    unit_price: Number(line.unit_price),
    discount_rate: Number(line.discount_rate ?? 0),
  }));
  if (!totalsFit(inputs)) throw AppError.field('validation', 'lines', 'documentAmountsTooLarge');
  const totals = documentTotals(inputs, currency);
  items.forEach((line, i) => {
    line.discount_rate = inputs[i].discount_rate;
    line.net_amount = totals.nets[i];
  });
  data.subtotal = totals.subtotal;
  data.discount_total = totals.discount_total;
  data.total = totals.total;
}

/** At most one source per line, and each priced in the document's currency (an event without a fee is in none). */
async function checkSources(db: Trx, items: Row[], currency: string): Promise<void> {
  const wanted = new Map<string, number[]>();
  items.forEach((line, i) => {
    const named = LINE_SOURCES.filter((s) => line[s] !== null && line[s] !== undefined);
    if (named.length > 1) throw AppError.field('validation', `lines.${i}.${named[1]}`, 'lineOneSource');
    if (named.length) {
      const list = wanted.get(named[0]) ?? [];
      list.push(Number(line[named[0]]));
      wanted.set(named[0], list);
    }
  });
  for (const [source, ids] of wanted) {
    const currencies = await salesRepository.sourceCurrencies(
      db,
      SOURCE_TABLES[source as keyof typeof SOURCE_TABLES],
      ids,
    );
    items.forEach((line, i) => {
      if (line[source] === null || line[source] === undefined) return;
      const id = Number(line[source]);
      if (!currencies.has(id)) throw AppError.field('validation', `lines.${i}.${source}`, 'recordMissing');
      const own = currencies.get(id);
      if (own && own !== currency)
        throw AppError.field(
          'validation',
          `lines.${i}.${source}`,
          msg('lineCurrencyMismatch', { currency: own, expected: currency }),
        );
    });
  }
}

/** An amount as people read it, with its currency (messages, PDFs, mails). */
export function moneyText(minor: unknown, currency: unknown): string {
  return formatMoneyText(Number(minor ?? 0), String(currency ?? ''));
}

/** The days a new invoice is given to be paid (its form's due date, and a converted quotation's invoice). */
export const ORDER_DUE_DAYS = 14;

/**
 * What a new document's form starts from (`GET /api/{quotations|orders}/create`): today's Hong Kong date, the
 * default order terms, and the validity (30 days) or due date (14 days) the agency usually gives.
 */
export async function documentFormDefaults(db: Trx, dateField: 'valid_until' | 'due_date', days: number) {
  const today = businessToday();
  const terms = await salesRepository.defaultOrderTerms(db);
  return {
    defaults: {
      date: today,
      [dateField]: addDays(today, days),
      currency: 'HKD',
      order_term_id: terms ? Number(terms.id) : null,
    },
  };
}

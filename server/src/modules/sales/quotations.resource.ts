import type { Knex } from 'knex';
import { msg } from '../../../../shared/messages';
import type { FieldDeclaration } from '../../../../shared/resources/declaration';
import { EXPIRING_QUOTATION_STATUSES, quotations } from '../../../../shared/resources/sales';
import { AppError } from '../../lib/app-error';
import type { Row } from '../../resources/resource';
import { declaredRules, numberOrNull } from '../../resources/rows';
import { businessToday } from '../numbering/business-time';
import { documentFormDefaults, documentRules } from './sales-documents';
import { salesRepository } from './sales.repository';

/** The fields a converted quotation still takes: its contract tab's, and its remark. */
const CONTRACT_FIELDS = new Set(
  Object.entries(quotations.fields as Record<string, FieldDeclaration>)
    .filter(([, f]) => f.tab === 'contract')
    .map(([name]) => name)
    .concat(['remark']),
);

/** `YYYY-MM-DD` of a DATE column's value (text on SQLite, text or a Date on MariaDB). */
export function dateText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

/** Whether a quotation is expired today (Hong Kong date): draft or sent, and its `valid_until` is past. */
export function isExpired(row: Row, today = businessToday()): boolean {
  const until = dateText(row.valid_until);
  return (
    until !== null &&
    until < today &&
    (EXPIRING_QUOTATION_STATUSES as readonly string[]).includes(String(row.status))
  );
}

/** The terms' text in a language (the contract's default terms). */
export function termsText(terms: Row | undefined, language: unknown): string | null {
  if (!terms) return null;
  return String((language === 'en' ? terms.content_en : terms.content_zh) ?? '') || null;
}

/**
 * The rules of quotations beyond their declaration (shared/resources/sales.ts): numbered per branch and year; the
 * lines and totals (`documentRules`); `expired` shown, never stored, while draft or sent past `valid_until` (Hong
 * Kong dates) — the list's `?status=expired` finds them, `draft` and `sent` leave them out, and an expired one
 * cannot be accepted; the contract's terms copied from the chosen order terms (in the document's language) while
 * the contract has none; a converted quotation changes only its contract and remark. Conversion is its own route
 * (sales.module.ts).
 */
export const quotationRules = declaredRules(quotations, {
  numbering: { column: 'quotation_no', document: 'quotation', branchColumn: 'branch_id' },
  ownActions: { convert: { from: ['accepted'], permission: 'orders.create' } },
  createForm: (db) => documentFormDefaults(db, 'valid_until', 30),
  async beforeWrite(db, data, existing, ctx) {
    if (existing?.status === 'converted' && Object.keys(data).some((k) => !CONTRACT_FIELDS.has(k)))
      throw new AppError('conflict', 'quotationConvertedLocked');
    await documentRules(db, data, existing, ctx, { table: 'quotation_lines', column: 'quotation_id' });
    const termId = numberOrNull(data.order_term_id);
    if (termId !== null && !('contract_terms' in data) && !existing?.contract_terms) {
      const terms = await salesRepository.orderTerms(db, termId);
      data.contract_terms = termsText(terms, data.language ?? existing?.language);
    }
  },
  toResponse(row) {
    return isExpired(row) ? { ...row, status: 'expired' } : row;
  },
  stateFilter(qb: Knex.QueryBuilder, state: string) {
    const today = businessToday();
    if (state === 'expired') {
      qb.whereIn('quotations.status', EXPIRING_QUOTATION_STATUSES).where(
        'quotations.valid_until',
        '<',
        today,
      );
      return;
    }
    qb.where('quotations.status', state);
    if ((EXPIRING_QUOTATION_STATUSES as readonly string[]).includes(state))
      qb.where((w) => w.whereNull('quotations.valid_until').orWhere('quotations.valid_until', '>=', today));
  },
  guards: {
    async accept(_db, row) {
      if (isExpired(row))
        throw new AppError('conflict', msg('quotationExpired', { date: dateText(row.valid_until) ?? '' }));
    },
  },
  tabData: {
    // the contract tab: the chosen order terms (the text its terms start from), in the document's language
    async contract(db, row) {
      const id = numberOrNull(row.order_term_id);
      const terms = id === null ? undefined : await salesRepository.orderTerms(db, id);
      return {
        order_terms: terms
          ? {
              id: Number(terms.id),
              title: row.language === 'en' ? terms.title_en : terms.title_zh,
              content: termsText(terms, row.language),
            }
          : null,
      };
    },
  },
});

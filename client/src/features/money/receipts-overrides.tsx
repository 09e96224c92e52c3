import { receipts } from '../../../../shared/resources/money';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';
import { invoiceFirstFields, invoiceFromQuery, moneyListOverrides } from './money-common';

/**
 * What the receipts' screens (spec `/orders/receipt`) show beyond their declaration: the status as a tag, the
 * amount in its currency's decimals and the page's total per currency; a new receipt's branch first, then the
 * invoice of that branch (the spec's "a branch and an invoice number must be chosen first"), its amount typed in
 * the invoice's currency; opened from an invoice, that invoice already chosen. Approve, unapprove, cancel and
 * print are the declaration's moves and print, which the machinery derives (asked first, refusals in words).
 */
const invoiceFirst = invoiceFirstFields('receipt');
const overrides: DeclarationOverrides = {
  ...moneyListOverrides(receipts),
  ...invoiceFirst,
  form: { initialValues: invoiceFromQuery },
};

export default overrides;

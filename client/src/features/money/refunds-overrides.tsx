import { refunds } from '../../../../shared/resources/money';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';
import { invoiceFirstFields, invoiceFromQuery, moneyListOverrides } from './money-common';

/**
 * What the refunds' screens (spec `/orders/refund`, `/orders/refund/create`, `/orders/refund/{id}`) show beyond
 * their declaration: as the receipts' (status tag, amounts in their currency, the page's total per currency, the
 * branch then the invoice, what the invoice can still refund said under it); the refund terms are the settings'
 * terms (the declared lookup). Approve, cancel and print are the declaration's.
 */
const overrides: DeclarationOverrides = {
  ...moneyListOverrides(refunds),
  ...invoiceFirstFields('refund'),
  form: { initialValues: invoiceFromQuery },
};

export default overrides;

import { lazy, Suspense } from 'react';
import { orders } from '../../../../shared/resources/sales';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';
import { StateTag } from '../../components/resource/renderers';
import { EmailButton } from './sales-actions';
import { moneyCell, salesOverrides } from './sales-common';

// the invoice's receipts and refunds, loaded with its tab
const InvoiceMoney = lazy(() => import('../money/invoice-money'));

/**
 * What the invoices' screens show beyond their declaration: the lines editor with its live totals, the status as
 * a tag, money in its currency's decimals, the list's totals per currency of the page's rows (total, paid,
 * outstanding), and E-mail beside the moves (void asks for a reason naming the number, unvoid asks first) and
 * Print, which the machinery derives; a tab of its receipts and refunds (paid, refunded, outstanding, New receipt).
 */
const isVoid = (record: Record<string, unknown>) => record.status === 'void';
const common = salesOverrides(orders, ['total', 'paid_amount', 'outstanding']);
const overrides: DeclarationOverrides = {
  ...common,
  fields: {
    ...(common.fields as Record<string, object>),
    status: {
      input: {
        type: 'custom',
        render: ({ record }) => (
          <span data-testid="order-status">
            <StateTag resource="order" values={orders.states!.values} value={record?.status} />
          </span>
        ),
      },
    },
    // who voided it, when and why: on a void invoice only
    voided_at: { shownFor: isVoid },
    voided_by: { shownFor: isVoid },
    void_reason: { shownFor: isVoid },
    outstanding: {
      input: {
        type: 'custom',
        render: ({ record }) => (record ? moneyCell('outstanding')(record as never) : null),
      },
    },
  },
  recordActions: (record, ctx) => <EmailButton record={record} ctx={ctx} />,
  tabs: [
    {
      key: 'money',
      labelKey: 'money.receiptsTab',
      render: (order) => (
        <Suspense fallback={null}>
          <InvoiceMoney order={order} />
        </Suspense>
      ),
    },
  ],
};

export default overrides;

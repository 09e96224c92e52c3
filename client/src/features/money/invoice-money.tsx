import { useMemo } from 'react';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinor } from '../../../../shared/money';
import { receipts, refunds } from '../../../../shared/resources/money';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { configFromDeclaration } from '../../components/resource/from-declaration';
import { EmbeddedResourceTable } from '../../components/resource/resource-record-page';
import type { ResourceRow } from '../../components/resource/types';
import { moneyListOverrides, newOfInvoicePath } from './money-common';

/**
 * One invoice's receipts or refunds: what every row shares (branch, invoice, student) left out, no filters nor
 * exports (the list screens have them); its New opens the form with the invoice chosen.
 */
function listOfInvoice(decl: ResourceDeclaration, route: string, order: ResourceRow) {
  const base = moneyListOverrides(decl);
  return configFromDeclaration(decl, {
    ...base,
    columns: {
      ...(base.columns as Record<string, object>),
      branch_id: false,
      order_id: false,
      student_id: false,
    },
    filters: [],
    exportable: false,
    createPath: newOfInvoicePath(route, order),
  });
}

/**
 * An invoice's money (its page's tab): total, paid, refunded and outstanding in its currency as the server
 * answers them, its receipts and its refunds (the lists' `?order_id=` filter, their moves beside each row), each
 * list's New opening the form with the invoice already chosen.
 */
export function InvoiceMoney({ order }: { order: ResourceRow }) {
  const { t } = useTranslation();
  const receiptList = useMemo(() => listOfInvoice(receipts, '/orders/receipt', order), [order]);
  const refundList = useMemo(() => listOfInvoice(refunds, '/orders/refund', order), [order]);
  const currency = String(order.currency ?? '');
  const amount = (field: string) => (
    <span data-money={field}>
      {currency} {formatMinor(Number(order[field] ?? 0), currency)}
    </span>
  );
  const fixed = { order_id: String(order.id) };
  return (
    <div data-testid="invoice-money">
      <Descriptions
        size="small"
        bordered
        column={4}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'total', label: t('money.total'), children: amount('total') },
          { key: 'paid', label: t('money.paid'), children: amount('paid_amount') },
          { key: 'refunded', label: t('money.refunded'), children: amount('refunded_amount') },
          { key: 'outstanding', label: t('money.outstanding'), children: amount('outstanding') },
        ]}
      />
      <Typography.Title level={5}>{t('resources.receipt.title')}</Typography.Title>
      <div data-testid="invoice-receipts">
        <EmbeddedResourceTable config={receiptList} fixedParams={fixed} />
      </div>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('resources.refund.title')}
      </Typography.Title>
      <div data-testid="invoice-refunds">
        <EmbeddedResourceTable config={refundList} fixedParams={fixed} />
      </div>
    </div>
  );
}

export default InvoiceMoney;

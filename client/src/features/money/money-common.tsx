import { useEffect } from 'react';
import { Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { formatMinor } from '../../../../shared/money';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { LookupSelect, type ControlProps } from '../../components/resource/from-declaration';
import { StateTag } from '../../components/resource/renderers';
import { useLazyResourceReadQuery } from '../../components/resource/resource-api';
import type { CustomFieldProps, ResourceField, ResourceRow } from '../../components/resource/types';
import { moneyCell } from '../sales/sales-common';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';

/** The form's own (never sent) branch a new receipt or refund is looked for in: the spec's "branch first". */
export const BRANCH_PICK = 'branch_pick';

/**
 * What a new receipt or refund starts from when opened from an invoice (`…/create?order_id=5&branch_id=1
 * &currency=HKD&order_no=INV-…&branch_name=…`): that invoice already chosen, its branch and currency.
 */
export function invoiceFromQuery(query: Record<string, string>): Record<string, unknown> {
  const order = Number(query.order_id);
  const branch = Number(query.branch_id);
  if (!Number.isInteger(order) || order <= 0 || !Number.isInteger(branch) || branch <= 0) return {};
  return {
    [BRANCH_PICK]: branch,
    order_id: order,
    ...(query.currency ? { currency: query.currency } : {}),
  };
}

/** The address of a new receipt (or refund) of an invoice, prefilled with it. */
export function newOfInvoicePath(route: string, order: ResourceRow): string {
  const params = new URLSearchParams({
    order_id: String(order.id),
    branch_id: String(order.branch_id ?? ''),
    currency: String(order.currency ?? ''),
    order_no: String(order.order_no ?? ''),
    branch_name: String(order.branch_name ?? ''),
  });
  return `${route}/create?${params.toString()}`;
}

/** The branch of a new receipt or refund: chosen first; the invoice's choices are that branch's. */
function BranchPick(props: CustomFieldProps) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const c = props as unknown as ControlProps<number>;
  return (
    <LookupSelect
      resource="branch"
      allowClear={false}
      placeholder={t('money.branchFirst')}
      initialLabel={search.get('branch_name')}
      {...c}
    />
  );
}

/**
 * The invoice of a new receipt or refund: disabled until a branch is chosen, its choices that branch's invoices;
 * once chosen, its currency is the amount's (the money input reads the form's `currency`) and what it still takes
 * is said under it. A recorded one's invoice is its number, linking to the invoice.
 */
function InvoicePick(props: CustomFieldProps & { kind: 'receipt' | 'refund' }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const [search] = useSearchParams();
  const branch = Form.useWatch(BRANCH_PICK, form) as number | null | undefined;
  const c = props as unknown as ControlProps<number>;
  const [read, { currentData }] = useLazyResourceReadQuery();
  const value = c.value ?? null;
  useEffect(() => {
    if (value) void read({ url: `/api/orders/${value}` });
  }, [value, read]);
  const order = value && currentData ? (currentData as ResourceRow) : null;
  useEffect(() => {
    if (order && order.id === value) form.setFieldValue('currency', order.currency ?? null);
  }, [order, value, form]);
  const given = branch !== null && branch !== undefined;
  const room =
    order && order.id === value
      ? props.kind === 'receipt'
        ? (order.outstanding as number | undefined)
        : ((((order.paid_amount as number) ?? 0) - ((order.refunded_amount as number) ?? 0)) as number)
      : undefined;
  const recorded = props.record?.id !== undefined && props.record?.id !== null;
  return (
    <div>
      {recorded ? (
        // a recorded receipt's or refund's invoice never changes: its number, linking to it
        <Link to={`/orders/order/${String(value)}`} data-testid="record-invoice">
          {String(props.record?.order_name ?? value)}
        </Link>
      ) : (
        <LookupSelect
          resource="order"
          params={given ? { branch_id: String(branch) } : undefined}
          disabled={c.disabled || !given}
          initialLabel={search.get('order_no')}
          allowClear={false}
          placeholder={given ? undefined : t('money.branchFirst')}
          {...c}
        />
      )}
      {order && order.id === value && typeof room === 'number' && (
        <Typography.Text
          type="secondary"
          data-testid="invoice-room"
          style={{ display: 'block', marginTop: 4 }}
        >
          {t(props.kind === 'receipt' ? 'money.invoiceOutstanding' : 'money.invoiceRefundable', {
            amount: `${String(order.currency)} ${formatMinor(room, String(order.currency))}`,
            status: t(`resources.order.states.${String(order.status)}`),
          })}
        </Typography.Text>
      )}
    </div>
  );
}

/**
 * The new-record form of a receipt or refund: the branch first (never sent), then the invoice of that branch, its
 * currency held by the form for the amount's decimals; on a record, the invoice, branch and currency as the
 * server copied them.
 */
export function invoiceFirstFields(
  kind: 'receipt' | 'refund',
): Pick<DeclarationOverrides, 'fields' | 'extraFields'> {
  return {
    fields: {
      order_id: {
        narrowedBy: BRANCH_PICK,
        input: { type: 'custom', render: (p) => <InvoicePick {...p} kind={kind} /> },
      },
    },
    extraFields: [
      {
        name: BRANCH_PICK,
        labelKey: `resources.${kind}.fields.branch_id`,
        only: 'create',
        readOnly: true,
        input: { type: 'custom', render: (p) => <BranchPick {...p} /> },
        before: 'order_id',
      },
      {
        name: 'currency',
        labelKey: `resources.${kind}.fields.currency`,
        only: 'create',
        readOnly: true,
        hidden: true,
        input: { type: 'text' },
      } satisfies ResourceField,
    ],
  };
}

/** A list of receipts or refunds: status as a tag, the amount in its currency, the page's total per currency. */
export function moneyListOverrides(
  decl: ResourceDeclaration,
): Pick<DeclarationOverrides, 'columns' | 'pageTotals'> {
  return {
    columns: {
      status: {
        render: (row) => <StateTag resource={decl.name} values={decl.states!.values} value={row.status} />,
      },
      amount: { render: moneyCell('amount') },
    },
    pageTotals: { fields: ['amount'] },
  };
}

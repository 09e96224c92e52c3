import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinor } from '../../../../shared/money';
import { pageTotalsByCurrency } from './money-lines';

/**
 * The total rows under a list's table (`pageTotals` of its config): one row per currency of the page's rows, each
 * totalled column's sum in that currency's decimals (BigInt sums: `pageTotalsByCurrency`), the first column naming
 * the row ("Page total HKD"). Amounts of two currencies are never added together.
 */
export function PageTotalsSummary({
  rows,
  columns,
  fields,
  currencyField = 'currency',
}: {
  rows: readonly Record<string, unknown>[];
  /** the table's column keys, in order (an actions column included) */
  columns: readonly string[];
  fields: readonly string[];
  currencyField?: string;
}) {
  const { t } = useTranslation();
  if (!rows.length) return null;
  const totals = pageTotalsByCurrency(rows, fields, currencyField);
  return (
    <Table.Summary>
      {totals.map((total) => (
        <Table.Summary.Row key={total.currency} data-testid="page-total" data-currency={total.currency}>
          {columns.map((key, index) => (
            <Table.Summary.Cell key={key} index={index} align={fields.includes(key) ? 'right' : undefined}>
              {fields.includes(key) ? (
                <Typography.Text strong data-total={key}>
                  {formatMinor(total.sums[key], total.currency)}
                </Typography.Text>
              ) : index === 0 ? (
                <Typography.Text strong>
                  {t('resource.pageTotal', { currency: total.currency, rows: total.rows })}
                </Typography.Text>
              ) : null}
            </Table.Summary.Cell>
          ))}
        </Table.Summary.Row>
      ))}
    </Table.Summary>
  );
}

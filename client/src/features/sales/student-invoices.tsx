import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinor } from '../../../../shared/money';
import type { ResourceRow } from '../../components/resource/types';

interface CurrencyOutstanding {
  currency: string;
  total: number;
  paid: number;
  outstanding: number;
  count: number;
}

/**
 * Over a student's invoices (tab `order`, spec `/students/invoice/:id`): what is outstanding per currency over all
 * their invoices not void (the tab's answer, `outstanding_by_currency`), one currency per row, never summed across.
 */
export function StudentOutstanding({ student }: { student: ResourceRow }) {
  const { t } = useTranslation();
  const rows = (student.outstanding_by_currency ?? []) as CurrencyOutstanding[];
  if (!Array.isArray(rows) || !rows.length)
    return (
      <Typography.Paragraph type="secondary" data-testid="student-outstanding">
        {t('sales.noInvoices')}
      </Typography.Paragraph>
    );
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      title={t('sales.outstandingByCurrency')}
      data-testid="student-outstanding"
      style={{ marginBottom: 16, maxWidth: 640 }}
      items={rows.map((row) => ({
        key: row.currency,
        label: row.currency,
        children: (
          <span data-currency={row.currency}>
            <Typography.Text strong>
              {row.currency} {formatMinor(row.outstanding, row.currency)}
            </Typography.Text>{' '}
            <Typography.Text type="secondary">
              {t('sales.invoiceCount', {
                n: row.count,
                total: formatMinor(row.total, row.currency),
                paid: formatMinor(row.paid, row.currency),
              })}
            </Typography.Text>
          </span>
        ),
      }))}
    />
  );
}

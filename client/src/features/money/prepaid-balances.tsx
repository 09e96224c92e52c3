import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinor } from '../../../../shared/money';
import type { ResourceRow } from '../../components/resource/types';

interface Balance {
  currency: string;
  balance: number;
}

/**
 * A student's prepaid balance per currency (the prepaid tab's answer, `prepaid_balances`): deposits less what
 * receipts drew and prepaid money refunded, one currency per row, never summed across currencies.
 */
export function PrepaidBalances({ student }: { student: ResourceRow }) {
  const { t } = useTranslation();
  const rows = (Array.isArray(student.prepaid_balances) ? student.prepaid_balances : []) as Balance[];
  if (!rows.length)
    return (
      <Typography.Paragraph type="secondary" data-testid="prepaid-balances">
        {t('money.noBalance')}
      </Typography.Paragraph>
    );
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      title={t('money.balances')}
      data-testid="prepaid-balances"
      style={{ marginBottom: 16, maxWidth: 480 }}
      items={rows.map((row) => ({
        key: row.currency,
        label: row.currency,
        children: (
          <Typography.Text strong data-currency={row.currency}>
            {row.currency} {formatMinor(row.balance, row.currency)}
          </Typography.Text>
        ),
      }))}
    />
  );
}

export default PrepaidBalances;

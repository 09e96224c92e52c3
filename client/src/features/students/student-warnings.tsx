import { Alert, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../components/resource/renderers';
import type { ResourceRow } from '../../components/resource/types';

const DOCUMENTS = [
  { warning: 'passport_warning', date: 'passport_expiry', key: 'passport' },
  { warning: 'visa_warning', date: 'visa_expiry', key: 'visa' },
] as const;

/**
 * A student's passport and visa warnings, over the record (the server reckons them against today's Hong Kong
 * date): expired in red, expiring within six months in orange, with the date.
 */
export function ExpiryWarnings({ student }: { student: ResourceRow }) {
  const { t } = useTranslation();
  const shown = DOCUMENTS.filter(({ warning }) => ['expired', 'expiring'].includes(String(student[warning])));
  if (!shown.length) return null;
  return (
    <Space orientation="vertical" style={{ display: 'flex', marginBottom: 16, maxWidth: 900 }}>
      {shown.map(({ warning, date, key }) => {
        const expired = student[warning] === 'expired';
        return (
          <Alert
            key={warning}
            type={expired ? 'error' : 'warning'}
            showIcon
            data-testid={`${warning}-${String(student[warning])}`}
            title={t(`students.warnings.${key}${expired ? 'Expired' : 'Expiring'}`, {
              date: formatDate(student[date] as string | null),
            })}
            description={t('students.warnings.renew')}
          />
        );
      })}
    </Space>
  );
}

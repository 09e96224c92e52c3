import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StorageUsage } from '../../../../shared/files';
import { usageFigures, useStorageUsageQuery } from './files-api';

/** The bar's colour: the warning colour from 90 % (`almost_full`); full and suspended are an error. */
function progressLook(usage: StorageUsage): { status: 'normal' | 'exception'; strokeColor?: string } {
  if (usage.status === 'full' || usage.status === 'suspended') return { status: 'exception' };
  if (usage.status === 'almost_full') return { status: 'normal', strokeColor: '#faad14' };
  return { status: 'normal' };
}

/**
 * Storage used against the quota, above the media manager's table: the figures, a bar with the percentage,
 * and from 90 % (or when full or suspended) the same words as the back office's storage banner.
 */
export function StorageUsageBar() {
  const { t } = useTranslation();
  const { data, isError } = useStorageUsageQuery();
  if (isError)
    return (
      <Typography.Paragraph type="secondary" data-testid="storage-usage">
        {t('files.storage.usageUnavailable')}
      </Typography.Paragraph>
    );
  if (!data) return null;
  const figures = usageFigures(data);
  const used = t('files.storage.used', figures);
  return (
    <div data-testid="storage-usage" data-status={data.status} style={{ maxWidth: 560, marginBottom: 16 }}>
      <Typography.Text>{used}</Typography.Text>
      <Progress
        percent={Math.min(100, data.percent)}
        format={() => t('files.storage.percent', figures)}
        aria-label={used}
        {...progressLook(data)}
      />
      {data.status !== 'ok' && (
        <Typography.Text
          type={data.status === 'almost_full' ? 'warning' : 'danger'}
          data-testid="storage-usage-status"
        >
          {t(`files.storage.banner.${data.status}`, figures)}
        </Typography.Text>
      )}
    </div>
  );
}

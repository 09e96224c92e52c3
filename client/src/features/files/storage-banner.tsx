import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import { usageFigures, useStorageUsageQuery } from './files-api';

/**
 * The storage warning of the back office (spec §8: "Storage warnings appear when storage is almost full, full
 * or suspended"), for users who may see files (files.view, admins): a warning from 90 % of the quota, an error
 * when it is full or an admin has suspended uploads, with the figures. Nothing while storage is fine.
 */
export function StorageBanner() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  const allowed = can(user, 'files.view');
  const { data } = useStorageUsageQuery(undefined, { skip: !allowed });
  if (!allowed || !data || data.status === 'ok') return null;
  return (
    <Alert
      banner
      showIcon
      type={data.status === 'almost_full' ? 'warning' : 'error'}
      title={t(`files.storage.banner.${data.status}`, usageFigures(data))}
      data-testid="storage-banner"
      data-status={data.status}
    />
  );
}

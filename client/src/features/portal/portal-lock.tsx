import { lazy, Suspense, useState } from 'react';
import { CheckCircleOutlined, LockOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { formatDateTime } from '../../components/resource/renderers';
import { submittedAt } from './portal-api';

/** The submission's summary and confirmation: loaded when the student asks for it. */
const SubmitDialog = lazy(() => import('./submit-dialog'));

/** Whether the student's information is submitted (every portal form read-only), and when. */
export function usePortalLock(): { locked: boolean; at: string | null } {
  const student = useAppSelector((s) => s.app.student);
  const at = submittedAt(student);
  return { locked: at !== null, at };
}

/**
 * The portal's standing under the top bar, on every page: once submitted, the date (Hong Kong time) and that the
 * forms are read-only until the consultant reopens them; before, the "Confirm my information" action.
 */
export function PortalLockBar() {
  const { t } = useTranslation();
  const { locked, at } = usePortalLock();
  const [open, setOpen] = useState(false);
  if (locked)
    return (
      <Alert
        type="info"
        showIcon
        icon={<LockOutlined />}
        data-testid="portal-locked-banner"
        title={t('portal.lock.banner', { date: formatDateTime(at) })}
        description={t('portal.lock.bannerHelp')}
        style={{ marginBottom: 12 }}
      />
    );
  return (
    <>
      <Alert
        type="warning"
        showIcon
        data-testid="portal-submit-bar"
        title={t('portal.submit.notYet')}
        action={
          <Button type="primary" icon={<CheckCircleOutlined />} onClick={() => setOpen(true)}>
            {t('portal.submit.open')}
          </Button>
        }
        style={{ marginBottom: 12, flexWrap: 'wrap', rowGap: 8 }}
      />
      {open && (
        <Suspense fallback={null}>
          <SubmitDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

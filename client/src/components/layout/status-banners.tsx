import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';

/** The offline banner (after a failed heartbeat), the flash banner and the notification title. */
export function StatusBanners() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const offline = useAppSelector((s) => s.shell.heartbeatChecked && !s.app.isOnline);
  const flash = useAppSelector((s) => s.app.flash);
  const notification = useAppSelector((s) => s.app.notification);
  return (
    <>
      {offline && <Alert banner type="warning" title={t('layout.offline')} data-testid="offline-banner" />}
      {flash.banner && (
        <Alert
          banner
          type={flash.bannerStyle === 'danger' ? 'error' : 'success'}
          title={flash.banner}
          closable={{
            onClose: () => dispatch(appActions.setFlash({ banner: null })),
            'aria-label': t('common.close'),
          }}
          data-testid="flash-banner"
        />
      )}
      {notification.title && (
        <Alert
          showIcon
          type={notification.type ?? 'info'}
          title={notification.title}
          style={{ margin: '16px 16px 0' }}
          closable={{
            onClose: () => dispatch(appActions.setNotification({ title: null })),
            'aria-label': t('common.close'),
          }}
        />
      )}
    </>
  );
}

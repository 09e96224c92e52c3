import { useTranslation } from 'react-i18next';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Alert } from './alert';

/**
 * The offline banner (after a failed heartbeat), the flash banner and the notification title: one component for
 * every frame (sign-in, back-office, portal), without antd so the sign-in pages can show it too.
 */
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
          onClose={() => dispatch(appActions.setFlash({ banner: null }))}
          closeLabel={t('common.close')}
          data-testid="flash-banner"
        />
      )}
      {notification.title && (
        <Alert
          type={notification.type ?? 'info'}
          title={notification.title}
          style={{ margin: '16px 16px 0' }}
          onClose={() => dispatch(appActions.setNotification({ title: null }))}
          closeLabel={t('common.close')}
        />
      )}
    </>
  );
}

import { useCallback, useEffect } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { useBlocker, type BlockerFunction } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { useAppSelector } from '../../app/hooks';
import { isSystemNavigation } from '../../app/navigation';
import type { AppStore } from '../../app/store';

/**
 * Spec §2: when unsaved changes exist, leaving the screen asks to confirm; confirming clears the flag and
 * the navigation goes on, cancelling stays. Closing or reloading the tab gets the browser's own prompt.
 * Navigations the app makes by itself (session ended, error screens) are not asked about.
 */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  const store = useStore() as AppStore;
  const unsaved = useAppSelector((s) => s.app.unsavedChanges);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      store.getState().app.unsavedChanges &&
      currentLocation.pathname !== nextLocation.pathname &&
      !isSystemNavigation(nextLocation.state),
    [store],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('unsaved.title')}
      okText={t('unsaved.leave')}
      cancelText={t('unsaved.stay')}
      okButtonProps={{ danger: true }}
      destroyOnHidden
      onOk={() => {
        store.dispatch(appActions.setUnsavedChanges(false));
        blocker.proceed?.();
      }}
      onCancel={() => blocker.reset?.()}
    >
      {t('unsaved.text')}
    </Modal>
  );
}

import { useCallback, useEffect, useRef } from 'react';
import { App } from 'antd';
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
 */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
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
  const blockerRef = useRef(blocker);
  useEffect(() => {
    blockerRef.current = blocker;
  });

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const dialog = modal.confirm({
      title: t('unsaved.title'),
      content: t('unsaved.text'),
      okText: t('unsaved.leave'),
      cancelText: t('unsaved.stay'),
      onOk: () => {
        store.dispatch(appActions.setUnsavedChanges(false));
        blockerRef.current.proceed?.();
      },
      onCancel: () => blockerRef.current.reset?.(),
    });
    return () => dialog.destroy();
  }, [blocker.state, modal, store, t]);

  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  return null;
}

import { useCallback, useEffect, useRef } from 'react';
import { appActions } from '../../app/app-slice';
import { useAppDispatch } from '../../app/hooks';

/** The forms of the screen with changes not saved: the app's flag is up while any is. */
const dirtyForms = new Set<object>();

/**
 * Joins a form to the unsaved-changes guard (components/layout/unsaved-changes-guard.tsx) like the generic forms:
 * a change raises the flag, `saved` (or `discarded`) lowers it for this form, leaving the screen forgets it. Several
 * forms on one screen each count: saving one leaves the flag up while another has changes.
 */
export function useUnsavedForm(): { onValuesChange: () => void; saved: () => void } {
  const dispatch = useAppDispatch();
  const self = useRef<object>({});
  const sync = useCallback(() => {
    dispatch(appActions.setUnsavedChanges(dirtyForms.size > 0));
  }, [dispatch]);
  const onValuesChange = useCallback(() => {
    if (dirtyForms.has(self.current)) return;
    dirtyForms.add(self.current);
    sync();
  }, [sync]);
  const saved = useCallback(() => {
    if (!dirtyForms.delete(self.current)) return;
    sync();
  }, [sync]);
  useEffect(() => saved, [saved]);
  return { onValuesChange, saved };
}

import { shellActions } from '../../app/shell-slice';
import type { AppStore } from '../../app/store';

/** Only same-site paths: never an absolute or protocol-relative URL, never /reload itself. */
export function safeReturnPath(to: string | null): string {
  return to && to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/reload') ? to : '/';
}

/**
 * /reload?to=/path ("Reload view" in the header): opens `to` again from scratch. Its loader reads its data
 * again, and once that navigation is over the new `viewKey` remounts the screen (app/navigation.ts). /reload
 * renders nothing of its own: a screen there, remounted by the `viewKey` it bumped, would bump it again and
 * again (React error #185).
 */
export function reloadView({ url, store }: { url: URL; store: AppStore }): string {
  store.dispatch(shellActions.viewReloadPending(true));
  return safeReturnPath(url.searchParams.get('to'));
}

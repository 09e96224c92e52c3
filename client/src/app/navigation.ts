import type { createBrowserRouter } from 'react-router-dom';
import { setLocale } from '../i18n/i18n';
import { localeFromSearch } from '../i18n/locale';
import { appActions } from './app-slice';
import type { AppStore } from './store';

type Router = ReturnType<typeof createBrowserRouter>;

let activeRouter: Router | null = null;

/**
 * Location state of navigations the app makes by itself (error handling, sign-out): the unsaved-changes
 * guard does not ask about those.
 */
export const SYSTEM_NAVIGATION = { system: true } as const;

export function isSystemNavigation(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as { system?: unknown }).system === true;
}

/**
 * Navigate from outside React (the HTTP client's error handling, the heartbeat). Before the router exists
 * (during start-up) the URL is changed directly and the router starts there.
 */
export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (activeRouter) {
    void activeRouter.navigate(to, { replace: options.replace ?? false, state: SYSTEM_NAVIGATION });
    return;
  }
  if (typeof window === 'undefined') return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
}

export function setActiveRouter(router: Router | null): void {
  activeRouter = router;
}

/**
 * What happens after every navigation (spec §2): when the path changed the selected tab returns to the
 * first and the notification title clears; `loaded` follows whether route data is being fetched; a
 * `language` parameter sets the stored locale.
 */
export function watchNavigation(router: Pick<Router, 'state' | 'subscribe'>, store: AppStore): () => void {
  let lastPath = router.state.location.pathname;
  let lastSearch = router.state.location.search;
  return router.subscribe((state) => {
    const loaded = state.navigation.state === 'idle';
    if (store.getState().app.loaded !== loaded) store.dispatch(appActions.setLoaded(loaded));
    const { pathname, search } = state.location;
    if (pathname !== lastPath) {
      lastPath = pathname;
      store.dispatch(appActions.pathChanged());
    }
    if (search !== lastSearch) {
      lastSearch = search;
      const locale = localeFromSearch(search);
      if (locale) setLocale(locale);
    }
  });
}

import type { createBrowserRouter } from 'react-router-dom';
import { localeFromSearch } from '../i18n/locale';
import { appActions } from './app-slice';
import { languageAsked } from './language-asked';
import { shellActions } from './shell-slice';
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
export function navigateTo(to: string, options: { replace?: boolean; retry?: string } = {}): void {
  const state = options.retry ? { ...SYSTEM_NAVIGATION, retry: options.retry } : SYSTEM_NAVIGATION;
  if (activeRouter) {
    void activeRouter.navigate(to, { replace: options.replace ?? false, state });
    return;
  }
  if (typeof window === 'undefined') return;
  if (options.replace) window.history.replaceState(state, '', to);
  else window.history.pushState(state, '', to);
}

/**
 * The screen a failed load was opening (the navigation under way) or, when none, the one on show (the address
 * bar's, before the router exists): what an error screen's "Try again" opens again.
 */
export function failedLocation(): string | null {
  const at = activeRouter
    ? (activeRouter.state.navigation.location ?? activeRouter.state.location)
    : typeof window !== 'undefined'
      ? {
          pathname: window.location.pathname,
          search: window.location.search,
          state: window.history.state as unknown,
        }
      : null;
  if (!at) return null;
  // failing again on an error screen (its "Try again" failed too): still the screen it was for
  if (at.pathname.startsWith('/error-')) return retryPath(at.state);
  return at.pathname + at.search;
}

/** Where an error screen's "Try again" goes: the location state the HTTP client's navigation left, if any. */
export function retryPath(state: unknown): string | null {
  const retry = state && typeof state === 'object' ? (state as { retry?: unknown }).retry : undefined;
  return typeof retry === 'string' && retry.startsWith('/') && !retry.startsWith('//') ? retry : null;
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
    // "Reload view" (/reload): the screen is remounted once its fresh data is in, never while /reload is under way
    if (loaded && store.getState().shell.viewReloadPending) {
      store.dispatch(shellActions.viewReloadPending(false));
      store.dispatch(appActions.bumpViewKey());
    }
    const { pathname, search } = state.location;
    if (pathname !== lastPath) {
      lastPath = pathname;
      store.dispatch(appActions.pathChanged());
    }
    if (search !== lastSearch) {
      lastSearch = search;
      const locale = localeFromSearch(search);
      if (locale) languageAsked(store, locale);
    }
  });
}

/** The query parameter of a sign-in address naming the page that was asked for (`/login?from=/students/basic/7`). */
export const RETURN_PARAM = 'from';

/** Pages never returned to after signing in: the sign-in pages themselves, sign-out and the error screens. */
function returnable(path: string): boolean {
  return (
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !/^\/(login|logout|two-factor-challenge|error-)/.test(path) &&
    path !== '/'
  );
}

/** A sign-in address (`/login`, `/login?timeout=1`) that returns to `path` once signed in again (issue 31). */
export function withReturn(to: string, path: string | null | undefined): string {
  if (!path || !returnable(path)) return to;
  const [pathname, search = ''] = to.split('?');
  const params = new URLSearchParams(search);
  params.set(RETURN_PARAM, path);
  return `${pathname}?${params.toString()}`;
}

/** Where signing in goes: the page asked for (the sign-in address's `from`, a path of this app), else `fallback`. */
export function returnPath(search: string | URLSearchParams, fallback = '/'): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const asked = params.get(RETURN_PARAM);
  return asked && returnable(asked) ? asked : fallback;
}

/** The page on show (or being opened): the address a sign-in should return to. */
export function currentPath(): string | null {
  const at = activeRouter
    ? (activeRouter.state.navigation.location ?? activeRouter.state.location)
    : typeof window !== 'undefined'
      ? window.location
      : null;
  return at ? at.pathname + at.search : null;
}

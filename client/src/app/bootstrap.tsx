import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { configureHttp } from '../http/client';
import { i18nReady, initI18n, setLocale } from '../i18n/i18n';
import { getStoredLocale, localeFromSearch } from '../i18n/locale';
import { authApi, unwrapStudent } from '../features/auth/auth-api';
import { LoadingScreen } from '../components/loading-screen';
import { appActions } from './app-slice';
import { languageAsked } from './language-asked';
import { startHeartbeat } from './heartbeat';
import {
  currentPath,
  failedLocation,
  navigateTo,
  setActiveRouter,
  watchNavigation,
  withReturn,
} from './navigation';
import { AppProviders } from './providers';
import { buildRoutes } from './routes/build-routes';
import type { LazyPage, RouteTable } from './routes/types';
import { shellActions } from './shell-slice';
import { makeStore, type AppStore } from './store';
import type { AppKind } from './types';

type Router = ReturnType<typeof createBrowserRouter>;

/** Route every §8 failure the HTTP client reports to a navigation (and forget the principal on 401). */
export function connectHttp(store: AppStore): void {
  configureHttp({
    onErrorAction(action) {
      if (action.signOut) store.dispatch(appActions.signedOut());
      // the portal refused for a password staff set: the student changes it before anything else
      const student = store.getState().app.student;
      if (action.to === '/password/change' && student && student.must_change_password !== true)
        store.dispatch(appActions.setStudent({ ...student, must_change_password: true }));
      // an error screen's "Try again" opens the screen whose load failed again
      const retry = action.to.startsWith('/error-') ? (failedLocation() ?? undefined) : undefined;
      // a session that ended: signing in again returns to the page that was asked for
      const to = action.signOut ? withReturn(action.to, currentPath()) : action.to;
      navigateTo(to, { replace: action.replace, retry });
    },
  });
}

/**
 * The initial load: a refresh of the held user/student from the server, then the app configuration.
 * The refresh goes first and alone: the server reports an expired session (401 with the timeout flag)
 * only to the first request that meets it, so a public call made before it would hide the expiry.
 */
export async function initialLoad(store: AppStore, kind: AppKind): Promise<void> {
  await refreshPrincipal(store, kind).catch(() => undefined);
  await store
    .dispatch(authApi.endpoints.appConfig.initiate())
    .unwrap()
    .then((body) => {
      store.dispatch(
        appActions.configReceived({ maxUploadSize: body.max_upload_mb ?? 5, features: body.features ?? {} }),
      );
      store.dispatch(shellActions.registrationEnabled(body.registration_enabled === true));
    })
    .catch(() => undefined);
}

async function refreshPrincipal(store: AppStore, kind: AppKind): Promise<void> {
  const { app } = store.getState();
  if (kind === 'portal') {
    if (!app.student) return;
    const body = await store
      .dispatch(
        authApi.endpoints.currentStudent.initiate(undefined, { subscribe: false, forceRefetch: true }),
      )
      .unwrap();
    store.dispatch(appActions.setStudent(unwrapStudent(body)));
    return;
  }
  if (!app.user) return;
  const body = await store
    .dispatch(authApi.endpoints.currentUser.initiate(undefined, { subscribe: false, forceRefetch: true }))
    .unwrap();
  store.dispatch(appActions.setUser(body.user));
  // The server may send the feature flags with the session, too.
  const features = (body as { features?: Record<string, boolean> }).features;
  if (features) {
    store.dispatch(
      appActions.configReceived({ maxUploadSize: store.getState().app.maxUploadSize, features }),
    );
  }
}

/** Shows the app shell's Loading text until the initial load is finished and the router exists. */
export function Root({ ready }: { ready: Promise<Router> }) {
  const [router, setRouter] = useState<Router | null>(null);
  useEffect(() => {
    let live = true;
    void ready.then((r) => live && setRouter(r));
    return () => {
      live = false;
    };
  }, [ready]);
  return router ? <RouterProvider router={router} /> : <LoadingScreen />;
}

/** Start one of the two front ends: store, languages, HTTP behaviour, initial load, heartbeat, router. */
export function startApp(
  kind: AppKind,
  table: RouteTable,
  layouts: { app: LazyPage; public: LazyPage },
): void {
  const requested = localeFromSearch(window.location.search);
  initI18n(requested ?? getStoredLocale());
  if (requested) setLocale(requested);

  const store = makeStore(kind);
  connectHttp(store);

  const ready = (async () => {
    await initialLoad(store, kind);
    // the address's language is the last explicit choice: saved to the account, or kept for the next sign-in
    if (requested) languageAsked(store, requested);
    startHeartbeat(store, kind);
    const router = createBrowserRouter(buildRoutes(table, { kind, store, layouts }));
    setActiveRouter(router);
    watchNavigation(router, store);
    return router;
  })();

  // the language's catalogue (a chunk of its own) is there before anything is drawn
  void i18nReady().then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <AppProviders store={store}>
          <Root ready={ready} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}

import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { configureHttp } from '../http/client';
import { initI18n, setLocale } from '../i18n/i18n';
import { getStoredLocale, localeFromSearch } from '../i18n/locale';
import { authApi, unwrapStudent } from '../features/auth/auth-api';
import { LoadingScreen } from '../components/loading-screen';
import { appActions } from './app-slice';
import { startHeartbeat } from './heartbeat';
import { navigateTo, setActiveRouter, watchNavigation } from './navigation';
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
      navigateTo(action.to, { replace: action.replace });
    },
  });
}

/** The initial load: app configuration, and a refresh of the held user/student from the server. */
export async function initialLoad(store: AppStore, kind: AppKind): Promise<void> {
  const config = store
    .dispatch(authApi.endpoints.appConfig.initiate())
    .unwrap()
    .then((body) => {
      store.dispatch(
        appActions.configReceived({ maxUploadSize: body.max_upload_mb ?? 5, features: body.features ?? {} }),
      );
      store.dispatch(shellActions.registrationEnabled(body.registration_enabled === true));
    });
  const { app } = store.getState();
  const refresh =
    kind === 'portal'
      ? app.student
        ? store
            .dispatch(
              authApi.endpoints.currentStudent.initiate(undefined, { subscribe: false, forceRefetch: true }),
            )
            .unwrap()
            .then((body) => store.dispatch(appActions.setStudent(unwrapStudent(body))))
        : null
      : app.user
        ? store
            .dispatch(
              authApi.endpoints.currentUser.initiate(undefined, { subscribe: false, forceRefetch: true }),
            )
            .unwrap()
            .then((body) => store.dispatch(appActions.setUser(body.user)))
        : null;
  await Promise.allSettled([config, refresh]);
}

function Root({ ready }: { ready: Promise<Router> }) {
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
    startHeartbeat(store, kind);
    const router = createBrowserRouter(buildRoutes(table, { kind, store, layouts }));
    setActiveRouter(router);
    watchNavigation(router, store);
    store.dispatch(shellActions.booted());
    return router;
  })();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders store={store}>
        <Root ready={ready} />
      </AppProviders>
    </StrictMode>,
  );
}

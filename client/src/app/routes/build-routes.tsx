import { data, redirect, replace, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { api, isApiError } from '../api';
import type { AppStore } from '../store';
import type { AppKind } from '../types';
import { dataQuery, hasMalformedId, mergeRouteData, resolveDataUrl, type RouteData } from './route-data';
import type { LazyPage, RouteEntry, RouteGuard, RouteTable } from './types';
import { RouteErrorPage } from '../../components/errors/route-error-page';
import { LoadingScreen } from '../../components/loading-screen';

export interface BuildRoutesOptions {
  kind: AppKind;
  store: AppStore;
  layouts: { app: LazyPage; public: LazyPage };
  /** the table's own check of a signed-in route (see RouteTable.guard) */
  guard?: RouteGuard;
}

function lazyComponent(page: LazyPage) {
  return async () => ({ Component: (await page()).default });
}

/** Whether someone is signed in: a user on the back-office, a student on the portal. */
export function hasPrincipal(store: AppStore, kind: AppKind): boolean {
  const { app } = store.getState();
  return kind === 'portal' ? app.student !== null : app.user !== null;
}

/** Guard, permission check and data call of one route, before it opens (spec §2 "Navigation behaviour"). */
export function makeLoader(
  entry: RouteEntry,
  { kind, store, guard }: Pick<BuildRoutesOptions, 'kind' | 'store' | 'guard'>,
) {
  return async ({ request, params }: LoaderFunctionArgs): Promise<RouteData | Response> => {
    const signedIn = hasPrincipal(store, kind);
    if (entry.access === 'signed-in' && !signedIn) throw redirect('/login');
    if (entry.access === 'signed-in' && guard) {
      const { user, student } = store.getState().app;
      const elsewhere = guard(entry, { user, student });
      if (elsewhere) throw redirect(elsewhere);
    }
    if (entry.access === 'guest' && signedIn) throw redirect('/');
    if (entry.permission && !can(store.getState().app.user, entry.permission)) {
      throw redirect(entry.deniedRedirect ?? '/error-403');
    }
    if (entry.feature && !store.getState().app.features[entry.feature]) throw redirect('/error-404');
    // an address no record can answer is the not-found screen, in the shell, without asking the server
    if (hasMalformedId(params)) throw data(null, { status: 404 });
    const url = new URL(request.url);
    // a computed redirect stands in for its own address (/reload?to=…): no history entry of its own
    if (typeof entry.redirectTo === 'function') throw replace(entry.redirectTo({ url, store }));
    if (entry.redirectTo) throw redirect(entry.redirectTo);

    const base: RouteData = { params, query: Object.fromEntries(url.searchParams) };
    if (!entry.data) return base;
    const call = store.dispatch(
      api.endpoints.routeData.initiate(
        { url: resolveDataUrl(entry.data, params), params: dataQuery(entry.data, params, url.searchParams) },
        { subscribe: false, forceRefetch: true },
      ),
    );
    request.signal.addEventListener('abort', () => call.abort());
    const response = await call.unwrap().catch((error: unknown) => {
      throw routeLoadFailure(error);
    });
    return mergeRouteData(base, response);
  };
}

/**
 * What a route shows when its data call fails and the HTTP client left it to the screen. The URL is the call's
 * only input (its path's ids, its query), so an answer refusing it (422, 400: `/settings/users/abc`) means the
 * address names nothing there is: the not-found screen, inside the shell (the route's error element). Anything
 * else goes on as it came.
 */
export function routeLoadFailure(error: unknown): unknown {
  if (isApiError(error) && !error.handled && (error.status === 422 || error.status === 400))
    return data(null, { status: 404 });
  return error;
}

/** The error screens inside a layout: antd's, loaded with the layouts, never on the first load. */
async function screenErrorBoundary() {
  return { ErrorBoundary: (await import('../../components/errors/error-screen')).ScreenErrorPage };
}

function toRouteObject(entry: RouteEntry, options: BuildRoutesOptions): RouteObject {
  return {
    path: entry.path,
    loader: makeLoader(entry, options),
    ...(entry.page ? { lazy: lazyComponent(entry.page) } : {}),
    handle: { entry },
  };
}

/**
 * Turn the route table into react-router routes: public and guest screens under the public layout,
 * everything else (including the catch-all not-found screen) under the app layout; a screen that cannot open
 * shows its error screen inside its layout.
 */
export function buildRoutes(table: RouteTable, given: BuildRoutesOptions): RouteObject[] {
  const options = table.guard ? { ...given, guard: table.guard } : given;
  const publicRoutes = table.routes.filter((r) => r.access === 'public' || r.access === 'guest');
  const appRoutes = table.routes.filter((r) => r.access === 'signed-in' || r.access === 'any');
  return [
    {
      id: 'root',
      path: '/',
      // only when a layout itself fails: a screen's failure stays inside its layout (below)
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <LoadingScreen />,
      children: [
        {
          id: 'public-layout',
          lazy: lazyComponent(options.layouts.public),
          children: [
            {
              // the sign-in frame is antd-free (first load): its screens' failures in plain markup
              id: 'public-screens',
              errorElement: <RouteErrorPage />,
              children: publicRoutes.map((entry) => toRouteObject(entry, options)),
            },
          ],
        },
        {
          id: 'app-layout',
          lazy: lazyComponent(options.layouts.app),
          children: [
            {
              // a screen that fails to open shows its error screen in the layout's place for it: the shell stays
              id: 'app-screens',
              lazy: screenErrorBoundary,
              children: [
                ...appRoutes.map((entry) => toRouteObject(entry, options)),
                toRouteObject(
                  {
                    path: '*',
                    access: 'signed-in',
                    page: () => import('../../components/errors/not-found-page'),
                  },
                  options,
                ),
              ],
            },
          ],
        },
      ],
    },
  ];
}

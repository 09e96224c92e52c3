import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { api } from '../api';
import type { AppStore } from '../store';
import type { AppKind } from '../types';
import { dataQuery, mergeRouteData, resolveDataUrl, type RouteData } from './route-data';
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
    if (entry.redirectTo) throw redirect(entry.redirectTo);

    const url = new URL(request.url);
    const base: RouteData = { params, query: Object.fromEntries(url.searchParams) };
    if (!entry.data) return base;
    const call = store.dispatch(
      api.endpoints.routeData.initiate(
        { url: resolveDataUrl(entry.data, params), params: dataQuery(entry.data, params, url.searchParams) },
        { subscribe: false, forceRefetch: true },
      ),
    );
    request.signal.addEventListener('abort', () => call.abort());
    const response = await call.unwrap();
    return mergeRouteData(base, response);
  };
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
 * everything else (including the catch-all not-found screen) under the app layout.
 */
export function buildRoutes(table: RouteTable, given: BuildRoutesOptions): RouteObject[] {
  const options = table.guard ? { ...given, guard: table.guard } : given;
  const publicRoutes = table.routes.filter((r) => r.access === 'public' || r.access === 'guest');
  const appRoutes = table.routes.filter((r) => r.access === 'signed-in' || r.access === 'any');
  return [
    {
      id: 'root',
      path: '/',
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <LoadingScreen />,
      children: [
        {
          id: 'public-layout',
          lazy: lazyComponent(options.layouts.public),
          children: publicRoutes.map((entry) => toRouteObject(entry, options)),
        },
        {
          id: 'app-layout',
          lazy: lazyComponent(options.layouts.app),
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
  ];
}

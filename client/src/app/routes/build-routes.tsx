import type { ComponentType } from 'react';
import { data, redirect, replace, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { api, isApiError } from '../api';
import type { AppStore } from '../store';
import type { AppKind } from '../types';
import { dataQuery, hasMalformedId, mergeRouteData, resolveDataUrl, type RouteData } from './route-data';
import type { LazyPage, RouteEntry, RouteGuard, RouteTable } from './types';
import { withReturn } from '../navigation';
import { RouteErrorPage } from '../../components/errors/route-error-page';
import { LoadingScreen } from '../../components/loading-screen';

export interface BuildRoutesOptions {
  kind: AppKind;
  store: AppStore;
  layouts: { app: LazyPage; public: LazyPage };
  /** the table's own check of a signed-in route (see RouteTable.guard) */
  guard?: RouteGuard;
}

/**
 * A module of the route tree — a layout, a screen, the screens' error page — fetched by the loader of the screen
 * that shows it once that loader has let the screen open, then drawn at once. Not react-router's `lazy`: the router
 * starts the `lazy` of every route an address matches before any loader runs, so a signed-out visit to `/` (or to
 * any signed-in address) fetched the signed-in layout, antd's core and the error screens on its way to /login.
 */
interface RouteModule<T> {
  /** fetches the module once (again after a failure) */
  load(): Promise<T>;
  /** the loaded module; throws the failure (to the nearest error element) if it could not be fetched */
  current(): T;
}

function routeModule<T>(fetchModule: () => Promise<T>): RouteModule<T> {
  let pending: Promise<T> | undefined;
  let state: { loaded: true; value: T } | { loaded: false; error: unknown } = {
    loaded: false,
    error: new Error('a route module was drawn before its route loaded it'),
  };
  return {
    load() {
      pending ??= fetchModule().then(
        (value) => {
          state = { loaded: true, value };
          return value;
        },
        (error: unknown) => {
          state = { loaded: false, error };
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    current() {
      if (!state.loaded) throw state.error;
      return state.value;
    },
  };
}

/** The component a route draws: the default export of its module, loaded by then. */
function drawn(module: RouteModule<{ default: ComponentType }>): ComponentType {
  return function RouteComponent() {
    const { default: Loaded } = module.current();
    return <Loaded />;
  };
}

/** What a route's loader throws to send the visitor to another address. */
function isRedirect(thrown: unknown): boolean {
  return thrown instanceof Response && thrown.status >= 300 && thrown.status < 400;
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
  /** fetches the code the screen is drawn with (its layout, its page): only once the checks let it open */
  fetchCode: () => Promise<unknown> = () => Promise.resolve(),
) {
  return async ({ request, params }: LoaderFunctionArgs): Promise<RouteData | Response> => {
    const signedIn = hasPrincipal(store, kind);
    // signed out: the sign-in page, which returns here once signed in
    if (entry.access === 'signed-in' && !signedIn) {
      const url = new URL(request.url);
      throw redirect(withReturn('/login', url.pathname + url.search));
    }
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

    // the screen opens here, or in its layout as its error screen: its code comes alongside the data call
    const code = fetchCode();
    code.catch(() => undefined); // awaited below, unless the route sends the visitor on
    try {
      const opened = await open(request, params);
      await code;
      return opened;
    } catch (thrown) {
      if (!isRedirect(thrown)) await code;
      throw thrown;
    }
  };

  async function open(request: Request, params: LoaderFunctionArgs['params']): Promise<RouteData> {
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
  }
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

/**
 * One route of the table, drawn inside `frame` (its layout and what the layout needs): the route's loader fetches
 * the frame and the page together, after its checks, so a visit that is sent elsewhere fetches neither.
 */
function toRouteObject(
  entry: RouteEntry,
  options: BuildRoutesOptions,
  frame: RouteModule<unknown>[],
): RouteObject {
  const page = entry.page ? routeModule(entry.page) : undefined;
  const code = page ? [...frame, page] : frame;
  return {
    path: entry.path,
    loader: makeLoader(entry, options, () => Promise.all(code.map((module) => module.load()))),
    ...(page ? { Component: drawn(page) } : {}),
    handle: { entry },
  };
}

/**
 * Turn the route table into react-router routes: public and guest screens under the public layout,
 * everything else (including the catch-all not-found screen) under the app layout; a screen that cannot open
 * shows its error screen inside its layout. Layouts and screens are fetched by the loaders (see RouteModule).
 */
export function buildRoutes(table: RouteTable, given: BuildRoutesOptions): RouteObject[] {
  const options = table.guard ? { ...given, guard: table.guard } : given;
  const publicRoutes = table.routes.filter((r) => r.access === 'public' || r.access === 'guest');
  const appRoutes = table.routes.filter((r) => r.access === 'signed-in' || r.access === 'any');
  const publicLayout = routeModule(options.layouts.public);
  const appLayout = routeModule(options.layouts.app);
  // the error screens inside a layout: antd's, loaded with the signed-in layout, never on the first load
  const screenErrors = routeModule(async () => ({
    default: (await import('../../components/errors/error-screen')).ScreenErrorPage,
  }));
  const appFrame = [appLayout, screenErrors];
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
          Component: drawn(publicLayout),
          children: [
            {
              // the sign-in frame is antd-free (first load): its screens' failures in plain markup
              id: 'public-screens',
              errorElement: <RouteErrorPage />,
              children: publicRoutes.map((entry) => toRouteObject(entry, options, [publicLayout])),
            },
          ],
        },
        {
          id: 'app-layout',
          Component: drawn(appLayout),
          children: [
            {
              // a screen that fails to open shows its error screen in the layout's place for it: the shell stays
              id: 'app-screens',
              ErrorBoundary: drawn(screenErrors),
              children: [
                ...appRoutes.map((entry) => toRouteObject(entry, options, appFrame)),
                toRouteObject(
                  {
                    path: '*',
                    access: 'signed-in',
                    page: () => import('../../components/errors/not-found-page'),
                  },
                  options,
                  appFrame,
                ),
              ],
            },
          ],
        },
      ],
    },
  ];
}

import { createMemoryRouter } from 'react-router-dom';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { connectHttp } from '../bootstrap';
import { setActiveRouter } from '../navigation';
import { appActions } from '../app-slice';
import { makeStore } from '../store';
import type { User } from '../types';
import { backofficeRoutes } from './backoffice-routes';
import { buildRoutes } from './build-routes';
import { buildMenu, selectedMenuKey } from './menu';
import { portalRoutes } from './portal-routes';
import { dataQuery, mergeRouteData } from './route-data';
import type { RouteTable } from './types';

const staff: User = {
  id: 2,
  name: 'Staff',
  email: 'staff@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: { id: 1, name: 'Clerk', data_scope: 'branch' },
  permissions: ['holidays.view'],
  two_factor_enabled: false,
};

const Page = () => null;
const page = async () => ({ default: Page });
const layouts = { app: page, public: page };

/** A table as a feature issue would extend it: data calls, a permission, a denied redirect. */
const table: RouteTable = {
  menuGroups: [{ id: 'settings', labelKey: 'menu.settings', order: 10 }],
  routes: [
    { path: '/', access: 'signed-in', redirectTo: '/calendar' },
    { path: '/login', access: 'guest', page },
    { path: '/test', access: 'public', page },
    { path: '/home', access: 'signed-in', page, menu: { labelKey: 'menu.home', order: 1 } },
    {
      path: '/dashboard',
      access: 'signed-in',
      page,
      permission: 'dashboard.view',
      deniedRedirect: '/home',
      data: { url: '/api/dashboard/show' },
      menu: { labelKey: 'menu.dashboard', order: 0 },
    },
    {
      path: '/settings/holiday',
      access: 'signed-in',
      page,
      permission: 'holidays.view',
      data: { url: '/api/holidays', query: () => ({ year: '2026' }) },
      menu: { labelKey: 'menu.holidays', group: 'settings' },
    },
    {
      path: '/schools/subject/:id',
      access: 'signed-in',
      page,
      data: { url: (p) => `/api/schools/${p.id}`, query: { tab: 'subject' } },
    },
    { path: '/error-403', access: 'any', page },
    { path: '/error-404', access: 'any', page },
    { path: '/error-500', access: 'any', page },
  ],
};

function setup(path: string, user: User | null = staff, routes = table) {
  const store = makeStore('backoffice');
  if (user) store.dispatch(appActions.setUser(user));
  const router = createMemoryRouter(buildRoutes(routes, { kind: 'backoffice', store, layouts }), {
    initialEntries: [path],
  });
  return { store, router };
}

async function settle(router: ReturnType<typeof createMemoryRouter>) {
  if (router.state.initialized && router.state.navigation.state === 'idle') return;
  await new Promise<void>((resolve) => {
    const stop = router.subscribe((state) => {
      if (state.initialized && state.navigation.state === 'idle') {
        stop();
        resolve();
      }
    });
  });
}

function leafData(router: ReturnType<typeof createMemoryRouter>) {
  const matches = router.state.matches;
  return router.state.loaderData[matches[matches.length - 1].route.id] as Record<string, unknown>;
}

describe('route guards (spec §2)', () => {
  it.each(['/home', '/calendar', '/anything/else', '/'])(
    '%s without a signed-in user goes to /login',
    async (path) => {
      const { router } = setup(path, null);
      await settle(router);
      expect(router.state.location.pathname).toBe('/login');
    },
  );

  it('public screens open without a user; sign-in screens send a signed-in user home', async () => {
    const anon = setup('/test', null);
    await settle(anon.router);
    expect(anon.router.state.location.pathname).toBe('/test');
    const signedIn = setup('/login');
    await settle(signedIn.router);
    expect(signedIn.router.state.location.pathname).not.toBe('/login');
  });

  it('/ redirects to /calendar for a signed-in user', async () => {
    installFetch({});
    const { router } = setup('/');
    await settle(router);
    expect(router.state.location.pathname).toBe('/calendar');
  });

  it('a missing permission goes to the route’s denied redirect, else /error-403', async () => {
    const dashboard = setup('/dashboard');
    await settle(dashboard.router);
    expect(dashboard.router.state.location.pathname).toBe('/home');

    const noHolidays = setup('/settings/holiday', { ...staff, permissions: [] });
    await settle(noHolidays.router);
    expect(noHolidays.router.state.location.pathname).toBe('/error-403');
  });

  it.each(['/', '/home', '/anything/else'])(
    'a signed-out visit to %s reaches /login fetching nothing of the signed-in side (issue 25)',
    async (path) => {
      const loaded: string[] = [];
      const module = (name: string) => async () => {
        loaded.push(name);
        return { default: Page };
      };
      const homeTable: RouteTable = {
        menuGroups: [],
        routes: [
          { path: '/', access: 'signed-in', redirectTo: '/home' },
          { path: '/login', access: 'guest', page: module('login page') },
          { path: '/home', access: 'signed-in', page: module('home page') },
        ],
      };
      const store = makeStore('backoffice');
      const router = createMemoryRouter(
        buildRoutes(homeTable, {
          kind: 'backoffice',
          store,
          layouts: { app: module('signed-in layout'), public: module('public layout') },
        }),
        { initialEntries: [path] },
      );
      await settle(router);
      expect(router.state.location.pathname).toBe('/login');
      expect(loaded.sort()).toEqual(['login page', 'public layout']);
      // signed in, the same router loads the shell and the screen
      store.dispatch(appActions.setUser(staff));
      await router.navigate('/');
      await settle(router);
      expect(router.state.location.pathname).toBe('/home');
      expect(loaded).toEqual(expect.arrayContaining(['signed-in layout', 'home page']));
    },
  );

  it('the error screens open without a user', async () => {
    const { router } = setup('/error-403', null);
    await settle(router);
    expect(router.state.location.pathname).toBe('/error-403');
  });
});

describe('route loaders (spec §2, §7)', () => {
  it('fetch the data call before the route opens, defaults first, then the route query appended', async () => {
    const calls = installFetch({ 'GET /api/holidays': fakeResponse(200, [{ id: 1, name: 'New Year' }]) });
    const { router } = setup('/settings/holiday?page=2');
    await settle(router);
    expect(calls.map((c) => c.url)).toEqual(['/api/holidays?year=2026&page=2']);
    expect(leafData(router)).toMatchObject({ items: [{ id: 1, name: 'New Year' }], query: { page: '2' } });
  });

  it('a query given on the route overrides the computed default', async () => {
    const calls = installFetch({ 'GET /api/holidays': fakeResponse(200, []) });
    const { router } = setup('/settings/holiday?year=2030');
    await settle(router);
    expect(calls.map((c) => c.url)).toEqual(['/api/holidays?year=2030']);
  });

  it('merge an object response into the route data, next to the params', async () => {
    const calls = installFetch({
      'GET /api/schools/7': fakeResponse(200, { school: { id: 7 }, subjects: [] }),
    });
    const { router } = setup('/schools/subject/7');
    await settle(router);
    expect(calls[0].url).toBe('/api/schools/7?tab=subject');
    expect(leafData(router)).toMatchObject({ params: { id: '7' }, school: { id: 7 }, subjects: [] });
  });

  it('mergeRouteData stores an array as items and spreads an object', () => {
    const base = { params: {}, query: {} };
    expect(mergeRouteData(base, [1, 2])).toEqual({ ...base, items: [1, 2] });
    expect(mergeRouteData(base, { total: 3 })).toEqual({ ...base, total: 3 });
    expect(mergeRouteData(base, null)).toEqual(base);
  });

  it('dataQuery keeps repeated query keys', () => {
    expect(dataQuery({ url: '/x', query: { tab: 'basic' } }, {}, new URLSearchParams('id=1&id=2'))).toEqual({
      tab: 'basic',
      id: ['1', '2'],
    });
  });
});

describe('menu from the route table', () => {
  it('shows only entries the user may open, grouped and ordered', () => {
    const menu = buildMenu(table, staff);
    expect(menu.map((n) => n.key)).toEqual(['/home', 'group:settings']);
    expect(menu[1]).toMatchObject({ children: [{ path: '/settings/holiday' }] });
    expect(buildMenu(table, { ...staff, is_admin: true }).map((n) => n.key)).toEqual([
      '/dashboard',
      '/home',
      'group:settings',
    ]);
    expect(buildMenu(table, { ...staff, permissions: [] }).map((n) => n.key)).toEqual(['/home']);
  });

  it('highlights the longest menu path that prefixes the location', () => {
    expect(selectedMenuKey(table, '/settings/holiday')).toBe('/settings/holiday');
    expect(selectedMenuKey(table, '/home/x')).toBe('/home');
    expect(selectedMenuKey(table, '/nowhere')).toBeUndefined();
  });

  it('the real tables register the shell routes of spec §2', () => {
    const paths = backofficeRoutes.routes.map((r) => r.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/login',
        '/register',
        '/two-factor-challenge',
        '/password/reset',
        '/test',
        '/logout',
        '/reload',
        '/error-403',
        '/error-404',
        '/error-500',
        '/error-no-connection',
        ...['alerts', 'avatar', 'buttons', 'inputs', 'badges', 'forms', 'tables', 'modals', 'tabs'].map(
          (c) => `/components/${c}`,
        ),
      ]),
    );
    const publicPaths = backofficeRoutes.routes.filter((r) => r.access === 'public' || r.access === 'guest');
    expect(publicPaths.map((r) => r.path).sort()).toEqual(
      ['/login', '/register', '/two-factor-challenge', '/password/reset', '/email/verify', '/test'].sort(),
    );
    expect(portalRoutes.routes.find((r) => r.path === '/')?.redirectTo).toBe('/index');
    expect(
      portalRoutes.routes.filter((r) => r.access === 'guest' || r.access === 'public').map((r) => r.path),
    ).toEqual(['/login', '/password/set', '/password/forgot']);
  });
});

describe('a data call that fails while a route opens (spec §8 through the loaders)', () => {
  afterEach(() => setActiveRouter(null));

  function wired(path: string) {
    const { store, router } = setup(path);
    setActiveRouter(router);
    connectHttp(store);
    return { store, router };
  }

  it.each([
    [404, { message: 'Not Found', code: 'not_found' }, '/error-404'],
    [500, { message: 'Server Error' }, '/error-500'],
    [403, { message: 'This action is unauthorized.', code: 'forbidden' }, '/error-403'],
  ])('a %p lands on its error screen without an error boundary', async (status, body, to) => {
    installFetch({ 'GET /api/schools/9': fakeResponse(status, body) });
    const { router } = wired('/home');
    await settle(router);
    await router.navigate('/schools/subject/9');
    await settle(router);
    expect(router.state.location.pathname).toBe(to);
    expect(router.state.errors).toBeNull();
  });

  it('a 401 with the timeout flag signs the user out and lands on /login?timeout=1', async () => {
    installFetch({
      'GET /api/schools/9': fakeResponse(401, {
        message: 'Your session has expired, please log in again.',
        code: 'session_timeout',
        timeout: true,
      }),
    });
    const { store, router } = wired('/home');
    await settle(router);
    await router.navigate('/schools/subject/9');
    await settle(router);
    // signing in again returns to the page that was asked for (issue 31)
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/login?timeout=1&from=%2Fschools%2Fsubject%2F9',
    );
    expect(store.getState().app.user).toBeNull();
  });
});

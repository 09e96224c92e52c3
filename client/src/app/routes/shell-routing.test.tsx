import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AntdProvider } from '../../components/antd-provider';
import { homePath } from '../../components/errors/home-path';
import { ViewOutlet } from '../../components/layout/view-outlet';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { SLOW, staffUser } from '../../test/fixtures';
import { appActions } from '../app-slice';
import { connectHttp } from '../bootstrap';
import { setActiveRouter, watchNavigation } from '../navigation';
import { AppProviders } from '../providers';
import { makeStore, type AppStore } from '../store';
import type { User } from '../types';
import { backofficeRoutes } from './backoffice-routes';
import { buildRoutes } from './build-routes';
import { ERROR_ROUTES } from './common-routes';
import { buildMenu } from './menu';
import { hasMalformedId } from './route-data';
import type { RouteEntry, RouteTable } from './types';

/** The shell as the layouts hold a screen: a header that must stay, and the routed screen (keyed by `viewKey`). */
function Shell() {
  return (
    <AntdProvider>
      <header data-testid="shell">Shell</header>
      <ViewOutlet />
    </AntdProvider>
  );
}

let mounts = 0;
function UsersScreen() {
  useEffect(() => {
    mounts += 1;
  }, []);
  return <p>Users screen</p>;
}
const screenPage = async () => ({ default: UsersScreen });
const HomeScreen = () => <p>Home screen</p>;

const realEntry = (path: string): RouteEntry => backofficeRoutes.routes.find((r) => r.path === path)!;

/** The real table's /reload, its error screens and a list and record of users with their data calls. */
const table: RouteTable = {
  menuGroups: [],
  routes: [
    realEntry('/'),
    realEntry('/reload'),
    { path: '/home', access: 'signed-in', page: async () => ({ default: HomeScreen }) },
    { path: '/settings/users', access: 'signed-in', page: screenPage },
    {
      path: '/settings/users/:id',
      access: 'signed-in',
      page: screenPage,
      data: { url: (p) => `/api/users/${p.id}` },
    },
    ERROR_ROUTES['404'],
    ERROR_ROUTES['500'],
    ERROR_ROUTES.noConnection,
  ],
};

function open(path: string, user: User = staffUser({ permissions: ['users.view'] })) {
  const store: AppStore = makeStore('backoffice');
  store.dispatch(appActions.setUser(user));
  // a screen remounted by the `viewKey` it bumps would bump it again and again (React #185): stopped here
  const dispatch = store.dispatch;
  let bumps = 0;
  store.dispatch = ((action: { type: string }) => {
    if (action.type === appActions.bumpViewKey.type && ++bumps > 3)
      throw new Error('render loop: the viewKey keeps being bumped');
    return dispatch(action as never);
  }) as typeof store.dispatch;
  const router = createMemoryRouter(
    buildRoutes(table, {
      kind: 'backoffice',
      store,
      layouts: { app: async () => ({ default: Shell }), public: async () => ({ default: Shell }) },
    }),
    { initialEntries: [path] },
  );
  setActiveRouter(router);
  connectHttp(store);
  watchNavigation(router, store);
  render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { store, router, user: userEvent.setup() };
}

beforeEach(() => {
  mounts = 0;
});
afterEach(() => setActiveRouter(null));

describe('Reload view (/reload)', () => {
  it('opens the screen again once, remounted with its fresh data, without a render loop (React #185)', async () => {
    installFetch({});
    const { store, router } = open('/settings/users');
    expect(await screen.findByText('Users screen', {}, SLOW)).toBeInTheDocument();
    expect(mounts).toBe(1);

    await act(() => router.navigate('/reload?to=%2Fsettings%2Fusers%3Fq%3Dann'));

    expect(await screen.findByText('Users screen', {}, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/settings/users?q=ann');
    expect(store.getState().app.viewKey).toBe(1);
    expect(mounts).toBe(2);
    expect(screen.getByTestId('shell')).toBeInTheDocument();
    // /reload is no step of the history: back leaves the screen
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('never sends anyone off the site', async () => {
    installFetch({});
    const { router } = open('/home');
    await screen.findByText('Home screen', {}, SLOW);
    await act(() => router.navigate('/reload?to=%2F%2Fevil.example'));
    expect(router.state.location.pathname).toBe('/home');
  });
});

describe('a data load the server refuses keeps the shell', () => {
  it('a malformed id is the not-found screen inside the shell, without asking the server', async () => {
    const calls = installFetch({});
    const { router } = open('/settings/users/abc');
    expect(await screen.findByText('Page not found', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId('shell')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/users/abc');
    expect(calls).toEqual([]);
    expect(hasMalformedId({ id: 'abc' })).toBe(true);
    expect(hasMalformedId({ id: '0' })).toBe(true);
    expect(hasMalformedId({ childId: '4294967296' })).toBe(true);
    expect(hasMalformedId({ id: '12', childId: '2147483647', key: 'nationality' })).toBe(false);
  });

  it('an address the server refuses (422) is the not-found screen inside the shell, whose "Back to home" goes to /home', async () => {
    installFetch({
      'GET /api/users/7': fakeResponse(422, {
        message: 'Must be a number.',
        code: 'validation',
        errors: { id: ['Must be a number.'] },
      }),
    });
    const { router, user } = open('/settings/users/7');
    expect(await screen.findByText('Page not found', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId('shell')).toBeInTheDocument();
    expect(screen.queryByText('Server error')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/users/7');

    await user.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(await screen.findByText('Home screen', {}, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('"Try again" on the no-connection screen retries the load that failed, not the screen before it', async () => {
    let online = false;
    installFetch({
      'GET /api/users/7': () =>
        online ? fakeResponse(200, { id: 7, name: 'Ann' }) : new TypeError('Failed to fetch'),
    });
    const { router, user } = open('/home');
    await screen.findByText('Home screen', {}, SLOW);
    await act(() => router.navigate('/settings/users/7'));
    expect(await screen.findByText('No connection', {}, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/error-no-connection');
    expect(screen.getByTestId('shell')).toBeInTheDocument();

    online = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Users screen', {}, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/users/7');
  });
});

describe('the back-office route table', () => {
  const stub = async () => ({ default: () => null });
  const layouts = { app: stub, public: stub };

  async function landing(user: User): Promise<string> {
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(user));
    const router = createMemoryRouter(buildRoutes(backofficeRoutes, { kind: 'backoffice', store, layouts }), {
      initialEntries: ['/'],
    });
    await new Promise<void>((resolve) => {
      if (router.state.initialized && router.state.navigation.state === 'idle') resolve();
      const stop = router.subscribe((state) => {
        if (state.initialized && state.navigation.state === 'idle') {
          stop();
          resolve();
        }
      });
    });
    return router.state.location.pathname;
  }

  it('/ lands on the calendar, or on /home for whoever may not see it (never an error screen)', async () => {
    installFetch({});
    expect(await landing(staffUser({ permissions: ['calendar.view'] }))).toBe('/calendar');
    expect(await landing(staffUser({ permissions: [] }))).toBe('/home');
  });

  it('"Back to home" is the staff start page, the portal’s own home', () => {
    expect(homePath('backoffice')).toBe('/home');
    expect(homePath('portal')).toBe('/');
  });

  it('keeps the /components showcase routes out of every menu', () => {
    const admin = staffUser({ is_admin: true });
    const paths = buildMenu(backofficeRoutes, admin).flatMap((n) =>
      'children' in n ? [n.key, ...n.children.map((c) => c.path)] : [n.key],
    );
    expect(paths).toContain('/home');
    expect(paths.filter((p) => p.includes('components'))).toEqual([]);
    expect(backofficeRoutes.routes.filter((r) => r.path.startsWith('/components/'))).toHaveLength(9);
  });
});

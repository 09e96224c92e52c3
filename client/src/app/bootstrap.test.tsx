import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { fakeResponse, installFetch } from '../test/http-fakes';
import { appActions } from './app-slice';
import { connectHttp, initialLoad, Root } from './bootstrap';
import { setActiveRouter } from './navigation';
import { AppProviders } from './providers';
import { makeStore } from './store';
import type { User } from './types';

const user = {
  id: 1,
  name: 'Demo Admin',
  email: 'admin@example.com',
  language: 'en',
  permissions: [],
} as unknown as User;
const config = {
  registration_enabled: true,
  max_upload_mb: 5,
  features: { canCreateTeams: false },
  portal: false,
};

describe('start-up', () => {
  afterEach(() => setActiveRouter(null));

  it('the app shell shows Loading until the initial load is finished', async () => {
    const store = makeStore('backoffice');
    let finish: (router: ReturnType<typeof createMemoryRouter>) => void = () => {};
    const ready = new Promise<ReturnType<typeof createMemoryRouter>>((resolve) => (finish = resolve));
    render(
      <AppProviders store={store}>
        <Root ready={ready} />
      </AppProviders>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    await act(async () => finish(createMemoryRouter([{ path: '/', element: <p>Screen</p> }])));
    expect(await screen.findByText('Screen')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('loads the app configuration into the state', async () => {
    const calls = installFetch({ 'GET /api/app-config': fakeResponse(200, config) });
    const store = makeStore('backoffice');
    await initialLoad(store, 'backoffice');
    expect(calls.map((c) => c.url)).toEqual(['/api/app-config']);
    expect(store.getState().app.features.canCreateTeams).toBe(false);
    expect(store.getState().app.maxUploadSize).toBe(5);
    expect(store.getState().shell.registrationEnabled).toBe(true);
  });

  it('refreshes a held user first, before any other call can consume an expired session', async () => {
    const calls = installFetch({
      'GET /api/user': fakeResponse(200, { user: { ...user, name: 'Renamed' } }),
      'GET /api/app-config': fakeResponse(200, config),
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(user));
    await initialLoad(store, 'backoffice');
    expect(calls.map((c) => c.url)).toEqual(['/api/user', '/api/app-config']);
    expect(store.getState().app.user?.name).toBe('Renamed');
  });

  it('an expired session found at start-up signs out and lands on /login?timeout=1', async () => {
    installFetch({
      'GET /api/user': fakeResponse(401, {
        message: 'Your session has expired, please log in again.',
        code: 'session_timeout',
        timeout: true,
      }),
      'GET /api/app-config': fakeResponse(200, config),
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(user));
    const router = createMemoryRouter([{ path: '*', element: null }], {
      initialEntries: ['/components/tabs'],
    });
    setActiveRouter(router);
    connectHttp(store);
    await initialLoad(store, 'backoffice');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().app.user).toBeNull();
    // the page on show is asked for again once signed in (issue 31)
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/login?timeout=1&from=%2Fcomponents%2Ftabs',
    );
  });

  it('on the portal refreshes the held student from /api/student', async () => {
    const calls = installFetch({
      'GET /api/student': fakeResponse(200, { student: { id: 3, student_no: 'S3', language: 'en' } }),
      'GET /api/app-config': fakeResponse(200, { ...config, portal: true }),
    });
    const store = makeStore('portal');
    store.dispatch(appActions.setStudent({ id: 3 } as never));
    await initialLoad(store, 'portal');
    expect(calls.map((c) => c.url)).toEqual(['/api/student', '/api/app-config']);
    expect(store.getState().app.student).toMatchObject({ student_no: 'S3' });
  });
});

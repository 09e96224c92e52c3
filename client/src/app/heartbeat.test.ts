import { createMemoryRouter } from 'react-router-dom';
import { configureHttp } from '../http/client';
import { fakeResponse, installFetch } from '../test/http-fakes';
import { appActions } from './app-slice';
import { beat, HEARTBEAT_INTERVAL_MS, startHeartbeat } from './heartbeat';
import { setActiveRouter } from './navigation';
import { makeStore } from './store';
import type { User } from './types';

const user = { id: 1, name: 'A', email: 'a@example.com', language: 'en', permissions: [] } as unknown as User;

function setup(path = '/components/tabs') {
  const store = makeStore('backoffice');
  const router = createMemoryRouter([{ path: '*', element: null }], { initialEntries: [path] });
  setActiveRouter(router);
  const navigations: string[] = [];
  configureHttp({ onErrorAction: (a) => navigations.push(a.to) });
  return { store, router, navigations };
}

describe('heartbeat (spec §4, §7)', () => {
  afterEach(() => setActiveRouter(null));

  it('runs every 5 minutes', () => {
    expect(HEARTBEAT_INTERVAL_MS).toBe(300_000);
  });

  it('a valid session: online and auth valid', async () => {
    const { store, router } = setup();
    const calls = installFetch({ 'GET /api/heartbeat': fakeResponse(200, { auth: true }) });
    store.dispatch(appActions.setUser(user));
    await beat(store, 'backoffice');
    expect(calls.map((c) => c.url)).toEqual(['/api/heartbeat']);
    expect(store.getState().app).toMatchObject({ isOnline: true, authValid: true, user });
    expect(store.getState().shell.heartbeatChecked).toBe(true);
    expect(router.state.location.pathname).toBe('/components/tabs');
  });

  it('a failed heartbeat marks the app offline and does not redirect', async () => {
    const { store, router, navigations } = setup();
    store.dispatch(appActions.heartbeatSucceeded({ auth: true }));
    store.dispatch(appActions.setUser(user));
    installFetch({ 'GET /api/heartbeat': new TypeError('Failed to fetch') });
    await beat(store, 'backoffice');
    expect(store.getState().app.isOnline).toBe(false);
    expect(store.getState().app.user).toEqual(user);
    expect(navigations).toEqual([]);
    expect(router.state.location.pathname).toBe('/components/tabs');

    installFetch({ 'GET /api/heartbeat': fakeResponse(503, { message: 'down' }) });
    await beat(store, 'backoffice');
    expect(store.getState().app.isOnline).toBe(false);
    expect(navigations).toEqual([]);
  });

  it('an invalid session while a user is held signs them out and sends them to /login', async () => {
    const { store, router } = setup();
    store.dispatch(appActions.setUser(user));
    installFetch({ 'GET /api/heartbeat': fakeResponse(200, { auth: false }) });
    await beat(store, 'backoffice');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().app).toMatchObject({ isOnline: true, authValid: false, user: null });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('an expired session while a user is held lands on /login?timeout=1', async () => {
    const { store, router } = setup();
    store.dispatch(appActions.setUser(user));
    installFetch({ 'GET /api/heartbeat': fakeResponse(200, { auth: false, timeout: true }) });
    await beat(store, 'backoffice');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().app.user).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?timeout=1');
  });

  it('an invalid session with nobody held changes nothing but the flags', async () => {
    const { store, router } = setup('/login');
    installFetch({ 'GET /api/heartbeat': fakeResponse(200, { auth: false }) });
    await beat(store, 'backoffice');
    expect(store.getState().app).toMatchObject({ isOnline: true, authValid: false });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('on the portal the held student is what counts', async () => {
    const store = makeStore('portal');
    const router = createMemoryRouter([{ path: '*', element: null }], { initialEntries: ['/index'] });
    setActiveRouter(router);
    store.dispatch(appActions.setStudent({ id: 3 } as never));
    installFetch({ 'GET /api/heartbeat': fakeResponse(200, { auth: false }) });
    await beat(store, 'portal');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().app.student).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('beats at start and then on each interval', async () => {
    jest.useFakeTimers();
    try {
      const { store } = setup();
      const calls = installFetch({ 'GET /api/heartbeat': fakeResponse(200, { auth: false }) });
      const stop = startHeartbeat(store, 'backoffice');
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
      expect(calls).toHaveLength(3);
      stop();
      await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
      expect(calls).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});

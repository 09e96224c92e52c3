import { createMemoryRouter } from 'react-router-dom';
import { appActions } from './app-slice';
import { returnPath, watchNavigation, withReturn } from './navigation';
import { makeStore } from './store';

function setup(initial = '/components/tabs') {
  const store = makeStore('backoffice');
  let release: () => void = () => {};
  const router = createMemoryRouter(
    [
      {
        path: '/slow',
        loader: () => new Promise<null>((resolve) => (release = () => resolve(null))),
        element: null,
      },
      { path: '*', element: null },
    ],
    { initialEntries: [initial] },
  );
  const stop = watchNavigation(router, store);
  return { store, router, stop, release: () => release() };
}

describe('after each navigation (spec §2)', () => {
  it('a changed path resets the selected tab to the first and clears the notification title', async () => {
    const { store, router, stop } = setup();
    store.dispatch(appActions.setSelectedTab(2));
    store.dispatch(appActions.setNotification({ title: 'Saved', type: 'success' }));
    await router.navigate('/components/forms');
    expect(store.getState().app.selectedTab).toBe(0);
    expect(store.getState().app.notification).toEqual({ title: null, type: 'success' });
    stop();
  });

  it('the same path with another query keeps the tab and the notification', async () => {
    const { store, router, stop } = setup();
    store.dispatch(appActions.setSelectedTab(2));
    store.dispatch(appActions.setNotification({ title: 'Saved' }));
    await router.navigate('/components/tabs?page=2');
    expect(store.getState().app.selectedTab).toBe(2);
    expect(store.getState().app.notification.title).toBe('Saved');
    stop();
  });

  it('`loaded` is false while a route is loading its data and true after', async () => {
    const { store, router, stop, release } = setup();
    const done = router.navigate('/slow');
    await Promise.resolve();
    expect(store.getState().app.loaded).toBe(false);
    release();
    await done;
    expect(store.getState().app.loaded).toBe(true);
    stop();
  });
});

describe('the page asked for before signing in (issue 31)', () => {
  it('goes along with the sign-in address and is where signing in lands', () => {
    const to = withReturn('/login?timeout=1', '/students/basic/7?tab=2');
    expect(to).toBe('/login?timeout=1&from=%2Fstudents%2Fbasic%2F7%3Ftab%3D2');
    expect(returnPath(to.split('?')[1])).toBe('/students/basic/7?tab=2');
    expect(withReturn('/login', '/settings/audit-log')).toBe('/login?from=%2Fsettings%2Faudit-log');
  });

  it('never leads off the app, back to a sign-in page or to an error screen', () => {
    for (const asked of ['//evil.example/x', 'https://evil.example/', '/login', '/logout', '/error-500', '/'])
      expect(returnPath(`from=${encodeURIComponent(asked)}`)).toBe('/');
    expect(withReturn('/login', '/login?timeout=1')).toBe('/login');
    expect(returnPath('', '/home')).toBe('/home');
  });
});

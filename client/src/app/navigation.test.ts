import { createMemoryRouter } from 'react-router-dom';
import { appActions } from './app-slice';
import { watchNavigation } from './navigation';
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

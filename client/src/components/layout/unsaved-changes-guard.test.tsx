import { act, screen, waitFor } from '@testing-library/react';
import { renderScreens } from '../../test/render-screens';
import { Link } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { SYSTEM_NAVIGATION } from '../../app/navigation';
import { makeStore } from '../../app/store';

function setup() {
  const store = makeStore('backoffice');
  const { router, user } = renderScreens(
    store,
    [
      {
        path: 'form',
        element: (
          <>
            <p>Form page</p>
            <Link to="/other">Go elsewhere</Link>
            <Link to="/form?tab=2">Same page</Link>
          </>
        ),
      },
      { path: 'other', element: <p>Other page</p> },
      { path: 'login', element: <p>Login page</p> },
    ],
    '/form',
  );
  return { store, router, user };
}

describe('unsaved-changes guard (spec §2)', () => {
  it('lets navigation through when nothing is unsaved', async () => {
    const { user } = setup();
    await user.click(screen.getByText('Go elsewhere'));
    expect(await screen.findByText('Other page')).toBeInTheDocument();
    expect(screen.queryByText('You have unsaved changes')).not.toBeInTheDocument();
  });

  it('asks before leaving; "Stay" keeps the page and the flag', async () => {
    const { store, router, user } = setup();
    act(() => {
      store.dispatch(appActions.setUnsavedChanges(true));
    });
    await user.click(screen.getByText('Go elsewhere'));
    expect(await screen.findByText('You have unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByText('You have unsaved changes')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/form');
    expect(screen.getByText('Form page')).toBeInTheDocument();
    expect(store.getState().app.unsavedChanges).toBe(true);
  });

  it('confirming clears the flag and the navigation goes on', async () => {
    const { store, router, user } = setup();
    act(() => {
      store.dispatch(appActions.setUnsavedChanges(true));
    });
    await user.click(screen.getByText('Go elsewhere'));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Other page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/other');
    expect(store.getState().app.unsavedChanges).toBe(false);
  });

  it('does not ask when only the query of the same screen changes', async () => {
    const { store, router, user } = setup();
    act(() => {
      store.dispatch(appActions.setUnsavedChanges(true));
    });
    await user.click(screen.getByText('Same page'));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=2'));
    expect(screen.queryByText('You have unsaved changes')).not.toBeInTheDocument();
  });

  it('does not ask when the app itself sends the user away (e.g. session ended)', async () => {
    const { store, router } = setup();
    act(() => {
      store.dispatch(appActions.setUnsavedChanges(true));
    });
    await act(() => router.navigate('/login', { state: SYSTEM_NAVIGATION }));
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(screen.queryByText('You have unsaved changes')).not.toBeInTheDocument();
  });
});

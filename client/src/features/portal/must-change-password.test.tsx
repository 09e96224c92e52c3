import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { buildRoutes } from '../../app/routes/build-routes';
import { portalRoutes } from '../../app/routes/portal-routes';
import { makeStore } from '../../app/store';
import { AntdProvider } from '../../components/antd-provider';
import { mapHttpError } from '../../http/error-mapping';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import PortalLoginPage from './portal-login-page';
import { ChangePasswordPage } from './password-pages';
import { portalStore, portalStudent } from './portal-test-data';

jest.setTimeout(120_000);

/** The portal's route table as the app builds it, with stand-in layouts and screens. */
function portalApp(store: ReturnType<typeof makeStore>, path: string) {
  const Screen = () => <p data-testid="screen">screen</p>;
  const Layout = () => <Outlet />;
  const table = {
    ...portalRoutes,
    routes: portalRoutes.routes.map((r) =>
      r.page ? { ...r, data: undefined, page: async () => ({ default: Screen }) } : r,
    ),
  };
  const routes = buildRoutes(table, {
    kind: 'portal',
    store,
    layouts: { app: async () => ({ default: Layout }), public: async () => ({ default: Layout }) },
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('a password staff set is changed first', () => {
  it('sends the student to /password/change from every portal page until it is changed', async () => {
    const store = portalStore(portalStudent({ must_change_password: true }));
    for (const path of ['/index', '/family', '/select-application', '/application', '/document', '/']) {
      const router = portalApp(store, path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/password/change'), SLOW);
      await screen.findByTestId('screen', {}, SLOW);
      router.dispose();
      cleanup();
    }
    // the change screen itself and signing out stay open
    const router = portalApp(store, '/logout');
    await screen.findByTestId('screen', {}, SLOW);
    expect(router.state.location.pathname).toBe('/logout');
    router.dispose();
  });

  it('lets a student without that flag through', async () => {
    const router = portalApp(portalStore(portalStudent()), '/family');
    await screen.findByTestId('screen', {}, SLOW);
    expect(router.state.location.pathname).toBe('/family');
  });

  it('sends a 403 `portalMustChangePassword` answer to the password change, not the error page', () => {
    expect(
      mapHttpError(403, {
        message: 'Change the password you were given before you continue.',
        code: 'forbidden',
        message_key: 'portalMustChangePassword',
      }),
    ).toEqual({ type: 'navigate', to: '/password/change', replace: true, signOut: false });
    expect(mapHttpError(403, { message: 'This action is unauthorized.', code: 'forbidden' })).toMatchObject({
      to: '/error-403',
    });
  });

  it('signs in to the password change, then opens the portal once it is changed', async () => {
    const calls: FetchCall[] = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(200, {
        student: portalStudent({ must_change_password: true }),
        must_change_password: true,
      }),
      'GET /api/student': fakeResponse(200, portalStudent({ must_change_password: true })),
      'PUT /api/student/password': fakeResponse(200, { message: 'ok' }),
    });
    const store = makeStore('portal');
    const router = createMemoryRouter(
      [
        { path: '/login', element: <PortalLoginPage /> },
        { path: '/password/change', element: <ChangePasswordPage /> },
        { path: '/index', element: <p>Personal details</p> },
        { path: '/', element: <p>Home</p> },
      ],
      { initialEntries: ['/login'] },
    );
    render(
      <Provider store={store}>
        <AntdProvider>
          <RouterProvider router={router} />
        </AntdProvider>
      </Provider>,
    );
    fireEvent.change(await screen.findByLabelText('Email', {}, SLOW), {
      target: { value: 'siuming@example.com' },
    });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Given1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/password/change'), SLOW);
    expect(await screen.findByTestId('must-change-password', {}, SLOW)).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Given1234' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'MyOwn12345' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'MyOwn12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change my password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/index'), SLOW);
    expect(store.getState().app.student?.must_change_password).toBe(false);
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({
      current_password: 'Given1234',
      password: 'MyOwn12345',
      password_confirmation: 'MyOwn12345',
    });
  });
});

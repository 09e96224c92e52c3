import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { makeStore } from '../../app/store';
import { fakeResponse, installFetch, type FakeResponse } from '../../test/http-fakes';
import { AntdProvider } from '../../components/antd-provider';
import LoginPage from './login-page';
import TwoFactorPage from './two-factor-page';
import RegisterPage from './register-page';
import { shellActions } from '../../app/shell-slice';
import { PublicLayout } from '../../components/layout/public-layout';

const admin = {
  id: 1,
  name: 'Demo Admin',
  email: 'admin@example.com',
  is_admin: true,
  language: 'en',
  branch_id: 1,
  role: null,
  permissions: [],
  two_factor_enabled: true,
};

function setup(path = '/login', registration = false) {
  const store = makeStore('backoffice');
  store.dispatch(shellActions.registrationEnabled(registration));
  const router = createMemoryRouter(
    [
      {
        // the sign-in frame as the app has it (its language switch; no antd configuration of its own)
        element: <PublicLayout appNameKey="app.name" />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/two-factor-challenge', element: <TwoFactorPage /> },
          { path: '/register', element: <RegisterPage /> },
        ],
      },
      { path: '/', element: <p>Home</p> },
      { path: '/user/profile', element: <p>Profile</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <AntdProvider>
        <RouterProvider router={router} />
      </AntdProvider>
    </Provider>,
  );
  return { store, router, user: userEvent.setup() };
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'admin@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

// antd forms render slowly in jsdom, more so on a busy machine: a generous limit, not a speed target.
jest.setTimeout(30_000);

describe('staff sign-in screens', () => {
  beforeEach(() => {
    resetCsrfToken();
    window.localStorage.clear();
    initI18n('en');
  });

  it('shows the session-expired message when sent here with timeout=1', () => {
    setup('/login?timeout=1');
    expect(screen.getByText('Your session has expired, please log in again.')).toBeInTheDocument();
  });

  it('shows wrong credentials on the email field, in the interface language', async () => {
    installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(422, {
        message: 'These credentials do not match our records.',
        code: 'invalid_credentials',
        errors: { email: ['These credentials do not match our records.'] },
        error_keys: { email: [{ key: 'credentials' }] },
      }),
    });
    const { store, user } = setup();
    await fillAndSubmit(user, 'wrong');
    // about the pair, not the email field: said above the form
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'These credentials do not match our records.',
    );
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(store.getState().app.user).toBeNull();

    act(() => {
      initI18n('zh_HK');
    });
    expect(await screen.findByRole('button', { name: '登入' })).toBeInTheDocument();
  });

  it('says that HTTPS is needed when the server refuses sign-in over plain HTTP, staying on the page', async () => {
    // production's Secure cookies over http://: the token call is refused, the sign-in never sent
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(403, {
        message: 'Signing in needs a secure connection.',
        code: 'https_required',
        message_key: 'httpsRequired',
      }),
    });
    const { router, user } = setup();
    await fillAndSubmit(user, 'Admin1234');
    const alert = await screen.findByTestId('login-error');
    expect(alert).toHaveTextContent(
      'Signing in needs a secure connection: open this site at its https:// address.',
    );
    expect(alert).toHaveTextContent('COOKIE_SECURE=false');
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.some((c) => c.url === '/api/login')).toBe(false);
  });

  it('checks the fields before sending: each error on its field, announced, nothing sent', async () => {
    const calls = installFetch({ 'GET /api/csrf-token': fakeResponse(200, { token: 't' }) });
    const { user } = setup();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Invalid email address');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('This field is required');
    expect(screen.getByText('This field is required')).toHaveAttribute('role', 'alert');
    expect(calls.some((c) => c.url === '/api/login')).toBe(false);
  });

  it('cannot be sent twice: the button is disabled while signing in', async () => {
    // the server's answer is held until the test lets it through
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const refused = fakeResponse(422, { message: 'x', code: 'invalid_credentials' });
    const held: FakeResponse = {
      ...refused,
      text: () => gate.then(() => refused.text()),
      json: () => gate.then(() => refused.json()),
      clone: () => held,
    };
    installFetch({ 'GET /api/csrf-token': fakeResponse(200, { token: 't' }), 'POST /api/login': held });
    const { user } = setup();
    await fillAndSubmit(user, 'Admin1234');
    const button = screen.getByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    act(() => release());
    expect(await screen.findByTestId('login-error')).toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it('signs in, holds the user, uses their language and goes to /', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(200, { user: { ...admin, language: 'zh_HK' } }),
      'GET /api/user': fakeResponse(200, { user: admin, two_factor_setup_required: false }),
    });
    const { store, router, user } = setup();
    await fillAndSubmit(user, 'Admin1234');
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().app.user).toMatchObject({ email: 'admin@example.com' });
    expect(window.localStorage.getItem('locale')).toBe('zh_HK');
    expect(JSON.parse(calls[1].init.body as string)).toEqual({
      email: 'admin@example.com',
      password: 'Admin1234',
      remember: false,
    });
  });

  it('keeps the language chosen on the sign-in page over the profile’s, and saves it to the profile', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(200, { user: { ...admin, language: 'en' } }),
      'GET /api/user': fakeResponse(200, { user: admin, two_factor_setup_required: false }),
      'PUT /api/user/profile': fakeResponse(200, {
        user: { ...admin, language: 'zh_HK' },
        verification: null,
      }),
    });
    const { store, user } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), '繁體中文');
    expect(await screen.findByRole('button', { name: '登入' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('電郵'), { target: { value: 'admin@example.com' } });
    fireEvent.change(screen.getByLabelText('密碼'), { target: { value: 'Admin1234' } });
    await user.click(screen.getByRole('button', { name: '登入' }));
    expect(await screen.findByText('Home')).toBeInTheDocument();
    // the profile said en; the last explicit choice (zh_HK, on the sign-in page) wins and is saved
    expect(store.getState().app.user?.language).toBe('zh_HK');
    expect(window.localStorage.getItem('locale')).toBe('zh_HK');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/user/profile'))).toBe(true));
    const saved = calls.find((c) => c.url.endsWith('/api/user/profile'))!;
    expect(saved.init.method).toBe('PUT');
    expect(JSON.parse(saved.init.body as string)).toEqual({ language: 'zh_HK' });
    // taken once: the next sign-in without a choice uses the profile's language again
    expect(window.localStorage.getItem('locale_chosen')).toBeNull();
  });

  it('without a choice on the sign-in page uses the profile’s language and saves nothing', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(200, { user: { ...admin, language: 'zh_HK' } }),
      'GET /api/user': fakeResponse(200, { user: admin, two_factor_setup_required: false }),
    });
    const { store, user } = setup();
    await fillAndSubmit(user, 'Admin1234');
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(store.getState().app.user?.language).toBe('zh_HK');
    expect(calls.some((c) => c.init.method === 'PUT')).toBe(false);
  });

  it('sends an account without 2FA to its profile when the admins require 2FA', async () => {
    installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(200, { user: { ...admin, two_factor_enabled: false } }),
      'GET /api/user': fakeResponse(200, {
        user: { ...admin, two_factor_enabled: false },
        two_factor_setup_required: true,
      }),
    });
    const { router, user } = setup();
    await fillAndSubmit(user, 'Admin1234');
    expect(await screen.findByText('Profile')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/profile');
  });

  it('asks for the two-factor code when the server says so, then signs in with a fresh CSRF token', async () => {
    let token = 0;
    const calls = installFetch({
      'GET /api/csrf-token': () => fakeResponse(200, { token: `t${++token}` }),
      'POST /api/login': fakeResponse(200, { two_factor: true }),
      'POST /api/two-factor-challenge': fakeResponse(200, { user: admin }),
    });
    const { store, router, user } = setup();
    await fillAndSubmit(user, 'Admin1234');
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/two-factor-challenge');
    expect(store.getState().app.user).toBeNull();

    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123 456' } });
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(store.getState().app.user).toMatchObject({ id: 1 });
    const challenge = calls.find((c) => c.url === '/api/two-factor-challenge')!;
    expect(JSON.parse(challenge.init.body as string)).toEqual({ code: '123456' });
    expect((challenge.init.headers as Record<string, string>)['X-CSRF-Token']).toBe('t2');
  });

  it('can use a recovery code instead', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      // the server's answer to a wrong code or recovery code (one message for both)
      'POST /api/two-factor-challenge': fakeResponse(422, {
        message: 'The provided two factor authentication code was invalid.',
        code: 'validation',
        message_key: 'twoFactorCodeInvalid',
        errors: { recovery_code: ['The provided two factor authentication code was invalid.'] },
        error_keys: { recovery_code: [{ key: 'twoFactorCodeInvalid' }] },
      }),
    });
    const { user } = setup('/two-factor-challenge');
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcd-efgh' } });
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('The provided two factor authentication code was invalid.'),
    ).toBeInTheDocument();
    expect(JSON.parse(calls[1].init.body as string)).toEqual({ recovery_code: 'abcd-efgh' });
  });

  it('offers registration only when the server enables it', async () => {
    setup('/login', false);
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });

  it('the register screen says registration is closed while it is off, and a form while it is on', async () => {
    const off = setup('/register', false);
    expect(screen.getByTestId('registration-closed')).toBeInTheDocument();
    expect(screen.queryByLabelText('Confirm password')).not.toBeInTheDocument();
    off.router.dispose();
  });

  it('registration, when on, is linked from sign-in and checks the password rule', async () => {
    const { user } = setup('/login', true);
    await user.click(screen.getByRole('link', { name: 'Create an account' }));
    expect(await screen.findByLabelText('Confirm password')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    // the shared schema's rule (shared/schemas/auth.ts), each broken part named
    expect(
      await screen.findByText(
        'The password must be at least 8 characters. The password must contain at least one uppercase letter. The password must contain at least one number.',
      ),
    ).toBeInTheDocument();
  });
});

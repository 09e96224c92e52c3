import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { makeStore } from '../../app/store';
import { AntdProvider } from '../../components/antd-provider';
import PortalPublicLayout from '../../components/layout/portal-public-layout';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import PortalLoginPage from './portal-login-page';
import { portalStudent } from './portal-test-data';

jest.setTimeout(30_000);

function setup() {
  const store = makeStore('portal');
  const router = createMemoryRouter(
    [
      // the portal's sign-in frame as the app has it (its language switch)
      { element: <PortalPublicLayout />, children: [{ path: '/login', element: <PortalLoginPage /> }] },
      { path: '/', element: <p>Portal home</p> },
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
  return { store, user: userEvent.setup() };
}

function fill(email: string, password: string, labels = { email: 'Email', password: 'Password' }) {
  fireEvent.change(screen.getByLabelText(labels.email), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(labels.password), { target: { value: password } });
}

describe('portal sign-in', () => {
  beforeEach(() => {
    resetCsrfToken();
    window.localStorage.clear();
    initI18n('en');
  });

  it('says wrong credentials in an alert above the form, not under the email field', async () => {
    installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(422, {
        message: 'Login or password is incorrect',
        code: 'invalid_credentials',
        errors: { email: ['Login or password is incorrect'] },
        error_keys: { email: [{ key: 'portalCredentials' }] },
      }),
    });
    const { user } = setup();
    fill('student@example.com', 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByTestId('login-error');
    expect(alert).toHaveTextContent('Login or password is incorrect');
    expect(alert).toHaveAttribute('role', 'alert');
    // above the form
    const form = document.querySelector('form')!;
    expect(alert.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('says in Chinese that HTTPS is needed when the sign-in is refused over plain HTTP', async () => {
    initI18n('zh_HK');
    installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(403, {
        message: 'Signing in needs a secure connection.',
        code: 'https_required',
        message_key: 'httpsRequired',
      }),
    });
    const { user } = setup();
    fill('student@example.com', 'Secret123', { email: '電郵', password: '密碼' });
    await user.click(screen.getByRole('button', { name: '登入' }));
    const alert = await screen.findByTestId('login-error');
    expect(alert).toHaveTextContent('登入需要安全連線：請以 https:// 網址開啟本網站。');
    expect(alert).toHaveAttribute('role', 'alert');
  });

  it('keeps the language chosen on the sign-in page and saves it to the student', async () => {
    // the student's row as the server keeps it
    let language = 'en';
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/login': fakeResponse(200, { student: portalStudent({ language: 'en' }) }),
      'GET /api/student': () => fakeResponse(200, portalStudent({ language: language as 'en' })),
      'PUT /api/student/language': (call) => {
        language = (JSON.parse(String(call.init.body)) as { language: string }).language;
        return fakeResponse(204);
      },
    });
    const { store, user } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), '繁體中文');
    fill('student@example.com', 'Secret123', { email: '電郵', password: '密碼' });
    await user.click(screen.getByRole('button', { name: '登入' }));
    expect(await screen.findByText('Portal home')).toBeInTheDocument();
    expect(store.getState().app.student?.language).toBe('zh_HK');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/student/language'))).toBe(true));
    const saved = calls.find((c) => c.url.endsWith('/api/student/language'))!;
    expect(saved.init.method).toBe('PUT');
    expect(JSON.parse(saved.init.body as string)).toEqual({ language: 'zh_HK' });
  });
});

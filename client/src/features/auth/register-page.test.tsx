import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { shellActions } from '../../app/shell-slice';
import { makeStore } from '../../app/store';
import { AntdProvider } from '../../components/antd-provider';
import { initI18n, setLocale } from '../../i18n/i18n';
import RegisterPage from './register-page';

function open(lang: 'en' | 'zh_HK') {
  initI18n(lang);
  setLocale(lang);
  const store = makeStore('backoffice');
  store.dispatch(shellActions.registrationEnabled(false));
  const router = createMemoryRouter(
    [
      { path: '/register', element: <RegisterPage /> },
      { path: '/login', element: <p>Sign-in screen</p> },
    ],
    { initialEntries: ['/register'] },
  );
  render(
    <Provider store={store}>
      <AntdProvider>
        <RouterProvider router={router} />
      </AntdProvider>
    </Provider>,
  );
  return router;
}

describe('/register while registration is closed', () => {
  it.each([
    ['en', 'Registration is closed', 'Go to sign in'],
    ['zh_HK', '暫停註冊', '前往登入'],
  ] as const)(
    'says so in %s, with the way to sign in (not a not-found screen)',
    async (lang, title, link) => {
      const router = open(lang);
      expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      expect(screen.queryByText(/404|Page not found|找不到頁面/)).not.toBeInTheDocument();
      await userEvent.setup().click(screen.getByRole('link', { name: link }));
      expect(await screen.findByText('Sign-in screen')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
    },
  );
});

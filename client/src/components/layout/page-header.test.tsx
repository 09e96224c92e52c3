import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { DEFAULT_FEATURES } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { initI18n } from '../../i18n/i18n';
import { staffUser, SLOW } from '../../test/fixtures';
import { AntdProvider } from '../antd-provider';
import { AppLayout } from './app-layout';
import { ButtonLink } from './button-link';
import { PageHeader } from './page-header';

/** The back-office shell at `path`, signed in as an admin, with `element` as the screen. */
function renderShell(path: string, element: React.ReactNode) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ is_admin: true, name: 'Demo Admin' })));
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features: DEFAULT_FEATURES }));
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { path: 'settings/users/:id', element },
          { path: 'settings/users', element },
          { path: 'user/profile', element: <p>Profile screen</p> },
          { path: 'schools/:id', element },
          { path: 'schools', element },
        ],
      },
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
  return { router, user: userEvent.setup() };
}

describe('the back-office shell: landmarks, skip link, page header, user menu', () => {
  beforeEach(() => initI18n('en'));

  it(
    'has header, nav and main, and a skip link first that moves the focus to main',
    async () => {
      const { user } = renderShell('/settings/users', <PageHeader title="Users" />);
      await screen.findByRole('heading', { level: 1, name: 'Users' });
      expect(screen.getByRole('banner')).toBeInTheDocument();
      expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
      await user.tab();
      const skip = screen.getByRole('link', { name: 'Skip to main content' });
      expect(skip).toHaveFocus();
      expect(skip).toHaveAttribute('href', '#main-content');
      await user.keyboard('{Enter}');
      expect(screen.getByRole('main')).toHaveFocus();
      // jsdom is a phone: the menu panel opens from the top bar, its menu a navigation landmark
      await user.click(screen.getByTestId('menu-toggle'));
      expect(await screen.findByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    },
    SLOW.timeout,
  );

  it(
    'derives the breadcrumbs from the route table and its menu groups: Home / Settings / Users / the record',
    async () => {
      renderShell(
        '/settings/users/5',
        <PageHeader
          title="Ada Lovelace"
          extra={<button type="button">Act</button>}
          crumbs={[{ title: 'Users', to: '/settings/users' }, { title: 'Ada Lovelace' }]}
        />,
      );
      expect(await screen.findAllByRole('heading', { level: 1 })).toHaveLength(1);
      const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
      expect(trail.textContent?.replace(/\s+/g, '')).toBe('Home/Settings/Users/AdaLovelace');
      // the list the record belongs to is one step, a link to the list
      expect(within(trail).getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/settings/users');
      expect(within(trail).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
      expect(
        within(screen.getByTestId('page-header')).getByRole('button', { name: 'Act' }),
      ).toBeInTheDocument();
    },
    SLOW.timeout,
  );

  it.each([
    ['en', 'Schools', 'Home/Schools', 'Home/Schools/SeoulUniversity'],
    ['zh_HK', '學校', '主頁/學校', '主頁/學校/SeoulUniversity'],
  ] as const)(
    'does not repeat a menu group named as its entry (%s): %s once, and a link on a record',
    async (language, schools, listTrail, recordTrail) => {
      initI18n(language);
      const crumbsOf = () =>
        (screen.getByTestId('page-header').querySelector('nav')?.textContent ?? '').replace(/\s+/g, '');
      const list = renderShell('/schools', <PageHeader title={schools} />);
      await screen.findByRole('heading', { level: 1, name: schools });
      console.log(`breadcrumbs (${language}) of the list: ${crumbsOf()}`);
      expect(crumbsOf()).toBe(listTrail);
      list.router.dispose();
      cleanup();

      renderShell(
        '/schools/5',
        <PageHeader
          title="Seoul University"
          crumbs={[{ title: schools, to: '/schools' }, { title: 'Seoul University' }]}
        />,
      );
      await screen.findByRole('heading', { level: 1, name: 'Seoul University' });
      console.log(`breadcrumbs (${language}) of a record: ${crumbsOf()}`);
      expect(crumbsOf()).toBe(recordTrail);
      const nav = screen.getByTestId('page-header').querySelector('nav') as HTMLElement;
      expect(within(nav).getByRole('link', { name: schools })).toHaveAttribute('href', '/schools');
    },
    SLOW.timeout,
  );

  it(
    'has a user menu with the profile, API tokens, the language and sign-out',
    async () => {
      const { router, user } = renderShell('/settings/users', <PageHeader title="Users" />);
      await user.click(await screen.findByTestId('user-menu'));
      const panel = await screen.findByTestId('user-menu-panel');
      expect(within(panel).getByRole('menuitem', { name: /Profile/ })).toBeInTheDocument();
      expect(within(panel).getByRole('menuitem', { name: /API tokens/ })).toBeInTheDocument();
      expect(within(panel).getByRole('menuitem', { name: /Sign out/ })).toBeInTheDocument();
      expect(within(panel).getByTestId('language-switch')).toBeInTheDocument();
      await user.click(within(panel).getByRole('menuitem', { name: /Profile/ }));
      expect(await screen.findByText('Profile screen')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/user/profile');
    },
    SLOW.timeout,
  );
});

describe('ButtonLink', () => {
  beforeEach(() => initI18n('en'));

  it('is one element, a link shaped as a button, that navigates in the app', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/list',
          element: (
            <ButtonLink to="/list/5" aria-label="Edit Ada">
              Edit
            </ButtonLink>
          ),
        },
        { path: '/list/5', element: <p>Record 5</p> },
      ],
      { initialEntries: ['/list'] },
    );
    render(<RouterProvider router={router} />);
    const link = screen.getByRole('link', { name: 'Edit Ada' });
    expect(link).toHaveAttribute('href', '/list/5');
    expect(link).toHaveClass('ant-btn');
    expect(link.querySelector('a, button')).toBeNull();
    expect(link.closest('a, button')).toBe(link);
    expect(link.parentElement?.closest('a, button')).toBeNull();
    await userEvent.setup().click(link);
    expect(await screen.findByText('Record 5')).toBeInTheDocument();
  });
});

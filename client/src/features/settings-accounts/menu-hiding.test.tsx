import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { DEFAULT_FEATURES } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { AntdProvider } from '../../components/antd-provider';
import { AppLayout } from '../../components/layout/app-layout';
import { initI18n } from '../../i18n/i18n';
import HomePage from './home-page';

const clerk: User = {
  id: 7,
  name: 'Front Desk',
  email: 'frontdesk@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: { id: 3, name: 'Front desk', data_scope: 'branch' },
  permissions: ['companies.view', 'branches.view'],
  two_factor_enabled: false,
};

/** jsdom has no wide screen: the menu is the phone's, opened from the top bar. */
async function setup(user: User, features = DEFAULT_FEATURES) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(user));
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features }));
  const router = createMemoryRouter(
    [{ path: '/', element: <AppLayout />, children: [{ path: 'home', element: <HomePage /> }] }],
    { initialEntries: ['/home'] },
  );
  render(
    <Provider store={store}>
      <AntdProvider>
        <RouterProvider router={router} />
      </AntdProvider>
    </Provider>,
  );
  const events = userEvent.setup();
  await events.click(await screen.findByTestId('menu-toggle'));
  return events;
}

jest.setTimeout(30_000);

describe('the menu and the home screen show only what the user may use', () => {
  beforeEach(() => initI18n('en'));

  it('a role with companies and branches sees those settings and not users or roles', async () => {
    const user = await setup(clerk);
    const menu = screen.getByTestId('left-menu');
    await user.click(within(menu).getByText('Settings'));
    expect(within(menu).getByText('Companies')).toBeInTheDocument();
    expect(within(menu).getByText('Branches')).toBeInTheDocument();
    expect(within(menu).queryByText('Users')).not.toBeInTheDocument();
    expect(within(menu).queryByText('Roles')).not.toBeInTheDocument();
    const links = within(screen.getByTestId('home-links'));
    expect(links.getByText('Companies')).toBeInTheDocument();
    expect(links.queryByText('Users')).not.toBeInTheDocument();
  });

  it('an admin sees every settings screen', async () => {
    const user = await setup({ ...clerk, is_admin: true, permissions: [] });
    const menu = screen.getByTestId('left-menu');
    await user.click(within(menu).getByText('Settings'));
    for (const label of ['Users', 'Roles', 'Companies', 'Branches'])
      expect(within(menu).getByText(label)).toBeInTheDocument();
  });

  it('no settings permission at all: no settings group', async () => {
    await setup({ ...clerk, permissions: [] });
    expect(within(screen.getByTestId('left-menu')).queryByText('Settings')).not.toBeInTheDocument();
  });

  it('a disabled feature flag hides its screen (API tokens)', async () => {
    const user = await setup(clerk, { ...DEFAULT_FEATURES, hasApiFeatures: false });
    const menu = screen.getByTestId('left-menu');
    await user.click(within(menu).getByText('My account'));
    expect(within(menu).getByText('Profile')).toBeInTheDocument();
    expect(within(menu).queryByText('API tokens')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('home-links')).queryByText('API tokens')).not.toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreens } from '../../test/render-screens';
import userEvent from '@testing-library/user-event';
import { DEFAULT_FEATURES, FEATURE_FLAGS } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { buildMenu } from '../../app/routes/menu';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { ResourceFormPage } from '../../components/resource/resource-form-page';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import SecuritySettingsPage from './security-settings-page';
import { usersConfig } from './users-config';
import { SLOW, staffUser } from '../../test/fixtures';

jest.setTimeout(120_000);

const admin = staffUser({
  id: 1,
  name: 'Admin',
  email: 'admin@example.com',
  is_admin: true,
  language: 'en',
  branch_id: null,
  role: null,
  permissions: [],
  two_factor_enabled: false,
});

const SETTINGS = { require_two_factor: false, registration_enabled: false, features: DEFAULT_FEATURES };

const clerk = (extra: Record<string, unknown> = {}) => ({
  id: 5,
  name: 'Chan Siu Ming',
  email: 'clerk@example.com',
  role_id: 2,
  role_name: 'Consultant',
  branch_id: 1,
  branch_name: 'MK Mong Kok',
  is_admin: false,
  is_active: true,
  language: 'en',
  two_factor_enabled: true,
  allowed_actions: ['update', 'delete'],
  ...extra,
});

const entry = (path: string) => backofficeRoutes.routes.find((r) => r.path === path)!;

function setup(
  path: string,
  routes: Parameters<typeof installFetch>[0],
  { user = admin, language = 'en' }: { user?: User; language?: 'en' | 'zh_HK' } = {},
) {
  initI18n(language);
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(user));
  const options = { kind: 'backoffice' as const, store };
  const { router, user: events } = renderScreens(
    store,
    [
      {
        path: 'settings/security',
        loader: makeLoader(entry('/settings/security'), options),
        element: <SecuritySettingsPage />,
      },
      {
        path: 'settings/users/:id',
        loader: makeLoader(entry('/settings/users/:id'), options),
        element: <ResourceFormPage config={usersConfig} />,
      },
      { path: 'error-403', element: <p>Denied</p> },
    ],
    path,
  );
  return { calls, store, router, events };
}

const bodyOf = (calls: FetchCall[], method: string, url: string) => {
  const call = calls.filter((c) => c.init.method === method && c.url === url).at(-1);
  return call ? JSON.parse(String(call.init.body ?? 'null')) : undefined;
};

beforeEach(() => resetCsrfToken());

describe('settings → security and features', () => {
  it('is in the settings menu for admins only, not for a role that may update the settings', () => {
    const labels = (user: User) =>
      buildMenu(backofficeRoutes, user, DEFAULT_FEATURES).flatMap((n) =>
        'children' in n ? n.children.map((c) => c.path) : [n.path],
      );
    expect(labels(admin)).toContain('/settings/security');
    expect(labels({ ...admin, is_admin: false, permissions: ['settings.update'] })).not.toContain(
      '/settings/security',
    );
    expect(labels({ ...admin, is_admin: false, permissions: ['settings.view'] })).not.toContain(
      '/settings/security',
    );
  });

  it('a non-admin, even one who may update the settings, is sent to the permission-denied page', async () => {
    const { router, calls } = setup(
      '/settings/security',
      { 'GET /api/settings/accounts': fakeResponse(200, SETTINGS) },
      { user: { ...admin, is_admin: false, permissions: ['settings.view', 'settings.update'] } },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/error-403'), SLOW);
    expect(calls.filter((c) => c.url.startsWith('/api/settings'))).toHaveLength(0);
  });

  it('switches a feature off, saves it, and the app state’s flags follow at once', async () => {
    const saved = { ...SETTINGS, features: { ...DEFAULT_FEATURES, hasApiFeatures: false } };
    const { calls, store, events } = setup('/settings/security', {
      'GET /api/settings/accounts': fakeResponse(200, SETTINGS),
      'PUT /api/settings/accounts': fakeResponse(200, saved),
    });
    const api = await screen.findByRole('switch', { name: 'API tokens' }, SLOW);
    expect(api).toBeChecked();
    expect(screen.getByText(/existing tokens stop working/)).toBeInTheDocument();
    expect(
      screen.getByRole('switch', { name: 'Require two-factor authentication for all staff' }),
    ).not.toBeChecked();
    await events.click(api);
    expect(store.getState().app.unsavedChanges).toBe(true);
    expect(store.getState().app.features.hasApiFeatures).toBe(true);
    await events.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(store.getState().app.features.hasApiFeatures).toBe(false), SLOW);
    expect(store.getState().app.unsavedChanges).toBe(false);
    expect(await screen.findByText('Saved.', undefined, SLOW)).toBeInTheDocument();
    const body = bodyOf(calls, 'PUT', '/api/settings/accounts');
    expect(body.features).toEqual({ ...DEFAULT_FEATURES, hasApiFeatures: false });
    expect(body).toMatchObject({ require_two_factor: false, registration_enabled: false });
    expect(Object.keys(body).sort()).toEqual(['features', 'registration_enabled', 'require_two_factor']);
  });

  it('warns an admin without 2FA who requires it, and shows a refusal on its field', async () => {
    const message =
      'Two-factor authentication cannot be required while staff cannot manage it: keep that feature on.';
    const { events } = setup('/settings/security', {
      'GET /api/settings/accounts': fakeResponse(200, SETTINGS),
      'PUT /api/settings/accounts': fakeResponse(422, {
        message,
        code: 'business_rule',
        errors: { 'features.canManageTwoFactorAuthentication': [message] },
        error_keys: {
          'features.canManageTwoFactorAuthentication': [{ key: 'twoFactorRequiredNeedsFeature' }],
        },
      }),
    });
    const require2fa = await screen.findByRole(
      'switch',
      { name: 'Require two-factor authentication for all staff' },
      SLOW,
    );
    expect(screen.queryByTestId('require-two-factor-self')).not.toBeInTheDocument();
    await events.click(require2fa);
    expect(await screen.findByTestId('require-two-factor-self', undefined, SLOW)).toBeInTheDocument();
    await events.click(screen.getByRole('switch', { name: 'Two-factor authentication' }));
    await events.click(screen.getByRole('button', { name: /Save/ }));
    const field = screen.getByTestId('setting-features-canManageTwoFactorAuthentication');
    expect(await within(field).findByText(message, undefined, SLOW)).toBeInTheDocument();
  });

  it('names and explains every flag in zh_HK', async () => {
    setup(
      '/settings/security',
      { 'GET /api/settings/accounts': fakeResponse(200, SETTINGS) },
      { language: 'zh_HK' },
    );
    expect(await screen.findByRole('switch', { name: 'API 權杖' }, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: '所有員工必須使用雙重認證' })).toBeInTheDocument();
    expect(screen.getAllByRole('switch')).toHaveLength(FEATURE_FLAGS.length + 2);
    expect(document.body.textContent).not.toMatch(/accounts\.(features|security)\./);
  });
});

describe('the user form: password and 2FA', () => {
  it('shows the admin-flag note on the details: a change applies from the next request', async () => {
    setup('/settings/users/5', { 'GET /api/users/5': fakeResponse(200, clerk()) });
    expect(
      await screen.findByText(/applies at once, from the user’s next request/, undefined, SLOW),
    ).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/signs? (out|in)/);
  });

  it('sets a new password by the spec’s rule, sent alone to the user’s record', async () => {
    const { calls, events } = setup('/settings/users/5', {
      'GET /api/users/5': fakeResponse(200, clerk()),
      'PUT /api/users/5': fakeResponse(200, clerk()),
    });
    await events.click(await screen.findByRole('tab', { name: 'Password and 2FA' }, SLOW));
    const section = await screen.findByTestId('user-password-section', undefined, SLOW);
    const password = within(section).getByLabelText('New password');
    fireEvent.change(password, { target: { value: 'lowercase1' } });
    fireEvent.change(within(section).getByLabelText('Confirm new password'), {
      target: { value: 'lowercase1' },
    });
    await events.click(within(section).getByRole('button', { name: 'Set password' }));
    expect(
      await within(section).findByText(/at least one uppercase letter/, undefined, SLOW),
    ).toBeInTheDocument();
    expect(bodyOf(calls, 'PUT', '/api/users/5')).toBeUndefined();

    fireEvent.change(password, { target: { value: 'Fresh2Start' } });
    fireEvent.change(within(section).getByLabelText('Confirm new password'), {
      target: { value: 'Fresh2Start' },
    });
    await events.click(within(section).getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(/The new password is set/, undefined, SLOW)).toBeInTheDocument();
    expect(bodyOf(calls, 'PUT', '/api/users/5')).toEqual({
      password: 'Fresh2Start',
      password_confirmation: 'Fresh2Start',
    });
  });

  it('resets 2FA after a confirmation; the button goes once the record says 2FA is off', async () => {
    let record = clerk();
    const { calls, events } = setup('/settings/users/5', {
      'GET /api/users/5': () => fakeResponse(200, record),
      'DELETE /api/users/5/two-factor-authentication': () => {
        record = clerk({ two_factor_enabled: false });
        return fakeResponse(204);
      },
    });
    await events.click(await screen.findByRole('tab', { name: 'Password and 2FA' }, SLOW));
    const section = await screen.findByTestId('user-two-factor-section', undefined, SLOW);
    expect(within(section).getByText('Enabled')).toBeInTheDocument();
    await events.click(within(section).getByTestId('reset-two-factor'));
    const confirm = await screen.findByRole('tooltip', undefined, SLOW);
    expect(within(confirm).getByText(/Chan Siu Ming/)).toBeInTheDocument();
    await events.click(within(confirm).getByRole('button', { name: 'Reset two-factor authentication' }));
    await waitFor(() => expect(within(section).queryByTestId('reset-two-factor')).toBeNull(), SLOW);
    expect(within(section).getByText('Not enabled')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'DELETE')).toHaveLength(1);
  });

  it('has no reset button when 2FA is off, and sends one’s own account to the profile', async () => {
    setup('/settings/users/5', {
      'GET /api/users/5': fakeResponse(200, clerk({ two_factor_enabled: false })),
    });
    const events = userEvent.setup();
    await events.click(await screen.findByRole('tab', { name: 'Password and 2FA' }, SLOW));
    const section = await screen.findByTestId('user-two-factor-section', undefined, SLOW);
    expect(within(section).getByText('Not enabled')).toBeInTheDocument();
    expect(within(section).queryByTestId('reset-two-factor')).toBeNull();
  });

  it('shows one’s own record without the password and reset forms', async () => {
    const { events } = setup('/settings/users/1', {
      'GET /api/users/1': fakeResponse(200, clerk({ id: 1, name: 'Admin', is_admin: true })),
    });
    await events.click(await screen.findByRole('tab', { name: 'Password and 2FA' }, SLOW));
    expect(await screen.findByTestId('user-security-own', undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('user-password-section')).toBeNull();
    expect(screen.queryByTestId('reset-two-factor')).toBeNull();
  });

  it('marks role and branch required and sends no account without them', async () => {
    const { events, calls } = setup('/settings/users/5', {
      'GET /api/users/5': fakeResponse(200, clerk({ role_id: null, role_name: null, branch_id: null })),
    });
    const form = await screen.findByTestId('resource-form-user', undefined, SLOW);
    for (const label of ['Role', 'Branch']) {
      const item = within(form).getByText(label, { selector: 'label' });
      expect([label, item.className]).toEqual([label, expect.stringContaining('ant-form-item-required')]);
    }
    await events.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findAllByText('This field is required', undefined, SLOW)).toHaveLength(2);
    expect(calls.filter((c) => c.init.method === 'PUT')).toEqual([]);
  });

  it('puts the last-admin refusal on the admin flag', async () => {
    const message = 'The last active admin must stay an admin: make another user an admin first.';
    const { events } = setup('/settings/users/1', {
      'GET /api/users/1': fakeResponse(200, clerk({ id: 1, name: 'Admin', is_admin: true })),
      'PUT /api/users/1': fakeResponse(422, {
        message,
        code: 'business_rule',
        errors: { is_admin: [message] },
        error_keys: { is_admin: [{ key: 'lastAdminDemote' }] },
      }),
    });
    await events.click(await screen.findByRole('switch', { name: 'Admin' }, SLOW));
    await events.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(message, undefined, SLOW)).toBeInTheDocument();
  });
});

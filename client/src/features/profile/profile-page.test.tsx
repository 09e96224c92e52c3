import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_FEATURES } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import ProfilePage, { emailChanged } from './profile-page';
import { SLOW, staffUser } from '../../test/fixtures';

/**
 * The profile's own account (access rules): a new email address needs the current password, sent with it; the
 * password change revokes the API tokens too unless unticked, and says how many went.
 */

jest.setTimeout(120_000);

const me = staffUser({
  id: 4,
  name: 'Chan Tai Man',
  email: 'chan@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: null,
  permissions: [],
  two_factor_enabled: false,
});

const profile = {
  ...me,
  email_verified_at: '2026-01-01T00:00:00Z',
  branch: null,
  two_factor_pending_confirmation: false,
};

function setup(routes: Parameters<typeof installFetch>[0], features: Partial<typeof DEFAULT_FEATURES> = {}) {
  initI18n('en');
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/user/profile': fakeResponse(200, { user: profile, features: DEFAULT_FEATURES }),
    'GET /api/user': fakeResponse(200, { user: me }),
    'GET /api/user/sessions': fakeResponse(200, { items: [] }),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(me));
  store.dispatch(
    appActions.configReceived({
      maxUploadSize: 5,
      // the sections this test does not read stay off
      features: {
        ...DEFAULT_FEATURES,
        canManageTwoFactorAuthentication: false,
        hasAccountDeletionFeatures: false,
        managesProfilePhotos: false,
        ...features,
      },
    }),
  );
  const entry = backofficeRoutes.routes.find((r) => r.path === '/user/profile')!;
  const { user: events } = renderScreens(
    store,
    [
      {
        path: 'user/profile',
        loader: makeLoader(entry, { kind: 'backoffice', store }),
        element: <ProfilePage />,
      },
    ],
    '/user/profile',
  );
  return { calls, store, events };
}

const bodies = (calls: FetchCall[], method: string, url: string) =>
  calls
    .filter((c) => c.init.method === method && c.url === url)
    .map((c) => JSON.parse(String(c.init.body ?? 'null')) as Record<string, unknown>);

beforeEach(() => resetCsrfToken());

describe('unsaved changes on the profile', () => {
  it('a change raises the unsaved-changes flag (the guard asks before leaving); saving lowers it', async () => {
    const { calls, store } = setup({
      'PUT /api/user/profile': fakeResponse(200, {
        user: { ...profile, name: 'Chan Tai Man (MK)' },
        verification: null,
      }),
    });
    const section = await screen.findByTestId('profile-information', undefined, SLOW);
    const form = within(section);
    expect(store.getState().app.unsavedChanges).toBe(false);
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Chan Tai Man (MK)' } });
    expect(store.getState().app.unsavedChanges).toBe(true);
    // the password form has changes too: saving the information leaves the flag up for it
    const password = within(screen.getByTestId('password-section'));
    fireEvent.change(password.getByLabelText('Current password'), { target: { value: 'typed' } });
    fireEvent.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(bodies(calls, 'PUT', '/api/user/profile')).toHaveLength(1), SLOW);
    expect(await screen.findByText('Profile saved.', undefined, SLOW)).toBeInTheDocument();
    expect(store.getState().app.unsavedChanges).toBe(true);
  });
});

describe('profile information: the email address', () => {
  it('compares addresses as the server does (trimmed, any case)', () => {
    expect(emailChanged('CHAN@example.com ', 'chan@example.com')).toBe(false);
    expect(emailChanged('new@example.com', 'chan@example.com')).toBe(true);
    expect(emailChanged('', 'chan@example.com')).toBe(false);
  });

  it('a new address asks for the current password and sends it; a name change alone does not', async () => {
    const { calls, store, events } = setup({
      'PUT /api/user/profile': (call) => {
        const body = JSON.parse(String(call.init.body)) as Record<string, string>;
        return fakeResponse(200, {
          user: { ...profile, name: body.name, email: body.email ?? profile.email },
          verification: body.email === profile.email ? null : 'sent',
        });
      },
    });
    const section = await screen.findByTestId('profile-information', undefined, SLOW);
    const form = within(section);
    expect(form.queryByLabelText('Current password')).toBeNull();

    // the name alone: no password asked, none sent
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Chan Tai Man (MK)' } });
    await events.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(bodies(calls, 'PUT', '/api/user/profile')).toHaveLength(1), SLOW);
    expect(bodies(calls, 'PUT', '/api/user/profile')[0]).toEqual({
      name: 'Chan Tai Man (MK)',
      email: 'chan@example.com',
      language: 'en',
    });

    // a new address: the current password appears, is required, and goes with it
    fireEvent.change(form.getByLabelText('Email'), { target: { value: 'tai.man@example.com' } });
    const current = await form.findByLabelText('Current password', undefined, SLOW);
    expect(form.getByText('A new email address needs your current password.')).toBeInTheDocument();
    await events.click(form.getByRole('button', { name: /Save/ }));
    expect(await form.findByText('This field is required', undefined, SLOW)).toBeInTheDocument();
    expect(bodies(calls, 'PUT', '/api/user/profile')).toHaveLength(1);

    fireEvent.change(current, { target: { value: 'Secret123' } });
    await events.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(bodies(calls, 'PUT', '/api/user/profile')).toHaveLength(2), SLOW);
    expect(bodies(calls, 'PUT', '/api/user/profile')[1]).toEqual({
      name: 'Chan Tai Man (MK)',
      email: 'tai.man@example.com',
      language: 'en',
      current_password: 'Secret123',
    });
    expect(await form.findByText(/A verification link has been sent/, undefined, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(store.getState().app.user?.email).toBe('tai.man@example.com'), SLOW);
    // saved: the address is the account's now, the password field goes
    await waitFor(() => expect(form.queryByLabelText('Current password')).toBeNull(), SLOW);
  });

  // a wrong current password refused on its field: the browser journey 'access rules' (e2e), in both languages
});

describe('password change: the API tokens', () => {
  const fill = async () => {
    const section = await screen.findByTestId('password-section', undefined, SLOW);
    const form = within(section);
    fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'Old12345' } });
    fireEvent.change(form.getByLabelText('New password'), { target: { value: 'Fresh2Start' } });
    fireEvent.change(form.getByLabelText('Confirm new password'), { target: { value: 'Fresh2Start' } });
    return form;
  };

  it('revokes them by default and says how many went', async () => {
    const { calls, events } = setup({
      'PUT /api/user/password': fakeResponse(200, {
        message: 'Your password has been updated.',
        tokens_revoked: 2,
      }),
    });
    const form = await fill();
    const revoke = form.getByRole('checkbox', { name: 'Also sign out my API tokens' });
    expect(revoke).toBeChecked();
    await events.click(form.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(/API tokens revoked: 2\./, undefined, SLOW)).toBeInTheDocument();
    expect(bodies(calls, 'PUT', '/api/user/password')).toEqual([
      {
        current_password: 'Old12345',
        password: 'Fresh2Start',
        password_confirmation: 'Fresh2Start',
        revoke_tokens: true,
      },
    ]);
  });

  it('keeps them when unticked', async () => {
    const { calls, events } = setup({
      'PUT /api/user/password': fakeResponse(200, { message: 'x', tokens_revoked: 0 }),
    });
    const form = await fill();
    await events.click(form.getByRole('checkbox', { name: 'Also sign out my API tokens' }));
    await events.click(form.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(/Your API tokens keep working\./, undefined, SLOW)).toBeInTheDocument();
    expect(bodies(calls, 'PUT', '/api/user/password')[0]).toMatchObject({ revoke_tokens: false });
  });

  it('without the API-tokens feature: no checkbox, nothing sent about tokens', async () => {
    const { calls, events } = setup(
      { 'PUT /api/user/password': fakeResponse(200, { message: 'x', tokens_revoked: 0 }) },
      { hasApiFeatures: false },
    );
    const form = await fill();
    expect(form.queryByRole('checkbox')).toBeNull();
    await events.click(form.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(/Your password has been updated/, undefined, SLOW)).toBeInTheDocument();
    expect(bodies(calls, 'PUT', '/api/user/password')[0]).not.toHaveProperty('revoke_tokens');
    expect(screen.queryByText(/API tokens/)).toBeNull();
  });
});

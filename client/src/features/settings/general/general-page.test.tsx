import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SETTING_DEFAULTS } from '../../../../../shared/schemas/settings';
import { appActions } from '../../../app/app-slice';
import { makeLoader } from '../../../app/routes/build-routes';
import { backofficeRoutes } from '../../../app/routes/backoffice-routes';
import { makeStore } from '../../../app/store';
import type { User } from '../../../app/types';
import { resetCsrfToken } from '../../../http/client';
import { initI18n } from '../../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../../test/http-fakes';
import { renderScreens } from '../../../test/render-screens';
import GeneralPage from './general-page';
import { SLOW, staffUser } from '../../../test/fixtures';

/**
 * The mail and storage settings are admins' alone and need a fresh password confirmation (access rules): the
 * save asks for the password when the server answers 423 `password_confirmation_required`, then runs again.
 * Someone who may update the settings without being an admin sees no mail settings and the storage ones
 * locked.
 */

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

const SMTP = {
  host: 'smtp.example.com',
  port: 587,
  user: 'mailer',
  from: 'office@example.com',
  secure: false,
};
const NEEDS_CONFIRMATION = fakeResponse(423, {
  message: 'Please confirm your password.',
  code: 'password_confirmation_required',
});

function setup(user: User, routes: Parameters<typeof installFetch>[0] = {}) {
  initI18n('en');
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/settings': fakeResponse(200, SETTING_DEFAULTS),
    'GET /api/settings/smtp': fakeResponse(200, { ...SMTP, password_set: true }),
    'GET /api/files/usage': fakeResponse(200, {
      used_bytes: 0,
      quota_bytes: 10_240 * 1024 * 1024,
      percent: 0,
      suspended: false,
      status: 'ok',
    }),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(user));
  const entry = backofficeRoutes.routes.find((r) => r.path === '/settings/general')!;
  const { router, user: events } = renderScreens(
    store,
    [
      {
        path: 'settings/general',
        loader: makeLoader(entry, { kind: 'backoffice', store }),
        element: <GeneralPage />,
      },
      { path: 'error-403', element: <p>Denied</p> },
    ],
    '/settings/general',
  );
  return { calls, router, events };
}

const sent = (calls: FetchCall[], method: string, url: string) =>
  calls
    .filter((c) => c.init.method === method && c.url === url)
    .map((c) => JSON.parse(String(c.init.body ?? 'null')) as Record<string, unknown>);

const smtpCard = () => screen.getByText('Email (SMTP)').closest('.ant-card') as HTMLElement;
const generalCard = () => screen.getByText('General').closest('.ant-card') as HTMLElement;

beforeEach(() => resetCsrfToken());

describe('settings → general: protected settings', () => {
  it('the SMTP save asks for the password on password_confirmation_required, then saves again', async () => {
    let confirmed = false;
    const { calls, router, events } = setup(admin, {
      'PUT /api/settings/smtp': (call) =>
        confirmed
          ? fakeResponse(200, { ...(JSON.parse(String(call.init.body)) as object), password_set: true })
          : NEEDS_CONFIRMATION,
      'POST /api/user/confirm-password': () => {
        confirmed = true;
        return fakeResponse(200, { confirmed: true, valid_for_seconds: 900 });
      },
    });
    const host = await within(
      await screen.findByText('Email (SMTP)', undefined, SLOW).then(smtpCard),
    ).findByLabelText('SMTP host', undefined, SLOW);
    await waitFor(() => expect(host).toHaveValue('smtp.example.com'), SLOW);
    fireEvent.change(host, { target: { value: 'mail.example.com' } });
    await events.click(within(smtpCard()).getByRole('button', { name: /Save/ }));

    const dialog = await screen.findByRole('dialog', undefined, SLOW);
    expect(within(dialog).getByText('Confirm your password')).toBeInTheDocument();
    expect(sent(calls, 'PUT', '/api/settings/smtp')).toHaveLength(1);
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Admin1234' } });
    await events.click(screen.getByTestId('confirm-password-submit'));

    expect(await screen.findByText('Saved.', undefined, SLOW)).toBeInTheDocument();
    const puts = sent(calls, 'PUT', '/api/settings/smtp');
    expect(puts).toHaveLength(2);
    expect(puts[1]).toEqual(puts[0]);
    expect(puts[1]).toMatchObject({ host: 'mail.example.com', port: 587, from: 'office@example.com' });
    expect(puts[1]).not.toHaveProperty('password');
    expect(sent(calls, 'POST', '/api/user/confirm-password')).toEqual([{ password: 'Admin1234' }]);
    expect(within(smtpCard()).queryByRole('alert')).toBeNull();
    expect(router.state.location.pathname).toBe('/settings/general');
  });

  it('a cancelled confirmation saves nothing and keeps the storage edits on screen', async () => {
    const { calls, events } = setup(admin, { 'PUT /api/settings': NEEDS_CONFIRMATION });
    const quota = await within(
      await screen.findByText('General', undefined, SLOW).then(generalCard),
    ).findByLabelText('Storage quota', undefined, SLOW);
    fireEvent.change(quota, { target: { value: '2048' } });
    await events.click(within(generalCard()).getByRole('button', { name: /Save/ }));
    const dialog = await screen.findByRole('dialog', undefined, SLOW);
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(sent(calls, 'PUT', '/api/settings')).toHaveLength(1);
    expect(sent(calls, 'POST', '/api/user/confirm-password')).toHaveLength(0);
    expect(screen.getByLabelText('Storage quota')).toHaveValue('2048');
    expect(screen.queryByText('Saved.')).toBeNull();
  });

  it('someone who may update the settings but is no admin: no mail settings, the storage ones locked', async () => {
    const { calls } = setup({
      ...admin,
      is_admin: false,
      permissions: ['settings.view', 'settings.update'],
    });
    const currency = await screen.findByLabelText('Default currency', undefined, SLOW);
    expect(currency).toBeEnabled();
    expect(screen.getByLabelText('Storage quota')).toBeDisabled();
    expect(screen.getByLabelText('Maximum upload size')).toBeDisabled();
    expect(within(screen.getByTestId('setting-storage_suspended')).getByRole('switch')).toBeDisabled();
    expect(screen.getAllByText(/Only an admin can change the storage settings/).length).toBeGreaterThan(0);
    expect(screen.queryByText('Email (SMTP)')).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/settings/smtp'))).toBe(false);
  });
});

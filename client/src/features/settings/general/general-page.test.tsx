import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
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
const REMINDERS = {
  enabled: false,
  time: '09:00',
  time_zone: 'Asia/Hong_Kong',
  days_ahead: 7,
  mail_configured: true,
  last_run: {
    due_at: '2026-11-27T01:00:00.000Z',
    started_at: '2026-11-27T01:00:02.000Z',
    finished_at: '2026-11-27T01:00:05.000Z',
    sent: 6,
    skipped: 0,
    failed: 1,
    note: null,
  },
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
    'GET /api/settings/reminders': fakeResponse(200, REMINDERS),
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
    expect(screen.queryByText('Mail reminders')).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/settings/reminders'))).toBe(false);
  });
});

describe('settings → general: mail reminders (admins)', () => {
  const remindersCard = () => screen.getByTestId('reminders-card');

  it('shows what they send and the last run in Hong Kong time, and saves on/off and the time', async () => {
    const { calls, events } = setup(admin, {
      'PUT /api/settings/reminders': (call) =>
        fakeResponse(200, { ...REMINDERS, ...(JSON.parse(String(call.init.body)) as object) }),
    });
    const card = await screen.findByTestId('reminders-card', undefined, SLOW);
    expect(within(card).getByText(/deadlines of admission times within 7 days/)).toBeInTheDocument();
    // the card shows before its settings have arrived
    await waitFor(
      () =>
        expect(within(card).getByTestId('reminders-last-run')).toHaveTextContent(
          'Last run: 2026-11-27 09:00 — 6 sent, 1 failed.',
        ),
      SLOW,
    );
    const time = within(card).getByLabelText('Time of day');
    await waitFor(() => expect(time).toHaveValue('09:00'), SLOW);
    await events.click(within(card).getByRole('switch'));
    fireEvent.change(time, { target: { value: '7:30' } });
    await events.click(within(remindersCard()).getByRole('button', { name: /Save/ }));
    expect(
      await within(remindersCard()).findByText('Must be a time of day (HH:mm).', undefined, SLOW),
    ).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/settings/reminders')).toHaveLength(0);
    fireEvent.change(time, { target: { value: '07:30' } });
    await events.click(within(remindersCard()).getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('Saved.', undefined, SLOW)).toBeInTheDocument();
    expect(sent(calls, 'PUT', '/api/settings/reminders')).toEqual([{ enabled: true, time: '07:30' }]);
  });

  it('says so in Chinese, and warns when no mail server is set up', async () => {
    setup(admin, {
      'GET /api/settings/reminders': fakeResponse(200, {
        ...REMINDERS,
        mail_configured: false,
        last_run: null,
      }),
    });
    const card = await screen.findByTestId('reminders-card', undefined, SLOW);
    await act(async () => initI18n('zh_HK'));
    expect(await within(card).findByText('電郵提示', undefined, SLOW)).toBeInTheDocument();
    expect(within(card).getByText(/尚未設定郵件伺服器/)).toBeInTheDocument();
    expect(within(card).getByTestId('reminders-last-run')).toHaveTextContent('尚未發送任何提示。');
  });
});

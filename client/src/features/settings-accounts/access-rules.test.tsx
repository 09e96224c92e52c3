import { screen, within } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeStore } from '../../app/store';
import { ResourceFormPage } from '../../components/resource/resource-form-page';
import { ResourceListPage } from '../../components/resource/resource-list-page';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { refusalNote } from '../../components/resource/record-access';
import i18next from 'i18next';
import { branchesConfig } from './branches-config';
import { usersConfig } from './users-config';
import { SLOW, staffUser } from '../../test/fixtures';

/**
 * The access rules on the users screens (architecture.md "Access rules"): someone who manages users, but is no
 * admin, meets an account stronger than their own. The list and the record follow its `allowed_actions` (no
 * enabled edit or delete, a read-only form saying why); a write the server refuses with 403
 * `insufficient_rights` is explained where the user acted, in their language, and the page stays.
 */

jest.setTimeout(120_000);

const manager = staffUser({
  id: 2,
  name: 'Manager',
  email: 'manager@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: { id: 3, name: 'Users manager', data_scope: 'branch' },
  permissions: ['users.view', 'users.create', 'users.update', 'users.delete'],
  two_factor_enabled: false,
});

const STRONGER = 'You cannot change an account that has more rights than yours.';
const STRONGER_ZH = '您不可更改權限比您多的帳戶。';

const account = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Account ${id}`,
  email: `account${id}@example.com`,
  role_id: 4,
  role_name: 'Clerk',
  branch_id: 1,
  // the lookups' names, in the caller's language (the server's `<field>_name`)
  branch_name: 'MK Mong Kok',
  is_admin: false,
  is_active: true,
  language: 'en',
  two_factor_enabled: false,
  allowed_actions: ['update', 'delete'],
  ...extra,
});

/** An admin account: the manager holds the users permissions, yet this record is out of its reach. */
const boss = account(9, {
  name: 'Boss',
  email: 'boss@example.com',
  role_id: null,
  role_name: null,
  branch_id: null,
  branch_name: null,
  is_admin: true,
  allowed_actions: [],
  refusal: 'accountStronger',
});

const entry = (path: string) => backofficeRoutes.routes.find((r) => r.path === path)!;

function setup(
  path: string,
  routes: Parameters<typeof installFetch>[0],
  { language = 'en' }: { language?: 'en' | 'zh_HK' } = {},
) {
  initI18n(language);
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(manager));
  const options = { kind: 'backoffice' as const, store };
  const { router, user: events } = renderScreens(
    store,
    [
      {
        path: 'settings/users',
        loader: makeLoader(entry('/settings/users'), options),
        element: <ResourceListPage config={usersConfig} />,
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

const writes = (calls: FetchCall[], method: string) => calls.filter((c) => c.init.method === method);
const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

beforeEach(() => resetCsrfToken());

describe('users list: each row follows its allowed_actions', () => {
  it('a row with allowed_actions [] has no enabled edit or delete; its delete says why', async () => {
    const { events, calls } = setup('/settings/users', {
      'GET /api/users': fakeResponse(200, { items: [account(6), boss], total: 2, page: 1, per_page: 20 }),
    });
    await screen.findByText('boss@example.com', undefined, SLOW);

    const bossRow = rowOf('boss@example.com');
    expect(within(bossRow).queryByRole('link', { name: /^Edit/ })).toBeNull();
    expect(within(bossRow).getByRole('link', { name: 'View Boss' })).toBeInTheDocument();
    const refusedDelete = within(bossRow).getByRole('button', { name: 'Delete Boss' });
    expect(refusedDelete).toBeDisabled();
    expect(
      within(bossRow)
        .getAllByRole('button')
        .filter((b) => !b.hasAttribute('disabled')),
    ).toHaveLength(
      0, // "View" is a link shaped as a button, not a button inside a link
    );
    await events.hover(within(bossRow).getByTestId('resource-delete-refused'));
    expect(await screen.findByRole('tooltip', undefined, SLOW)).toHaveTextContent(STRONGER);

    // a record within reach keeps both
    const row = rowOf('account6@example.com');
    expect(within(row).getByRole('link', { name: 'Edit Account 6' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Delete Account 6' })).toBeEnabled();
    // the role and branch are the row's own names: no other resource is read to name them
    expect(within(row).getByText('Clerk')).toBeInTheDocument();
    expect(within(row).getByText('MK Mong Kok')).toBeInTheDocument();
    expect(calls.filter((c) => c.url !== '/api/csrf-token' && !c.url.startsWith('/api/users?'))).toEqual([]);
  });

  // a delete refused after the list was read (the account became an admin meanwhile) is a browser journey:
  // e2e/accounts-admin-journeys.ts, 'access rules', in both languages
});

describe('a user record out of reach', () => {
  it('opens read-only with the explanation: nothing to type, no save, no delete, no password reset', async () => {
    const { events } = setup('/settings/users/9', { 'GET /api/users/9': fakeResponse(200, boss) });
    const note = await screen.findByTestId('resource-read-only', undefined, SLOW);
    expect(note).toHaveTextContent(STRONGER);
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByLabelText('Email')).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Admin' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Save/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();

    await events.click(screen.getByRole('tab', { name: 'Password and 2FA' }));
    expect(await screen.findByTestId('user-two-factor-section', undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('user-password-section')).toBeNull();
  });

  it('a save refused with 403 insufficient_rights shows the refusal on the page in zh_HK, without /error-403', async () => {
    let record = account(5);
    const { calls, router, events } = setup(
      '/settings/users/5',
      {
        'GET /api/users/5': () => fakeResponse(200, record),
        'PUT /api/users/5': () => {
          // someone made the account an admin meanwhile: the server refuses, the record is out of reach now
          record = account(5, { is_admin: true, allowed_actions: [], refusal: 'accountStronger' });
          return fakeResponse(403, {
            message: STRONGER,
            code: 'insufficient_rights',
            message_key: 'accountStronger',
          });
        },
      },
      { language: 'zh_HK' },
    );
    const name = await screen.findByLabelText('姓名', undefined, SLOW);
    expect(screen.queryByTestId('resource-read-only')).toBeNull();
    await events.clear(name);
    await events.type(name, 'Renamed');
    await events.click(screen.getByRole('button', { name: /儲\s*存/ }));

    const refusal = await screen.findByTestId('resource-form-error', undefined, SLOW);
    expect(refusal).toHaveTextContent(STRONGER_ZH);
    expect(refusal.textContent).not.toMatch(/[A-Za-z]{3}/);
    expect(router.state.location.pathname).toBe('/settings/users/5');
    expect(screen.queryByText('Denied')).toBeNull();
    expect(writes(calls, 'PUT')).toHaveLength(1);

    // the record, read again, is shown as it is now: read-only, saying why
    expect(await screen.findByTestId('resource-read-only', undefined, SLOW)).toHaveTextContent(STRONGER_ZH);
    expect(screen.getByLabelText('姓名')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /儲\s*存/ })).toBeNull();
    expect(router.state.location.pathname).toBe('/settings/users/5');
  });

  it('one’s own email and, for a non-admin, the admin flag are locked, saying where they change', async () => {
    setup('/settings/users/2', {
      'GET /api/users/2': fakeResponse(200, account(2, { name: 'Manager', email: manager.email })),
    });
    const email = await screen.findByLabelText('Email', undefined, SLOW);
    expect(email).toBeDisabled();
    expect(screen.getByText(/Change your own email address on your profile/)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Admin' })).toBeDisabled();
    expect(screen.getByText(/Only an admin can make a user an admin/)).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeEnabled();
    expect(screen.getByRole('button', { name: /Save/ })).toBeEnabled();
  });
});

describe('a read-only staff user (only branches.view and users.view)', () => {
  const viewer = staffUser({
    id: 12,
    name: 'Viewer',
    email: 'viewer@example.com',
    is_admin: false,
    language: 'en',
    branch_id: 1,
    role: { id: 6, name: 'Viewer', data_scope: 'all' },
    permissions: ['branches.view', 'users.view'],
    two_factor_enabled: false,
  });

  it('sees the company in the branches list and the role and branch in the users list by name, never #id', async () => {
    initI18n('en');
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/branches': fakeResponse(200, {
        items: [
          {
            id: 1,
            code: 'MK',
            company_id: 3,
            company_name: 'HQ Head Office Ltd',
            name_en: 'Mong Kok',
            name_zh: '旺角',
            phone: null,
            email: null,
            is_active: true,
            allowed_actions: [],
            refusal: null,
          },
        ],
        total: 1,
        page: 1,
        per_page: 20,
      }),
      'GET /api/users': fakeResponse(200, {
        items: [account(6, { role_id: 4, role_name: 'Clerk', branch_id: 1, allowed_actions: [] })],
        total: 1,
        page: 1,
        per_page: 20,
      }),
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(viewer));
    const options = { kind: 'backoffice' as const, store };
    const { router } = renderScreens(
      store,
      [
        {
          path: 'settings/branches',
          loader: makeLoader(entry('/settings/branches'), options),
          element: <ResourceListPage config={branchesConfig} />,
        },
        {
          path: 'settings/users',
          loader: makeLoader(entry('/settings/users'), options),
          element: <ResourceListPage config={usersConfig} />,
        },
        { path: 'error-403', element: <p>Denied</p> },
      ],
      '/settings/branches',
    );
    const branch = (await screen.findByText('Mong Kok', undefined, SLOW)).closest('tr') as HTMLElement;
    expect(within(branch).getByText('HQ Head Office Ltd')).toBeInTheDocument();
    expect(branch.textContent).not.toMatch(/#\d/);

    await router.navigate('/settings/users');
    const user = (await screen.findByText('account6@example.com', undefined, SLOW)).closest(
      'tr',
    ) as HTMLElement;
    expect(within(user).getByText('Clerk')).toBeInTheDocument();
    expect(within(user).getByText('MK Mong Kok')).toBeInTheDocument();
    expect(user.textContent).not.toMatch(/#\d/);
    expect(screen.queryByText('Denied')).toBeNull();
    // the names are the rows' own: nothing a viewer may not read (another resource's form data) is asked for
    expect(calls.filter((c) => /\/create|\/lookup|\/api\/(roles|companies)/.test(c.url))).toEqual([]);
  });
});

// the server sends the reason's key (`refusal`), never its English
describe('records out of reach: the note gives the server’s reason, in the interface language', () => {
  it.each([
    ['the role the user holds', 'roleOwn', 'serverMessages.roleOwn'],
    ['a role with rights the user lacks', 'roleStronger', 'serverMessages.roleStronger'],
    ['a role held in other branches', 'roleOtherBranches', 'serverMessages.roleOtherBranches'],
  ])('%s', async (_what, refusal, key) => {
    await initI18n('zh_HK');
    const t = i18next.getFixedT('zh_HK');
    const note = refusalNote({ id: 8, allowed_actions: [], refusal }, t);
    expect(note).toBe(t(key));
    // Chinese words: neither the key, nor its English, nor `serverMessages.<key>` (a translation missing)
    expect(note).not.toMatch(/[A-Za-z]/);
  });

  it('without a reason (the permission is missing) says so in general words', async () => {
    await initI18n('en');
    const t = i18next.getFixedT('en');
    expect(refusalNote({ id: 8, allowed_actions: [] }, t)).toBe(t('resource.notAllowed'));
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreens } from '../../test/render-screens';
import { z } from 'zod';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { readRecent } from './recent-records';
import { ResourceFormPage } from './resource-form-page';
import { ResourceListPage } from './resource-list-page';
import { exportUrl, nextListQuery } from './resource-query';
import { resourceRoutes } from './resource-routes';
import type { ResourceConfig } from './types';
import { staffUser } from '../../test/fixtures';

jest.setTimeout(120_000);

// antd renders slowly in jsdom on a busy machine: a generous wait, not a speed target.
const SLOW = { timeout: 30_000 };

const ZThing = z.strictObject({
  code: z.string().trim().min(1).max(10),
  name_en: z.string().trim().min(1).max(200),
});

const config: ResourceConfig = {
  name: 'thing',
  apiPath: '/api/things',
  routePath: '/things',
  module: 'settings',
  titleKey: 'resource.details',
  columns: [
    { key: 'code', titleKey: 'resource.audit.time', sortable: true },
    { key: 'name_en', titleKey: 'resource.view' },
  ],
  filters: [
    {
      name: 'is_active',
      labelKey: 'resource.actions',
      type: 'select',
      options: [{ value: 'true', label: 'yes' }],
    },
  ],
  searchable: true,
  exportable: true,
  recordTitle: (row) => String(row.name_en),
  form: {
    create: ZThing,
    update: ZThing.partial(),
    fields: [
      { name: 'code', labelKey: 'resource.search', input: { type: 'text' } },
      { name: 'name_en', labelKey: 'resource.view', input: { type: 'text' } },
    ],
  },
};

const admin = staffUser({
  id: 7,
  name: 'Admin',
  email: 'a@example.com',
  is_admin: true,
  branch_id: 1,
  two_factor_enabled: true,
});

function page(n: number, total = 45) {
  const items = Array.from({ length: Math.min(20, total - (n - 1) * 20) }, (_, i) => ({
    id: (n - 1) * 20 + i + 1,
    code: `C${(n - 1) * 20 + i + 1}`,
    name_en: `Thing ${(n - 1) * 20 + i + 1}`,
  }));
  return { items, total, page: n, per_page: 20 };
}

function setup(
  path: string,
  routes: Record<string, Parameters<typeof installFetch>[0][string]>,
  screenConfig: ResourceConfig = config,
) {
  const calls = installFetch({ 'GET /api/csrf-token': fakeResponse(200, { token: 't' }), ...routes });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(admin as never));
  const entries = resourceRoutes({
    path: '/things',
    api: '/api/things',
    module: 'settings',
    titleKey: 'resource.details',
    list: async () => ({ default: () => null }),
    form: async () => ({ default: () => null }),
  });
  const [listEntry, createEntry, editEntry] = entries;
  const { router, user } = renderScreens(
    store,
    [
      {
        path: 'things',
        loader: makeLoader(listEntry, { kind: 'backoffice', store }),
        element: <ResourceListPage config={config} />,
      },
      {
        path: 'things/create',
        loader: makeLoader(createEntry, { kind: 'backoffice', store }),
        element: <ResourceFormPage config={screenConfig} />,
      },
      {
        path: 'things/:id',
        loader: makeLoader(editEntry, { kind: 'backoffice', store }),
        element: <ResourceFormPage config={screenConfig} />,
      },
      { path: 'elsewhere', element: <p>Elsewhere</p> },
    ],
    path,
  );
  return { calls, store, router, user };
}

const lastGet = (calls: FetchCall[], prefix: string) =>
  new URL(
    calls.filter((c) => (c.init.method ?? 'GET') === 'GET' && c.url.startsWith(prefix)).at(-1)!.url,
    'http://x',
  );

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('list query building', () => {
  it('drops empty values, goes back to page one on a new search, filter or sort', () => {
    expect(nextListQuery({ page: '3', q: 'a' }, { q: 'b' })).toEqual({ q: 'b' });
    expect(nextListQuery({ page: '3', q: 'a' }, { q: 'a' })).toEqual({ page: '3', q: 'a' });
    expect(nextListQuery({ q: 'a', sort: 'x' }, { sort: null })).toEqual({ q: 'a' });
    expect(nextListQuery({ q: 'a' }, { page: 2 })).toEqual({ q: 'a', page: '2' });
    expect(nextListQuery({ page: '2' }, { page: 1 })).toEqual({});
    expect(nextListQuery({ page: '2', year: '2025' }, { year: '2026' })).toEqual({ year: '2026' });
  });

  it('exports the current filter, search and sort without the paging', () => {
    expect(exportUrl('/api/things', { q: 'a b', page: '3', sort: '-code', year: '2026' }, 'xlsx')).toBe(
      '/api/things?q=a+b&sort=-code&year=2026&format=xlsx',
    );
    expect(exportUrl('/api/things', { q: 'a' }, 'csv', 'zh_HK')).toBe(
      '/api/things?q=a&format=csv&lang=zh_HK',
    );
  });
});

describe('generic list page', () => {
  it('shows a page of 20, searches, pages and sorts through the URL query, links the exports', async () => {
    const { calls, user, router } = setup('/things', {
      'GET /api/things': (call) =>
        fakeResponse(200, page(Number(new URL(call.url, 'http://x').searchParams.get('page') ?? 1))),
    });
    expect(await screen.findByText('Thing 1', undefined, SLOW)).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(21);
    expect(lastGet(calls, '/api/things').searchParams.get('per_page')).toBe('20');

    await user.click(screen.getByRole('listitem', { name: '2' }));
    expect(await screen.findByText('Thing 21', undefined, SLOW)).toBeInTheDocument();
    expect(lastGet(calls, '/api/things').searchParams.get('page')).toBe('2');

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'widget' } });
    fireEvent.keyDown(screen.getByRole('searchbox'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(router.state.location.search).toBe('?q=widget'), SLOW);
    await waitFor(() => expect(lastGet(calls, '/api/things').searchParams.get('q')).toBe('widget'), SLOW);
    expect(lastGet(calls, '/api/things').searchParams.get('page')).toBeNull();

    await waitFor(
      () =>
        expect(screen.getByRole('link', { name: /Export CSV/ })).toHaveAttribute(
          'href',
          '/api/things?q=widget&format=csv&lang=en',
        ),
      SLOW,
    );
    fireEvent.click(screen.getByRole('columnheader', { name: /Time/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=widget&sort=code'), SLOW);
    await waitFor(() => {
      expect(screen.getByRole('link', { name: /Export XLSX/ })).toHaveAttribute(
        'href',
        '/api/things?q=widget&sort=code&format=xlsx&lang=en',
      );
      expect(screen.getByRole('link', { name: /Export CSV/ })).toHaveAttribute(
        'href',
        '/api/things?q=widget&sort=code&format=csv&lang=en',
      );
    }, SLOW);
  });

  it('remembers the screen in the user’s recent list', async () => {
    setup('/things', { 'GET /api/things': fakeResponse(200, page(1, 1)) });
    await screen.findByText('Thing 1', undefined, SLOW);
    expect(readRecent(7).map((r) => r.path)).toEqual(['/things']);
  });

  it('shows a refused delete (409) in words with the reference counts', async () => {
    const { user } = setup('/things', {
      'GET /api/things': fakeResponse(200, page(1, 1)),
      'DELETE /api/things/1': fakeResponse(409, {
        message: 'This record is still in use and cannot be deleted.',
        code: 'referenced',
        references: { districts: 2, orders: 1 },
      }),
    });
    await screen.findByText('Thing 1', undefined, SLOW);
    await user.click(screen.getByRole('button', { name: /Delete Thing 1/ }));
    await user.click(
      within(await screen.findByRole('tooltip', undefined, SLOW)).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await screen.findByText(
        'This record cannot be deleted: it is still used by 2 district(s), 1 invoice(s).',
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
  });
});

describe('generic form page', () => {
  it('puts server field errors on their fields and the duplicate message on the duplicate field', async () => {
    let answer = fakeResponse(422, {
      message: 'The given data was invalid.',
      code: 'validation',
      errors: { name_en: ['Letters and digits only.'] },
      error_keys: { name_en: [{ key: 'lettersDigits' }] },
    });
    const { user, calls } = setup('/things/create', {
      'GET /api/things/create': fakeResponse(200, { defaults: { code: 'A1' } }),
      'POST /api/things': () => answer,
    });
    const code = await screen.findByLabelText('Search', undefined, SLOW);
    expect(code).toHaveValue('A1');
    fireEvent.change(screen.getByLabelText('View'), { target: { value: 'Widget' } });
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('Letters and digits only.', undefined, SLOW)).toBeInTheDocument();
    const post = calls.find((c) => c.init.method === 'POST' && c.url === '/api/things')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ code: 'A1', name_en: 'Widget' });

    answer = fakeResponse(422, {
      message: 'This Data is already exist.',
      code: 'duplicate',
      errors: { code: ['This Data is already exist.'] },
      error_keys: { code: [{ key: 'duplicate' }] },
    });
    await user.click(screen.getByRole('button', { name: /Save/ }));
    const item = (await screen.findByText('This Data is already exist.', undefined, SLOW)).closest(
      '.ant-form-item',
    )!;
    expect(within(item as HTMLElement).getByLabelText('Search')).toBeInTheDocument();
  });

  it('shows the duplicate message in Chinese from the error code', async () => {
    initI18n('zh_HK');
    const { user } = setup('/things/create', {
      'GET /api/things/create': fakeResponse(200, { defaults: { code: 'A1', name_en: 'X' } }),
      'POST /api/things': fakeResponse(422, {
        message: 'This Data is already exist.',
        code: 'duplicate',
        errors: { code: ['This Data is already exist.'] },
        error_keys: { code: [{ key: 'duplicate' }] },
      }),
    });
    await screen.findByDisplayValue('A1', undefined, SLOW);
    await user.click(screen.getByRole('button', { name: /儲存/ }));
    expect(await screen.findByText('此資料已存在。', undefined, SLOW)).toBeInTheDocument();
  });

  it('creates the record once when the form is sent again while the first save is under way (Enter twice)', async () => {
    // the server's answer to the first save is held until the form has been sent a second time
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const created = fakeResponse(201, { id: 9, code: 'A1', name_en: 'X' });
    const held = { ...created, text: async () => (await answered, created.text()) };
    const { calls } = setup('/things/create', {
      'GET /api/things/create': fakeResponse(200, { defaults: { code: 'A1', name_en: 'X' } }),
      'POST /api/things': () => ({ ...held, clone: () => held }),
      'GET /api/things': fakeResponse(200, page(1, 1)),
      'GET /api/things/9': fakeResponse(200, { id: 9, code: 'A1', name_en: 'X' }),
    });
    await screen.findByDisplayValue('A1', undefined, SLOW);
    const form = screen.getByRole('button', { name: /Save/ }).closest('form')!;
    const posts = () => calls.filter((c) => c.init.method === 'POST');
    fireEvent.submit(form);
    await waitFor(() => expect(posts()).toHaveLength(1), SLOW);
    fireEvent.submit(form);
    await act(async () => {
      answer();
      await answered;
    });
    expect(await screen.findByText('Saved.', undefined, SLOW)).toBeInTheDocument();
    expect(posts()).toHaveLength(1);
  });

  it('checks the shared schema before sending: a required field left empty is not posted', async () => {
    const { user, calls } = setup('/things/create', { 'GET /api/things/create': fakeResponse(200, {}) });
    await screen.findByLabelText('Search', undefined, SLOW);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'TOO-LONG-CODE' } });
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(
      await screen.findByText('May not be longer than 10 characters.', undefined, SLOW),
    ).toBeInTheDocument();
    expect(await screen.findByText('This field is required', undefined, SLOW)).toBeInTheDocument();
    expect(calls.some((c) => c.init.method === 'POST')).toBe(false);
  });

  it('sets the unsaved flag on a change; the guard asks before leaving', async () => {
    const { store, router } = setup('/things/3', {
      'GET /api/things/3': fakeResponse(200, { id: 3, code: 'C3', name_en: 'Thing 3' }),
    });
    fireEvent.change(await screen.findByLabelText('View', undefined, SLOW), { target: { value: 'Renamed' } });
    expect(store.getState().app.unsavedChanges).toBe(true);
    await act(() => router.navigate('/elsewhere'));
    expect(await screen.findByText('You have unsaved changes', undefined, SLOW)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/things/3');
  });

  it('saves an edit with PUT and clears the flag', async () => {
    const { store, router, user, calls } = setup('/things/3', {
      'GET /api/things/3': fakeResponse(200, { id: 3, code: 'C3', name_en: 'Thing 3' }),
      'PUT /api/things/3': fakeResponse(200, { id: 3, code: 'C3', name_en: 'Renamed' }),
      'GET /api/things': fakeResponse(200, page(1, 1)),
    });
    fireEvent.change(await screen.findByLabelText('View', undefined, SLOW), { target: { value: 'Renamed' } });
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/things'), SLOW);
    expect(store.getState().app.unsavedChanges).toBe(false);
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({ code: 'C3', name_en: 'Renamed' });
  });

  // a read-only field shown only on a record of which `shownFor` holds (a void invoice's reason)
  const withReason: ResourceConfig = {
    ...config,
    form: {
      ...config.form!,
      fields: [
        ...config.form!.fields,
        {
          name: 'reason',
          labelKey: 'resource.audit.time',
          readOnly: true,
          shownFor: (record) => record.status === 'void',
          input: { type: 'custom', render: ({ record }) => <span>{String(record?.reason)}</span> },
        },
      ],
    },
  };

  it('shows a field given `shownFor` on a record of which it holds', async () => {
    const row = { id: 3, code: 'C3', name_en: 'Thing 3', status: 'void', reason: 'Typo' };
    setup('/things/3', { 'GET /api/things/3': fakeResponse(200, row) }, withReason);
    expect(await screen.findByText('Typo', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('Time (Hong Kong)')).toBeTruthy();
  });

  it('leaves a field given `shownFor` out of a record of which it does not hold, and out of a new one', async () => {
    const row = { id: 4, code: 'C4', name_en: 'Thing 4', status: 'issued', reason: 'Old' };
    const { router } = setup(
      '/things/4',
      {
        'GET /api/things/4': fakeResponse(200, row),
        'GET /api/things/create': fakeResponse(200, { defaults: {} }),
      },
      withReason,
    );
    expect(await screen.findByDisplayValue('C4', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByText('Time (Hong Kong)')).toBeNull();
    expect(screen.queryByText('Old')).toBeNull();
    await act(() => router.navigate('/things/create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/things/create'), SLOW);
    await waitFor(() => expect(screen.queryByDisplayValue('C4')).toBeNull(), SLOW);
    expect(await screen.findByLabelText('Search', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByText('Time (Hong Kong)')).toBeNull();
  });

  it('opens a record its state keeps (`locked`) read-only, saying why in the user’s language, no admin needed', async () => {
    const row = { id: 5, code: 'C5', name_en: 'Thing 5', allowed_actions: ['unvoid'], refusal: null };
    setup('/things/5', { 'GET /api/things/5': fakeResponse(200, { ...row, locked: 'orderVoidLocked' }) });
    const note = await screen.findByTestId('resource-read-only', undefined, SLOW);
    expect(note).toHaveTextContent('A void invoice cannot be changed: unvoid it first.');
    expect(note).not.toHaveTextContent('Ask an admin');
    expect(screen.getByDisplayValue('C5')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Save/ })).toBeNull();
  });

  it('says the access rules’ refusal with the admin hint (a record kept from this user, not by its state)', async () => {
    const row = { id: 6, code: 'C6', name_en: 'Thing 6', allowed_actions: [], refusal: 'accountStronger' };
    setup('/things/6', { 'GET /api/things/6': fakeResponse(200, row) });
    const note = await screen.findByTestId('resource-read-only', undefined, SLOW);
    expect(note).toHaveTextContent('Ask an admin');
    expect(screen.getByDisplayValue('C6')).toBeDisabled();
  });

  it('refuses a delete still referenced with the reference message', async () => {
    const { user } = setup('/things/3', {
      'GET /api/things/3': fakeResponse(200, { id: 3, code: 'C3', name_en: 'Thing 3' }),
      'DELETE /api/things/3': fakeResponse(409, {
        message: 'x',
        code: 'referenced',
        references: { districts: 4 },
      }),
    });
    await screen.findByDisplayValue('Thing 3', undefined, SLOW);
    await user.click(screen.getByRole('button', { name: /Delete/ }));
    await user.click(
      within(await screen.findByRole('tooltip', undefined, SLOW)).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await screen.findByText(
        'This record cannot be deleted: it is still used by 4 district(s).',
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
  });
});

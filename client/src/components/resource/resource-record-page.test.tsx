import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { z } from 'zod';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { SLOW, staffUser } from '../../test/fixtures';
import { renderScreens } from '../../test/render-screens';
import { childTableTab, formTab, ResourceRecordPage } from './resource-record-page';
import { recordTabRoutes } from './resource-routes';
import type { ResourceConfig } from './types';

jest.setTimeout(120_000);

const ZThing = z.strictObject({ name_en: z.string().trim().min(1).max(200) });

const thingConfig: ResourceConfig = {
  name: 'thing',
  apiPath: '/api/things',
  routePath: '/things',
  module: 'settings',
  titleKey: 'resource.details',
  columns: [{ key: 'name_en', titleKey: 'resource.view' }],
  recordTitle: (row) => String(row.name_en),
  form: {
    create: ZThing,
    update: ZThing.partial(),
    fields: [{ name: 'name_en', labelKey: 'resource.view', input: { type: 'text' } }],
  },
};

/** A child resource of a thing: its parts, at `/api/things/{id}/parts`. */
const partConfig: ResourceConfig = {
  name: 'thing-part',
  apiPath: (p) => `/api/things/${p.id}/parts`,
  routePath: (p) => `/things/parts/${p.id}`,
  module: 'settings',
  titleKey: 'resource.history',
  columns: [{ key: 'label', titleKey: 'resource.audit.changes' }],
  searchable: true,
  recordTitle: (row) => String(row.label),
};

const tabs = [
  formTab(thingConfig),
  childTableTab({ key: 'parts', labelKey: 'resource.history', config: partConfig, child: 'parts' }),
];

const admin = staffUser({
  id: 7,
  name: 'Admin',
  email: 'a@example.com',
  is_admin: true,
  branch_id: 1,
  two_factor_enabled: true,
});

const gets = (calls: FetchCall[], path: string, tab?: string) =>
  calls.filter((c) => {
    const url = new URL(c.url, 'http://x');
    return (
      (c.init.method ?? 'GET') === 'GET' &&
      url.pathname === path &&
      (tab === undefined || url.searchParams.get('tab') === tab)
    );
  });

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('record page with tabs in the URL', () => {
  it('routes one path per tab, guarded by the view permission', () => {
    const routes = recordTabRoutes({
      base: '/things',
      tabs: ['basic', { key: 'parts', permission: 'settings.update' }],
      module: 'settings',
      titleKey: 'resource.details',
      page: async () => ({ default: () => null }),
    });
    expect(routes.map((r) => [r.path, r.permission])).toEqual([
      ['/things/basic/:id', 'settings.view'],
      ['/things/parts/:id', 'settings.update'],
    ]);
    expect(routes.every((r) => r.access === 'signed-in' && !r.data)).toBe(true);
  });

  it('switches tabs through the URL, embeds the child list, and a save or delete reads again what shows it', async () => {
    let name = 'Thing 3';
    let parts = [
      { id: 1, label: 'Part one' },
      { id: 2, label: 'Part two' },
    ];
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/things/3': () => fakeResponse(200, { id: 3, name_en: name }),
      'PUT /api/things/3': (call) => {
        name = (JSON.parse(String(call.init.body)) as { name_en: string }).name_en;
        return fakeResponse(200, { id: 3, name_en: name });
      },
      'GET /api/things/3/parts': () =>
        fakeResponse(200, { items: parts, total: parts.length, page: 1, per_page: 20 }),
      'DELETE /api/things/3/parts/1': () => {
        parts = parts.filter((p) => p.id !== 1);
        return fakeResponse(204);
      },
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(admin as never));
    const entries = recordTabRoutes({
      base: '/things',
      tabs: ['basic', 'parts'],
      module: 'settings',
      titleKey: 'resource.details',
      page: async () => ({ default: () => null }),
    });
    const { router, user } = renderScreens(
      store,
      entries.map((entry) => ({
        path: entry.path.slice(1),
        loader: makeLoader(entry, { kind: 'backoffice', store }),
        element: <ResourceRecordPage config={thingConfig} base="/things" tabs={tabs} />,
      })),
      '/things/basic/3',
    );

    // the first tab: the record's form, from `GET /api/things/3?tab=basic`
    const field = await screen.findByLabelText('View', undefined, SLOW);
    await waitFor(() => expect(field).toHaveValue('Thing 3'), SLOW);
    expect(screen.getByRole('heading', { name: 'Thing 3' })).toBeInTheDocument();
    expect(gets(calls, '/api/things/3', 'basic')).toHaveLength(1);

    // the second tab: a path segment, the child list embedded with its own (local) query
    await user.click(screen.getByRole('tab', { name: 'History' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/things/parts/3'), SLOW);
    expect(await screen.findByText('Part one', undefined, SLOW)).toBeInTheDocument();
    expect(gets(calls, '/api/things/3', 'parts')).toHaveLength(1);
    expect(new URL(gets(calls, '/api/things/3/parts')[0].url, 'http://x').searchParams.get('per_page')).toBe(
      '20',
    );
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'one' } });
    fireEvent.keyDown(screen.getByRole('searchbox'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(
      () =>
        expect(
          new URL(gets(calls, '/api/things/3/parts').at(-1)!.url, 'http://x').searchParams.get('q'),
        ).toBe('one'),
      SLOW,
    );
    expect(router.state.location.search).toBe('');

    // a child deleted: the embedded list is read again by its tag
    const before = gets(calls, '/api/things/3/parts').length;
    await user.click(screen.getByRole('button', { name: /Delete Part one/ }));
    await user.click(
      within(await screen.findByRole('tooltip', undefined, SLOW)).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByText('Part one')).toBeNull(), SLOW);
    expect(gets(calls, '/api/things/3/parts').length).toBeGreaterThan(before);

    // back: the first tab again
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/things/basic/3'), SLOW);
    const again = await screen.findByLabelText('View', undefined, SLOW);

    // a save stays on the record, which is read again and shows what was saved
    fireEvent.change(again, { target: { value: 'Renamed' } });
    const recordReads = gets(calls, '/api/things/3').length;
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Renamed' })).toBeInTheDocument(), SLOW);
    expect(gets(calls, '/api/things/3').length).toBeGreaterThan(recordReads);
    expect(router.state.location.pathname).toBe('/things/basic/3');
    expect(store.getState().app.unsavedChanges).toBe(false);
  });
});

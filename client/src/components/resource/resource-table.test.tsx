import { cleanup, screen, waitFor } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { SLOW, staffUser } from '../../test/fixtures';
import { renderScreens } from '../../test/render-screens';
import { ResourceListPage } from './resource-list-page';
import { formatTotal } from './resource-query';
import { tableSettingsKey } from './resource-toolbar';
import type { ResourceConfig } from './types';

jest.setTimeout(120_000);

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
    // a declared date as a range: its two ends
    { name: 'time_from', labelKey: 'resource.audit.time', rangeEnd: 'from', type: 'date' },
    { name: 'time_to', labelKey: 'resource.audit.time', rangeEnd: 'to', type: 'date' },
  ],
  searchable: true,
  exportable: true,
  recordTitle: (row) => String(row.name_en),
};

const admin = staffUser({
  id: 7,
  name: 'Admin',
  email: 'a@example.com',
  is_admin: true,
  branch_id: 1,
  two_factor_enabled: true,
});

const rows = [{ id: 1, code: 'C1', name_en: 'Thing 1' }];

function setup(path: string, answer: Record<string, unknown>) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/things': fakeResponse(200, { items: rows, page: 1, per_page: 20, ...answer }),
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(admin as never));
  const { router, user } = renderScreens(
    store,
    [{ path: 'things', element: <ResourceListPage config={config} /> }],
    path,
  );
  return { calls, router, user };
}

const listCalls = (calls: FetchCall[]) =>
  calls.filter((c) => c.url.startsWith('/api/things')).map((c) => new URL(c.url, 'http://x').searchParams);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  localStorage.clear();
});

describe('list filters', () => {
  it('labels the two ends of a date range apart, in the screen language', async () => {
    setup('/things', { total: 1 });
    expect(await screen.findByLabelText('Time (Hong Kong): from', undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByLabelText('Time (Hong Kong): to')).toBeInTheDocument();
    cleanup();
    initI18n('zh_HK');
    setup('/things', { total: 1 });
    const zh = (await screen.findAllByLabelText(/：由$/, undefined, SLOW))[0];
    expect(zh.getAttribute('placeholder')).toMatch(/^.+：由$/);
    expect(screen.getAllByLabelText(/：至$/)).toHaveLength(1);
  });
});

describe('list toolbar', () => {
  it('formats the total, capped as 10,000+', () => {
    expect(formatTotal(1234, false, 'en')).toBe('1,234');
    expect(formatTotal(10000, true, 'zh_HK')).toBe('10,000+');
  });

  it('says the total, refreshes, resets filters and keeps the page size', async () => {
    const { calls, router, user } = setup('/things?q=a&sort=code&is_active=true&per_page=50', {
      total: 10000,
      total_capped: true,
    });
    expect(await screen.findByText('Total 10,000+', undefined, SLOW)).toBeInTheDocument();
    expect(listCalls(calls)[0].get('per_page')).toBe('50');

    const before = listCalls(calls).length;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(listCalls(calls).length).toBe(before + 1), SLOW);

    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?per_page=50'), SLOW);
    await waitFor(() => {
      const last = listCalls(calls).at(-1)!;
      expect([last.get('q'), last.get('sort'), last.get('is_active'), last.get('per_page')]).toEqual([
        null,
        null,
        null,
        '50',
      ]);
    }, SLOW);
    expect(screen.getByRole('button', { name: 'Reset filters' })).toBeDisabled();
  });

  it('hides a column and changes the density, remembered per user and list', async () => {
    const { user } = setup('/things', { total: 1 });
    await screen.findByText('Thing 1', undefined, SLOW);
    expect(screen.getByText('Total 1')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'View' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Column settings' }));
    await user.click(await screen.findByRole('checkbox', { name: 'View' }, SLOW));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'View' })).toBeNull(), SLOW);
    expect(screen.queryByText('Thing 1')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Density' }));
    await user.click(await screen.findByText('Compact', undefined, SLOW));
    await waitFor(() => expect(document.querySelector('.ant-table-small')).not.toBeNull(), SLOW);
    expect(JSON.parse(localStorage.getItem(tableSettingsKey(7, 'thing'))!)).toEqual({
      hidden: ['name_en'],
      density: 'small',
    });

    // another visit: the same columns and density
    cleanup();
    setup('/things', { total: 1 });
    await screen.findByText('C1', undefined, SLOW);
    expect(screen.queryByRole('columnheader', { name: 'View' })).toBeNull();
    expect(document.querySelector('.ant-table-small')).not.toBeNull();
  });
});

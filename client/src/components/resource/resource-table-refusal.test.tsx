import { screen, waitFor, within } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { SLOW, staffUser } from '../../test/fixtures';
import { renderScreens } from '../../test/render-screens';
import { ResourceListPage } from './resource-list-page';
import type { ResourceConfig } from './types';

jest.setTimeout(120_000);

const config: ResourceConfig = {
  name: 'thing',
  apiPath: '/api/things',
  routePath: '/things',
  module: 'settings',
  titleKey: 'resource.details',
  columns: [{ key: 'name_en', titleKey: 'resource.view' }],
  filters: [{ name: 'date_from', labelKey: 'resource.actions', type: 'date' }],
  searchable: true,
  recordTitle: (row) => String(row.name_en),
};

const LONG = 'a'.repeat(300);

/** The server's refusal of a query parameter, as the API words it (api.md: 422 with `error_keys`). */
function refusal(field: string, key: string, params?: Record<string, string>) {
  return fakeResponse(422, {
    message: 'The given data was invalid.',
    code: 'validation',
    errors: { [field]: ['refused'] },
    error_keys: { [field]: [{ key, ...(params ? { params } : {}) }] },
  });
}

function setup(path: string) {
  installFetch({
    'GET /api/things': (call) => {
      const query = new URL(call.url, 'http://x').searchParams;
      if ((query.get('q') ?? '').length > 200) return refusal('q', 'tooLong', { max: '200' });
      if (query.get('date_from') === '中文') return refusal('date_from', 'invalidDate');
      return fakeResponse(200, {
        items: [{ id: 1, name_en: 'Thing 1' }],
        page: 1,
        per_page: 20,
        total: 1,
      });
    },
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ is_admin: true })));
  return renderScreens(store, [{ path: 'things', element: <ResourceListPage config={config} /> }], path);
}

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  localStorage.clear();
});

describe('a list query the server refuses (422)', () => {
  it('says so beside the search box, and the list stays usable', async () => {
    const { router, user } = setup(`/things?q=${LONG}`);
    const message = await screen.findByTestId('query-refused-q', {}, SLOW);
    expect(message).toHaveTextContent('May not be longer than 200 characters.');
    expect(screen.queryByTestId('resource-load-failed')).not.toBeInTheDocument();
    // beside its control: in the search box's own form item
    const item = message.closest('.ant-form-item')!;
    expect(within(item as HTMLElement).getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();

    const search = screen.getByRole('searchbox', { name: 'Search' });
    await user.clear(search);
    await user.type(search, 'thing{Enter}');
    expect(await screen.findByText('Thing 1', {}, SLOW)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=thing');
    await waitFor(() => expect(screen.queryByTestId('query-refused-q')).not.toBeInTheDocument());
  });

  it('says a refused filter beside that filter', async () => {
    setup('/things?date_from=中文');
    const message = await screen.findByTestId('query-refused-date_from', {}, SLOW);
    expect(message).toHaveTextContent('Must be a date (YYYY-MM-DD).');
    expect(screen.queryByTestId('query-refused-q')).not.toBeInTheDocument();
    expect(screen.queryByTestId('resource-load-failed')).not.toBeInTheDocument();
  });
});

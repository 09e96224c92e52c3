import { act, screen, within } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { SLOW, staffUser } from '../../test/fixtures';
import ApiTokensPage from './api-tokens-page';

/** The API tokens screen links to the API description (GET /api/openapi.json) and shows a call with a token. */

jest.setTimeout(120_000);

const me = staffUser({
  id: 4,
  name: 'Chan Tai Man',
  email: 'chan@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: null,
  permissions: ['students.view'],
  two_factor_enabled: false,
});

function setup() {
  initI18n('en');
  installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/user/api-tokens': fakeResponse(200, { items: [], available_abilities: ['students.view'] }),
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(me));
  const entry = backofficeRoutes.routes.find((r) => r.path === '/user/api-tokens')!;
  renderScreens(
    store,
    [
      {
        path: 'user/api-tokens',
        loader: makeLoader(entry, { kind: 'backoffice', store }),
        element: <ApiTokensPage />,
      },
    ],
    '/user/api-tokens',
  );
}

beforeEach(() => resetCsrfToken());

describe('API tokens → the API description', () => {
  it('links to /api/openapi.json and shows a curl with a bearer token, in English and Chinese', async () => {
    setup();
    const card = await screen.findByTestId('api-description', undefined, SLOW);
    const link = within(card).getByRole('link', { name: 'open /api/openapi.json' });
    expect(link).toHaveAttribute('href', '/api/openapi.json');
    expect(link).toHaveAttribute('target', '_blank');
    expect(card).toHaveTextContent('curl -H "Authorization: Bearer <token>"');
    expect(card).toHaveTextContent('/api/students?per_page=5');
    await act(async () => initI18n('zh_HK'));
    expect(await within(card).findByText('API 説明', undefined, SLOW)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '開啟 /api/openapi.json' })).toHaveAttribute(
      'href',
      '/api/openapi.json',
    );
  });
});

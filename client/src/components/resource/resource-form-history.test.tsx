import { screen, within } from '@testing-library/react';
import { z } from 'zod';
import { appActions } from '../../app/app-slice';
import { makeLoader } from '../../app/routes/build-routes';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { SLOW, staffUser } from '../../test/fixtures';
import { renderScreens } from '../../test/render-screens';
import { ResourceFormPage } from './resource-form-page';
import { resourceRoutes } from './resource-routes';
import type { ResourceConfig } from './types';

jest.setTimeout(120_000);

const ZThing = z.strictObject({ name_en: z.string().trim().min(1).max(200) });

const config: ResourceConfig = {
  name: 'thing',
  apiPath: '/api/things',
  routePath: '/things',
  module: 'settings',
  titleKey: 'resource.details',
  auditEntity: 'thing',
  columns: [{ key: 'name_en', titleKey: 'resource.view' }],
  recordTitle: (row) => String(row.name_en),
  form: {
    create: ZThing,
    update: ZThing.partial(),
    fields: [{ name: 'name_en', labelKey: 'resource.view', input: { type: 'text' } }],
  },
};

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

// The history tab's table is loaded on demand (issue 15: it kept every form route near the size budget).
it("shows a record's history in its tab, the table loaded when the tab is opened", async () => {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/things/3': fakeResponse(200, { id: 3, name_en: 'Thing 3' }),
    'GET /api/audit-logs/thing/3': fakeResponse(200, {
      items: [
        {
          id: 1,
          created_at: '2026-01-02T03:04:05Z',
          actor_type: 'user',
          actor_name: 'Ada Admin',
          action: 'updated',
          changes: { before: { name_en: 'Thing' }, after: { name_en: 'Thing 3' } },
        },
      ],
      total: 1,
      page: 1,
      per_page: 20,
    }),
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ id: 7, name: 'Admin', is_admin: true }) as never));
  const [, , editEntry] = resourceRoutes({
    path: '/things',
    api: '/api/things',
    module: 'settings',
    titleKey: 'resource.details',
    list: async () => ({ default: () => null }),
    form: async () => ({ default: () => null }),
  });
  const { user } = renderScreens(
    store,
    [
      {
        path: 'things/:id',
        loader: makeLoader(editEntry, { kind: 'backoffice', store }),
        element: <ResourceFormPage config={config} />,
      },
    ],
    '/things/3',
  );

  await user.click(await screen.findByRole('tab', { name: 'History' }, SLOW));
  const history = await screen.findByTestId('audit-history', undefined, SLOW);
  expect(await within(history).findByText('Ada Admin', undefined, SLOW)).toBeInTheDocument();
  expect(within(history).getByText('name_en: Thing → Thing 3')).toBeInTheDocument();
  expect(calls.some((c) => c.url.startsWith('/api/audit-logs/thing/3'))).toBe(true);
});

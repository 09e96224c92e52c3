import { screen, waitFor, within } from '@testing-library/react';
import { DECLARATIONS } from '../../../../shared/resources';
import { appActions } from '../../app/app-slice';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeLoader } from '../../app/routes/build-routes';
import { buildMenu, type MenuBranch } from '../../app/routes/menu';
import { makeStore } from '../../app/store';
import { routesFromDeclarations } from '../../components/resource/declared-routes';
import { resetCsrfToken } from '../../http/client';
import { inBusinessTime } from '../../i18n/date-time';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { STUDENT_PAGE } from '../students/student-page';
import { CATALOGUE_PAGES } from './catalogue-pages';

jest.setTimeout(120_000);

const page = (items: unknown[]) => ({ items, total: items.length, page: 1, per_page: 20 });
const PAGES = { ...CATALOGUE_PAGES, student: STUDENT_PAGE };

const event = {
  id: 3,
  event_type: 'seminar',
  event_type_label: 'Seminar',
  title_en: 'Yonsei briefing',
  title_zh: '延世大學簡介會',
  reg_start_date: '2026-11-01',
  reg_end_date: '2026-12-10',
  event_start: '2026-12-12T06:00:00.000Z',
  event_end: '2026-12-12T08:00:00.000Z',
  capacity: 10,
  registered_count: 1,
  is_active: true,
  allowed_actions: ['update', 'delete'],
  refusal: null,
};

const registration = {
  id: 21,
  special_event_id: 3,
  special_event_name: 'Yonsei briefing',
  student_id: 5,
  student_name: 'HK-2026-0001 CHAN Tai Man',
  registered_at: '2026-11-20T02:00:00.000Z',
  status: 'registered',
  allowed_actions: ['update', 'delete', 'attend', 'cancel'],
  refusal: null,
};

function setup(permissions: string[], routes: Record<string, unknown>) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/options/event_type': fakeResponse(200, page([])),
    ...routes,
  } as never);
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ id: 7, branch_id: 1, permissions })));
  return { calls, store };
}

async function open(store: ReturnType<typeof makeStore>, path: string) {
  const entries = routesFromDeclarations(DECLARATIONS, PAGES);
  const screens = await Promise.all(
    entries.map(async (entry) => {
      const Page = (await entry.page!()).default;
      return {
        path: entry.path.slice(1),
        loader: makeLoader(entry, { kind: 'backoffice', store }),
        element: <Page />,
      };
    }),
  );
  return renderScreens(store, screens, path);
}

const calledWith = (calls: FetchCall[], method: string, path: string) =>
  calls.filter((c) => (c.init.method ?? 'GET') === method && c.url.split('?')[0] === path);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  localStorage.clear();
});

describe('the catalogue’s routes and menu', () => {
  it('serve the spec’s routes: categories, services, special events with their registrations tab, quotation items', () => {
    const entries = routesFromDeclarations(DECLARATIONS, PAGES).filter((e) =>
      /^\/(products|special-events|quotations\/item)/.test(e.path),
    );
    expect(entries.map((e) => [e.path, e.permission])).toEqual([
      ['/products/categories', 'products.view'],
      ['/products/categories/create', 'products.create'],
      ['/products/categories/:id', 'products.view'],
      ['/products/products', 'products.view'],
      ['/products/products/create', 'products.create'],
      ['/products/products/:id', 'products.view'],
      ['/special-events', 'special_events.view'],
      ['/special-events/basic/create', 'special_events.create'],
      ['/special-events/basic/:id', 'special_events.view'],
      ['/special-events/registration/:id', 'special_events.view'],
      ['/special-events/registration/:id/create', 'students.create'],
      ['/special-events/registration/:id/:childId', 'students.view'],
      ['/quotations/item', 'quotation_items.view'],
      ['/quotations/item/create', 'quotation_items.create'],
      ['/quotations/item/:id', 'quotation_items.view'],
    ]);
  });

  it('group services and their categories under Services (服務及類別), quotation items under Quotations', () => {
    const menu = buildMenu(backofficeRoutes, staffUser({ is_admin: true }));
    const products = menu.find((n) => n.key === 'group:products') as MenuBranch;
    expect(products.labelKey).toBe('menu.products');
    expect(products.children.map((c) => c.path)).toEqual(['/products/products', '/products/categories']);
    const quotations = menu.find((n) => n.key === 'group:quotations') as MenuBranch;
    // the quotations themselves (issue 27) first, then their items
    expect(quotations.children.map((c) => c.path)).toEqual(['/quotations', '/quotations/item']);
    expect(menu.find((n) => 'path' in n && n.path === '/special-events')).toBeTruthy();
    const viewer = staffUser({ permissions: ['special_events.view'] });
    expect(buildMenu(backofficeRoutes, viewer).find((n) => n.key === 'group:products')).toBeUndefined();
  });
});

describe('the special events list', () => {
  it('opens on registration dates from today to 31 December, in the filter bar and the address', async () => {
    const { calls, store } = setup(['special_events.view'], {
      'GET /api/special-events': fakeResponse(200, page([event])),
    });
    const { router } = await open(store, '/special-events');
    const today = inBusinessTime(new Date()).format('YYYY-MM-DD');
    const window = { date_type: 'reg_date', start: today, end: `${today.slice(0, 4)}-12-31` };
    await waitFor(
      () => expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual(window),
      SLOW,
    );
    expect(await screen.findByRole('row', { name: /Yonsei briefing/ }, SLOW)).toBeInTheDocument();
    const asked = calledWith(calls, 'GET', '/api/special-events');
    expect(asked.length).toBeGreaterThan(0);
    // the window is asked for from the first call on
    for (const call of asked)
      expect(Object.fromEntries(new URL(call.url, 'http://x').searchParams)).toMatchObject(window);
    expect(screen.getByTestId('filter-date_type')).toHaveTextContent('Registration period');
    expect(screen.getByRole('textbox', { name: 'From' })).toHaveValue(today);
    expect(screen.getByRole('textbox', { name: 'To' })).toHaveValue(window.end);
  });

  it('keeps a window the address already names', async () => {
    const { calls, store } = setup(['special_events.view'], {
      'GET /api/special-events': fakeResponse(200, page([])),
    });
    const { router } = await open(
      store,
      '/special-events?date_type=event_date&start=2027-01-01&end=2027-03-31',
    );
    await waitFor(
      () => expect(calledWith(calls, 'GET', '/api/special-events').length).toBeGreaterThan(0),
      SLOW,
    );
    expect(router.state.location.search).toBe('?date_type=event_date&start=2027-01-01&end=2027-03-31');
    expect(await screen.findByTestId('filter-date_type', {}, SLOW)).toHaveTextContent('Event dates');
  });
});

describe('an event’s registrations', () => {
  it('lists them under the event without its own column, with the moves each allows', async () => {
    const { calls, store } = setup(
      ['special_events.view', 'students.view', 'students.create', 'students.update'],
      {
        'GET /api/special-events/3': fakeResponse(200, event),
        'GET /api/special-events/3/registrations': fakeResponse(200, page([registration])),
        'POST /api/special-event-registrations/21/attend': fakeResponse(200, {
          ...registration,
          status: 'attended',
          allowed_actions: ['update', 'delete'],
        }),
      },
    );
    const { user } = await open(store, '/special-events/registration/3');
    const row = await screen.findByRole('row', { name: /CHAN Tai Man/ }, SLOW);
    expect(within(row).getByText('Registered')).toBeInTheDocument();
    const list = screen.getByTestId('resource-list-special_event_registration');
    expect(within(list).queryByRole('columnheader', { name: 'Event' })).toBeNull();
    expect(within(list).getByRole('columnheader', { name: 'Student' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /Cancel registration/ })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: /Mark attended/ }));
    await user.click(
      within(await screen.findByRole('tooltip', undefined, SLOW)).getByRole('button', {
        name: 'Mark attended',
      }),
    );
    await waitFor(
      () => expect(calledWith(calls, 'POST', '/api/special-event-registrations/21/attend')).toHaveLength(1),
      SLOW,
    );
    expect(screen.getByTestId('resource-create').closest('a')).toHaveAttribute(
      'href',
      '/special-events/registration/3/create',
    );
  });

  it('hides the tab from whoever may not view students (a registration shows one)', async () => {
    const { store } = setup(['special_events.view'], {
      'GET /api/special-events/3': fakeResponse(200, event),
    });
    await open(store, '/special-events/basic/3');
    expect(await screen.findByRole('tab', { name: 'Basic information' }, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Registrations' })).toBeNull();
  });

  it('lists a student’s registrations on the student’s record, read only, each event linking to its page', async () => {
    const { calls, store } = setup(['students.view', 'students.update'], {
      'GET /api/students/5': fakeResponse(200, { id: 5, student_no: 'HK-2026-0001', allowed_actions: [] }),
      'GET /api/students/5/event-registrations': fakeResponse(200, page([registration])),
    });
    await open(store, '/students/event/5');
    const row = await screen.findByRole('row', { name: /Yonsei briefing/ }, SLOW);
    expect(within(row).getByRole('link', { name: 'Yonsei briefing' })).toHaveAttribute(
      'href',
      '/special-events/basic/3',
    );
    const list = screen.getByTestId('resource-list-special_event_registration');
    expect(within(list).queryByRole('columnheader', { name: 'Student' })).toBeNull();
    expect(within(list).queryByTestId('resource-create')).toBeNull();
    expect(within(row).queryByRole('link', { name: /Edit/ })).toBeNull();
    // each row named by its event
    expect(
      within(row).getByRole('button', { name: 'Cancel registration Yonsei briefing' }),
    ).toBeInTheDocument();
    expect(calledWith(calls, 'GET', '/api/students/5/event-registrations').length).toBeGreaterThan(0);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { schoolAdmissions, schools, schoolSubjects } from '../../../../shared/resources/schools';
import { appActions } from '../../app/app-slice';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeLoader } from '../../app/routes/build-routes';
import { buildMenu, type MenuBranch } from '../../app/routes/menu';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { childOfTab, routesFromDeclarations } from './declared-routes';

jest.setTimeout(120_000);

const admin = staffUser({
  id: 7,
  name: 'Admin',
  email: 'a@example.com',
  is_admin: true,
  branch_id: 1,
  two_factor_enabled: true,
});

const allowed = { allowed_actions: ['update', 'delete'], refusal: null };
const school = {
  id: 5,
  code: 'HKU',
  name_en: 'University of Hong Kong',
  name_zh: '香港大學',
  is_active: true,
  is_partner: false,
  logo_file_id: null,
  ...allowed,
};
const page = (items: unknown[]) => ({ items, total: items.length, page: 1, per_page: 20 });

const gets = (calls: FetchCall[], path: string) =>
  calls.filter((c) => (c.init.method ?? 'GET') === 'GET' && c.url.split('?')[0] === path);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  localStorage.clear();
});

describe('routes of a declaration with tabs', () => {
  it('serve the spec’s school routes: the list, a new school on the first tab, each tab, and the records a tab opens', () => {
    const entries = routesFromDeclarations([schools, schoolSubjects, schoolAdmissions]);
    expect(entries.map((e) => [e.path, e.permission])).toEqual([
      ['/schools', 'schools.view'],
      ['/schools/basic/create', 'schools.create'],
      ['/schools/basic/:id', 'schools.view'],
      ['/schools/subject/:id', 'schools.view'],
      ['/schools/subject/:id/create', 'schools.create'],
      ['/schools/subject/:id/:childId', 'schools.view'],
      ['/schools/admission/:id', 'schools.view'],
      ['/schools/admission/:id/create', 'schools.create'],
      ['/schools/admission/:id/:childId', 'schools.view'],
      ['/schools/attachment/:id', 'schools.view'],
    ]);
    // a new school reads the server's defaults; the tabs read the record themselves
    const create = entries.find((e) => e.path === '/schools/basic/create')!;
    expect(typeof create.data?.url === 'function' ? create.data.url({}) : create.data?.url).toBe(
      '/api/schools/create',
    );
    expect(entries.filter((e) => e.path.includes(':id')).every((e) => !e.data)).toBe(true);
    // no `/schools/create` or `/schools/:id`: a declaration without tabs keeps those
    expect(entries.map((e) => e.path)).not.toContain('/schools/:id');
    expect(childOfTab(schools, 'subject')?.name).toBe('school_subject');
    expect(childOfTab(schools, 'attachment')).toBeUndefined();
  });

  it('put the schools list under the Schools menu group', () => {
    const menu = buildMenu(backofficeRoutes, admin as never);
    const group = menu.find((n) => n.key === 'group:schools') as MenuBranch;
    expect(group.labelKey).toBe('menu.schools');
    expect(group.children).toEqual([
      expect.objectContaining({ path: '/schools', labelKey: 'resources.school.title' }),
    ]);
    const clerk = { ...admin, is_admin: false, permissions: ['holidays.view'] };
    expect(
      buildMenu(backofficeRoutes, clerk as never).find((n) => n.key === 'group:schools'),
    ).toBeUndefined();
  });
});

describe('a declared record page with tabs', () => {
  it('links the list to the first tab, switches tabs by path, lists a child with its import, and opens its records under the tab', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/schools': fakeResponse(200, page([school])),
      'GET /api/schools/5': fakeResponse(200, school),
      'GET /api/schools/5/subjects': fakeResponse(
        200,
        page([
          {
            id: 12,
            school_id: 5,
            code: 'CS',
            name_en: 'Computer Science',
            name_zh: '電腦科學',
            tuition_fee: 1234550,
            currency: 'HKD',
            is_active: true,
            ...allowed,
          },
        ]),
      ),
      'GET /api/schools/5/admissions': fakeResponse(200, page([])),
      'GET /api/schools/5/admissions/create': fakeResponse(200, { defaults: {} }),
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(admin as never));
    const entries = routesFromDeclarations([schools, schoolSubjects, schoolAdmissions]);
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
    const { router, user } = renderScreens(store, screens, '/schools');

    // the list: records open on their first tab, a new one too
    const row = await screen.findByRole('row', { name: /University of Hong Kong/ }, SLOW);
    expect(within(row).getByRole('link', { name: /Edit University of Hong Kong/ })).toHaveAttribute(
      'href',
      '/schools/basic/5',
    );
    expect(screen.getByTestId('resource-create').closest('a')).toHaveAttribute(
      'href',
      '/schools/basic/create',
    );

    // the record: its tabs labelled from the declaration's locale keys, the first its form
    await user.click(within(row).getByRole('link', { name: /Edit University of Hong Kong/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schools/basic/5'), SLOW);
    expect(await screen.findByRole('heading', { name: 'University of Hong Kong' }, SLOW)).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Basic information',
      'Subjects',
      'Admission times',
      'Attachments',
    ]);
    await waitFor(() => expect(screen.getByLabelText('School code')).toHaveValue('HKU'), SLOW);
    expect(new URL(gets(calls, '/api/schools/5')[0].url, 'http://x').searchParams.get('tab')).toBe('basic');

    // the subject tab: the school's subjects, with import and export, money with its currency
    await user.click(screen.getByRole('tab', { name: 'Subjects' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schools/subject/5'), SLOW);
    const subject = await screen.findByRole('row', { name: /Computer Science/ }, SLOW);
    expect(within(subject).getByText('HKD 12,345.50')).toBeInTheDocument();
    expect(within(subject).getByRole('link', { name: /Edit CS Computer Science/ })).toHaveAttribute(
      'href',
      '/schools/subject/5/12',
    );
    expect(screen.getByRole('button', { name: /Import/ })).toBeInTheDocument();
    // the breadcrumb leads back to the list and to the record's first tab
    expect(screen.getByRole('link', { name: 'Schools' })).toHaveAttribute('href', '/schools');
    expect(screen.getByRole('link', { name: 'University of Hong Kong' })).toHaveAttribute(
      'href',
      '/schools/basic/5',
    );
    expect(screen.getByRole('link', { name: /Export XLSX/ }).getAttribute('href')).toMatch(
      /^\/api\/schools\/5\/subjects\?.*format=xlsx/,
    );
    expect(screen.getByTestId('resource-create').closest('a')).toHaveAttribute(
      'href',
      '/schools/subject/5/create',
    );

    // the admission tab: a new intake's form opens under the tab, the school's header and tabs kept
    await user.click(screen.getByRole('tab', { name: 'Admission times' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schools/admission/5'), SLOW);
    await waitFor(() => expect(gets(calls, '/api/schools/5/admissions')).toHaveLength(1), SLOW);
    await user.click(screen.getByTestId('resource-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schools/admission/5/create'), SLOW);
    const form = await screen.findByTestId('resource-form-school_admission', undefined, SLOW);
    expect(within(form).getByText('Application documents')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Admission times', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'University of Hong Kong' })).toBeInTheDocument();
    expect(gets(calls, '/api/schools/5/admissions/create')).toHaveLength(1);
    // back to the tab's list
    await user.click(screen.getByRole('button', { name: 'Back to the list' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/schools/admission/5'), SLOW);
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import { DECLARATIONS } from '../../../../shared/resources';
import { appActions } from '../../app/app-slice';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeLoader } from '../../app/routes/build-routes';
import { buildMenu, type MenuBranch } from '../../app/routes/menu';
import { makeStore } from '../../app/store';
import { routesFromDeclarations } from '../../components/resource/declared-routes';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { STUDENT_PAGE } from './student-page';

jest.setTimeout(120_000);

const page = (items: unknown[]) => ({ items, total: items.length, page: 1, per_page: 20 });
const OPTION_LISTS = [
  'student_status',
  'gender',
  'nationality',
  'korean_level',
  'topik_level',
  'visa_type',
  'relationship',
  'education_level',
  'term',
  'document_type',
];

const student = {
  id: 5,
  student_no: 'HK-2026-0001',
  surname_en: 'Chan',
  given_name_en: 'Tai Man',
  name_zh: '陳大文',
  branch_id: 1,
  branch_name: 'Central',
  passport_no: 'K1234567',
  passport_expiry: '2026-01-31',
  passport_warning: 'expired',
  visa_expiry: '2026-09-30',
  visa_warning: 'expiring',
  portal_enabled: true,
  portal_email: 'taiman@example.com',
  portal_password_set: true,
  portal_must_change_password: true,
  portal_invited_at: null,
  info_submitted_at: null,
  created_at: '2026-02-01T02:00:00.000Z',
};

const application = {
  id: 31,
  student_id: 5,
  school_id: 2,
  school_name: 'Korea University',
  admission_id: 4,
  admission_name: '2026 Fall',
  subject_id: 9,
  subject_name: 'Business',
  priority: 1,
  status: 'offered',
  documents_summary: 'P 1 · U 1 · S 0 · N 0 · C 0',
  offer_date: '2026-04-01',
};

function setup(path: string, permissions: string[], allowed: string[], routes: Record<string, unknown> = {}) {
  const rights = { allowed_actions: allowed, refusal: null };
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    ...Object.fromEntries(
      OPTION_LISTS.map((list) => [`GET /api/options/${list}`, fakeResponse(200, page([]))]),
    ),
    'GET /api/students/5': fakeResponse(200, { ...student, ...rights }),
    'GET /api/students/5/family': fakeResponse(
      200,
      page([
        { id: 12, student_id: 5, relationship: 'mother', name_en: 'Lee Mei', phone: '9123 4567', ...rights },
      ]),
    ),
    'GET /api/students/5/family/12': fakeResponse(200, {
      id: 12,
      student_id: 5,
      relationship: 'mother',
      name_en: 'Lee Mei',
      ...rights,
    }),
    'GET /api/students/5/educations': fakeResponse(
      200,
      page([{ id: 3, student_id: 5, level: 'secondary', school_name: 'St. Paul’s College', ...rights }]),
    ),
    'GET /api/students/5/educations/create': fakeResponse(200, { defaults: { graduated: false } }),
    'GET /api/students/5/applications': fakeResponse(200, page([{ ...application, ...rights }])),
    'GET /api/students/5/applications/31': fakeResponse(200, { ...application, ...rights }),
    'GET /api/applications/31/documents': fakeResponse(
      200,
      page([
        {
          id: 1,
          name_en: 'Passport copy',
          status: 'uploaded',
          code: 'U',
          file_id: 77,
          file_name: 'passport.pdf',
          allowed_actions: allowed.length ? [...allowed, 'submit', 'cancel'] : [],
          refusal: null,
        },
      ]),
    ),
    'GET /api/students/5/grade-reports/7': fakeResponse(200, {
      id: 7,
      student_id: 5,
      school_id: 2,
      school_name: 'Korea University',
      year: 2026,
      term: 'spring',
      file_id: 55,
      file_name: 'report.pdf',
      ...rights,
    }),
    'GET /api/files': fakeResponse(200, page([])),
    ...routes,
  } as never);
  const store = makeStore('backoffice');
  store.dispatch(
    appActions.setUser(staffUser({ id: 7, branch_id: 1, permissions: ['students.view', ...permissions] })),
  );
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features: {} }));
  return { calls, store };
}

async function open(store: ReturnType<typeof makeStore>, path: string) {
  const entries = routesFromDeclarations(DECLARATIONS, { student: STUDENT_PAGE }).filter((e) =>
    e.path.startsWith('/students'),
  );
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

const gets = (calls: FetchCall[], path: string) =>
  calls.filter((c) => (c.init.method ?? 'GET') === 'GET' && c.url.split('?')[0] === path);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  localStorage.clear();
});

describe('the students’ routes', () => {
  it('serve the spec’s routes, the family tab’s two lists with their records under it', () => {
    const entries = routesFromDeclarations(DECLARATIONS, { student: STUDENT_PAGE }).filter(
      (e) => e.path.startsWith('/students') && !e.path.startsWith('/students/categories'),
    );
    expect(entries.map((e) => [e.path, e.permission])).toEqual([
      ['/students', 'students.view'],
      ['/students/create', 'students.create'],
      ['/students/basic/:id', 'students.view'],
      ['/students/family/:id', 'students.view'],
      ['/students/family/:id/member/create', 'students.create'],
      ['/students/family/:id/member/:childId', 'students.view'],
      ['/students/family/:id/education/create', 'students.create'],
      ['/students/family/:id/education/:childId', 'students.view'],
      ['/students/application/:id', 'students.view'],
      ['/students/application/:id/create', 'students.create'],
      ['/students/application/:id/:childId', 'students.view'],
      ['/students/admission/:id', 'students.view'],
      ['/students/grade-report/:id', 'students.view'],
      ['/students/grade-report/:id/create', 'students.create'],
      ['/students/grade-report/:id/:childId', 'students.view'],
      // issue 28: the student's prepaid deposits (a child declared in the receipts' module)
      ['/students/prepaid/:id', 'students.view'],
      ['/students/prepaid/:id/create', 'receipts.create'],
      ['/students/prepaid/:id/:childId', 'receipts.view'],
      ['/students/event/:id', 'students.view'],
      // issue 27: the student's quotations, and the invoices at the spec's /students/invoice/:id (tab `order`)
      ['/students/quotation/:id', 'students.view'],
      ['/students/invoice/:id', 'students.view'],
      ['/students/attachment/:id', 'students.view'],
    ]);
  });

  it('put the students before their categories under the Students menu group', () => {
    const admin = staffUser({ is_admin: true });
    const group = buildMenu(backofficeRoutes, admin).find((n) => n.key === 'group:students') as MenuBranch;
    expect(group.children.map((c) => c.path)).toEqual(['/students', '/students/categories']);
  });
});

describe('the students list', () => {
  it('shows the category in its colour and the warnings as tags, with the intake applied to among the filters', async () => {
    const { calls, store } = setup('/students', ['students.create', 'students.update'], ['update'], {
      'GET /api/students': fakeResponse(
        200,
        page([
          { ...student, category_id: 2, category_name: 'VIP', allowed_actions: ['update'], refusal: null },
        ]),
      ),
      'GET /api/student-categories': fakeResponse(200, page([{ id: 2, name_en: 'VIP', color: '#722ed1' }])),
    });
    await open(store, '/students');
    const row = await screen.findByRole('row', { name: /HK-2026-0001/ }, SLOW);
    await waitFor(
      () => expect(within(row).getByTestId('student-category')).toHaveAttribute('data-color', '#722ed1'),
      SLOW,
    );
    expect(within(row).getByTestId('passport_warning-expired')).toHaveTextContent('Passport expired');
    expect(within(row).getByTestId('visa_warning-expiring')).toHaveTextContent(
      'Visa expires within 6 months',
    );
    expect(within(row).getByRole('link', { name: /Edit HK-2026-0001/ })).toHaveAttribute(
      'href',
      '/students/basic/5',
    );
    expect(screen.getByTestId('resource-create').closest('a')).toHaveAttribute('href', '/students/create');
    expect(screen.getByRole('combobox', { name: 'Applied to admission time' })).toBeInTheDocument();
    // the consultant is picked without choosing a branch first
    expect(screen.getByRole('combobox', { name: 'Consultant' })).toBeEnabled();
    expect(gets(calls, '/api/student-categories')).toHaveLength(1);
  });
});

describe('a student’s record', () => {
  it('shows the warnings and the portal card on the basic tab, the family tab’s two lists, an application’s checklist', async () => {
    const { calls, store } = setup('/students/basic/5', ['students.create', 'students.update'], ['update']);
    const { router, user } = await open(store, '/students/basic/5');
    expect(await screen.findByTestId('passport_warning-expired', {}, SLOW)).toHaveTextContent(
      'The passport expired on 2026-01-31.',
    );
    expect(screen.getByTestId('visa_warning-expiring')).toHaveTextContent(
      'The visa expires on 2026-09-30, within 6 months.',
    );
    const card = await screen.findByTestId('portal-access', {}, SLOW);
    expect(within(card).getByTestId('portal-must-change')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: /Send invitation/ })).toBeInTheDocument();
    // what the card shows is not repeated among the form's fields
    expect(screen.queryByTestId('computed-portal_invited_at')).toBeNull();

    // family & education: both lists, each one's records under the tab
    await user.click(screen.getByRole('tab', { name: 'Family & education' }));
    const members = await screen.findByTestId('tab-child-student_family', {}, SLOW);
    const educations = await screen.findByTestId('tab-child-student_education', {}, SLOW);
    expect(await within(members).findByRole('row', { name: /Lee Mei/ }, SLOW)).toBeInTheDocument();
    expect(within(members).getByRole('link', { name: /Edit Lee Mei/ })).toHaveAttribute(
      'href',
      '/students/family/5/member/12',
    );
    expect(
      await within(educations).findByRole('row', { name: /St. Paul’s College/ }, SLOW),
    ).toBeInTheDocument();
    await user.click(within(educations).getByTestId('resource-create'));
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/students/family/5/education/create'),
      SLOW,
    );
    expect(await screen.findByTestId('resource-form-student_education', {}, SLOW)).toBeInTheDocument();
    expect(gets(calls, '/api/students/5/educations/create')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Back to the list' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/students/family/5'), SLOW);

    // an application: its status as a tag, its record with the document checklist under the form
    await user.click(screen.getByRole('tab', { name: 'Applications' }));
    const row = await screen.findByRole('row', { name: /Korea University/ }, SLOW);
    expect(within(row).getByTestId('application-status')).toHaveTextContent('Offered');
    expect(within(row).getByTestId('documents-summary')).toHaveTextContent('P 1U 1');
    await user.click(within(row).getByRole('link', { name: /Edit/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/students/application/5/31'), SLOW);
    const checklist = await screen.findByTestId('document-checklist', {}, SLOW);
    expect(await within(checklist).findByText('Passport copy', {}, SLOW)).toBeInTheDocument();
    expect(
      within(checklist).getByRole('button', { name: 'Mark submitted Passport copy' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('resource-form-student_application')).toBeInTheDocument();
  });

  it('shows a user without students.update every tab read-only, without a button they could not use', async () => {
    const { store } = setup('/students/basic/5', [], []);
    const { router, user } = await open(store, '/students/basic/5');
    const card = await screen.findByTestId('portal-access', {}, SLOW);
    expect(within(card).queryByRole('button')).toBeNull();
    await waitFor(() => expect(screen.getByLabelText('Surname (English)')).toBeDisabled(), SLOW);
    expect(screen.queryByRole('button', { name: /Save/ })).toBeNull();

    // the admission tab: the school's answer, the application to view, its files without an upload
    await user.click(screen.getByRole('tab', { name: 'Admission' }));
    const admission = await screen.findByTestId('admission-31', {}, SLOW);
    expect(within(admission).getByText('2026-04-01')).toBeInTheDocument();
    expect(within(admission).getByRole('link', { name: /View application/ })).toHaveAttribute(
      'href',
      '/students/application/5/31',
    );
    await within(admission).findByTestId('file-attachments-application-31', {}, SLOW);
    expect(within(admission).queryByRole('button', { name: /Upload/ })).toBeNull();

    // a grade report's file is shown, with no upload or remove button
    await act(() => router.navigate('/students/grade-report/5/7'));
    const file = await screen.findByTestId('file-field-file_id', {}, SLOW);
    expect(within(file).getByRole('link', { name: /report.pdf/ })).toBeInTheDocument();
    expect(within(file).queryByRole('button')).toBeNull();

    // an application's checklist: codes, no buttons
    await act(() => router.navigate('/students/application/5/31'));
    const checklist = await screen.findByTestId('document-checklist', {}, SLOW);
    expect(await within(checklist).findByText('Passport copy', {}, SLOW)).toBeInTheDocument();
    expect(within(checklist).queryByRole('button')).toBeNull();
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import { REPORTS } from '../../../../shared/reports';
import { hongKongDay, presetRange } from '../../../../shared/reports/criteria';
import { studentsReport } from '../../../../shared/reports/students';
import { schoolsReport } from '../../../../shared/reports/schools';
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
import { changeCriterion, reportFileUrl, reportQueryOf, shownRange } from './report-query';
import { routesFromReports } from './report-routes';

jest.setTimeout(120_000);

const STUDENTS_RESULT = '/reports/students/student-result';

const answer = {
  items: [
    {
      id: 5,
      student_no: 'STU-MK-2030-00001',
      name_en: 'CHAN Tai Man',
      name_zh: '陳大文',
      category: 'Degree',
      status: 'Applied',
      nationality: 'Hong Kong',
      branch: 'Mong Kok',
      consultant: 'Ada',
      created: '2030-03-10',
      applications: 2,
      url: '/students/basic/5',
    },
    {
      id: 6,
      student_no: 'STU-MK-2030-00002',
      name_en: 'LEE Siu Ming',
      name_zh: '',
      category: '(none)',
      status: 'Enrolled',
      nationality: 'Korea',
      branch: 'Mong Kok',
      consultant: '(none)',
      created: '2030-02-01',
      applications: 1,
      url: '/students/basic/6',
    },
  ],
  total: 2,
  page: 1,
  per_page: 20,
  totals: [{ currency: null, students: 2, applications: 3 }],
  group_by: null,
  ranges: { created: { from: '2030-01-01', to: '2030-12-31', preset: null } },
  names: { branch_id: 'MK Mong Kok' },
};

function setup(permissions: string[], routes: Record<string, unknown> = {}) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/options/student_status': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 100 }),
    'GET /api/options/nationality': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 100 }),
    ...routes,
  } as never);
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ id: 7, branch_id: 1, permissions })));
  return { calls, store };
}

async function open(store: ReturnType<typeof makeStore>, path: string) {
  const entries = [
    ...routesFromReports(),
    ...backofficeRoutes.routes.filter((r) => r.path === '/home' || r.path === '/dashboard'),
  ];
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

const calledWith = (calls: FetchCall[], path: string) => calls.filter((c) => c.url.split('?')[0] === path);
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  localStorage.clear();
});

describe('a report’s query in the address', () => {
  const today = '2030-05-20';

  it('shows a date range’s preset as its Hong Kong days, the default preset when none is given', () => {
    expect(shownRange(studentsReport, 'created', {}, today)).toEqual({
      from: '2030-01-01',
      to: '2030-12-31',
      preset: 'this_year',
    });
    expect(shownRange(studentsReport, 'created', { created_preset: 'last_month' }, today)).toEqual({
      from: '2030-04-01',
      to: '2030-04-30',
      preset: 'last_month',
    });
    expect(shownRange(studentsReport, 'created', { created_from: '2030-02-03' }, today)).toEqual({
      from: '2030-02-03',
      to: null,
      preset: null,
    });
    expect(presetRange('last_month', '2030-01-15')).toEqual({ from: '2029-12-01', to: '2029-12-31' });
  });

  it('never keeps a preset and days together: a preset clears the days, a day keeps the other day shown', () => {
    const picked = changeCriterion(
      studentsReport,
      { created_from: '2030-02-03' },
      { created_preset: 'this_month' },
      today,
    );
    expect(picked).toEqual({ created_preset: 'this_month' });
    // a day picked on "this month" keeps its other end as a day of its own
    expect(changeCriterion(studentsReport, picked, { created_from: '2030-05-10' }, today)).toEqual({
      created_from: '2030-05-10',
      created_to: '2030-05-31',
    });
    expect(changeCriterion(studentsReport, { branch_id: '3' }, { branch_id: null }, today)).toEqual({});
  });

  it('keeps only what the report takes, and asks for files in the screen’s language', () => {
    const search = new URLSearchParams(
      'created_preset=this_year&branch_id=2&page=3&bogus=1&sort=-created&format=pdf',
    );
    expect(reportQueryOf(studentsReport, search)).toEqual({
      created_preset: 'this_year',
      branch_id: '2',
      page: '3',
      sort: '-created',
    });
    expect(reportQueryOf(studentsReport, search, { rows: false })).toEqual({
      created_preset: 'this_year',
      branch_id: '2',
    });
    expect(
      reportFileUrl(studentsReport, { branch_id: '2', page: '3', per_page: '50' }, 'xlsx', 'zh_HK'),
    ).toBe('/api/reports/students/student?branch_id=2&format=xlsx&lang=zh_HK');
  });
});

describe('the reports’ routes and menu', () => {
  it('serve each report’s criteria and result screens behind its group’s key', () => {
    expect(routesFromReports().map((r) => [r.path, r.permission])).toEqual([
      ['/reports/orders/order', 'reports.orders'],
      ['/reports/orders/order-result', 'reports.orders'],
      ['/reports/orders/order-items', 'reports.orders'],
      ['/reports/orders/order-items-result', 'reports.orders'],
      ['/reports/orders/order-analysis', 'reports.orders'],
      ['/reports/orders/order-analysis-result', 'reports.orders'],
      ['/reports/orders/receipt', 'reports.orders'],
      ['/reports/orders/receipt-result', 'reports.orders'],
      ['/reports/orders/refund', 'reports.orders'],
      ['/reports/orders/refund-result', 'reports.orders'],
      ['/reports/students/student', 'reports.students'],
      ['/reports/students/student-result', 'reports.students'],
      ['/reports/schools/school', 'reports.schools'],
      ['/reports/schools/school-result', 'reports.schools'],
      ['/reports/calendar', 'reports.calendar'],
      ['/reports/calendar-result', 'reports.calendar'],
    ]);
    expect(REPORTS.map((r) => r.name)).toEqual([
      'order',
      'order_items',
      'order_analysis',
      'receipt',
      'refund',
      'student',
      'school',
      'calendar',
    ]);
  });

  it('list the reports a user may open under Reports, the money reports first', () => {
    const all = buildMenu(backofficeRoutes, staffUser({ is_admin: true }));
    const reports = all.find((n) => n.key === 'group:reports') as MenuBranch;
    expect(reports.labelKey).toBe('menu.reports');
    expect(reports.children.map((c) => c.path)).toEqual([
      '/reports/orders/order',
      '/reports/orders/order-items',
      '/reports/orders/order-analysis',
      '/reports/orders/receipt',
      '/reports/orders/refund',
      '/reports/students/student',
      '/reports/schools/school',
      '/reports/calendar',
    ]);
    const some = buildMenu(
      backofficeRoutes,
      staffUser({ permissions: ['reports.schools', 'reports.export'] }),
    );
    expect((some.find((n) => n.key === 'group:reports') as MenuBranch).children.map((c) => c.path)).toEqual([
      '/reports/schools/school',
    ]);
    expect(
      buildMenu(backofficeRoutes, staffUser({ permissions: ['reports.export'] })).find(
        (n) => n.key === 'group:reports',
      ),
    ).toBeUndefined();
  });
});

describe('the criteria screen', () => {
  it('draws the criteria, and runs the report with them in the result’s address', async () => {
    const { store } = setup(['reports.students'], {
      'GET /api/reports/students/student': fakeResponse(200, answer),
    });
    const { router, user } = await open(store, '/reports/students/student');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Student analysis' }, SLOW),
    ).toBeInTheDocument();
    for (const label of [
      'Branch',
      'Consultant',
      'Category',
      'Status',
      'Nationality',
      'Admission time',
      'Group by',
    ])
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    // this year by default, its days shown
    const year = presetRange('this_year', hongKongDay());
    expect(screen.getByLabelText('Registered: from')).toHaveValue(year.from);
    expect(screen.getByLabelText('Registered: to')).toHaveValue(year.to);
    await user.click(screen.getByRole('radio', { name: 'Last month' }));
    expect(screen.getByLabelText('Registered: from')).toHaveValue(
      presetRange('last_month', hongKongDay()).from,
    );
    await user.click(screen.getByTestId('report-run'));
    await waitFor(() => expect(router.state.location.pathname).toBe(STUDENTS_RESULT), SLOW);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      created_preset: 'last_month',
    });
  });

  it('writes a range left as it opened into the result’s address as its default preset', async () => {
    const { store } = setup(['reports.students'], {
      'GET /api/reports/students/student': fakeResponse(200, answer),
    });
    const { router, user } = await open(store, '/reports/students/student');
    await user.click(await screen.findByTestId('report-run', {}, SLOW));
    await waitFor(() => expect(router.state.location.pathname).toBe(STUDENTS_RESULT), SLOW);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      created_preset: 'this_year',
    });
  });

  it('opened from a result, starts from its criteria', async () => {
    const { store } = setup(['reports.students']);
    await open(
      store,
      '/reports/students/student?created_from=2030-02-03&created_to=2030-02-27&group_by=status',
    );
    expect(await screen.findByLabelText('Registered: from', {}, SLOW)).toHaveValue('2030-02-03');
    expect(screen.getByLabelText('Registered: to')).toHaveValue('2030-02-27');
    const rows = screen.getByLabelText('Group by').closest('.ant-select') as HTMLElement;
    expect(within(rows).getByText('Status')).toBeInTheDocument();
  });
});

describe('the result screen', () => {
  it('shows the rows with their totals, the criteria as read, and keeps sort and pages in the address', async () => {
    const { calls, store } = setup(['reports.students'], {
      'GET /api/reports/students/student': fakeResponse(200, answer),
    });
    const { router, user } = await open(
      store,
      `${STUDENTS_RESULT}?created_from=2030-01-01&created_to=2030-12-31&branch_id=3`,
    );
    expect(await screen.findByRole('row', { name: /STU-MK-2030-00001/ }, SLOW)).toBeInTheDocument();
    expect(queryOf(calledWith(calls, '/api/reports/students/student')[0].url)).toEqual({
      created_from: '2030-01-01',
      created_to: '2030-12-31',
      branch_id: '3',
    });
    const total = screen.getByTestId('report-total');
    expect(within(total).getByText('Total')).toBeInTheDocument();
    expect(within(total).getByText('3')).toBeInTheDocument();
    const summary = screen.getByTestId('report-criteria-summary');
    expect(within(summary).getByText('2030-01-01 – 2030-12-31')).toBeInTheDocument();
    expect(within(summary).getByText('MK Mong Kok')).toBeInTheDocument();
    // labelled with the language's colon (antd's own is off)
    expect(within(summary).getByText('Branch:')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'STU-MK-2030-00001' })).toHaveAttribute(
      'href',
      '/students/basic/5',
    );
    // no export key, no file buttons
    expect(screen.queryByTestId('report-export-xlsx')).toBeNull();
    expect(screen.getByTestId('report-change')).toHaveAttribute(
      'href',
      '/reports/students/student?created_from=2030-01-01&created_to=2030-12-31&branch_id=3',
    );
    // (the sticky header draws the titles twice)
    await user.click(screen.getAllByText('Student no.')[0]);
    await waitFor(
      () => expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('student_no'),
      SLOW,
    );
    await waitFor(() => expect(calledWith(calls, '/api/reports/students/student').length).toBe(2), SLOW);
    expect(queryOf(calledWith(calls, '/api/reports/students/student')[1].url).sort).toBe('student_no');
  });

  it('says which criteria it cannot read (a bookmark gone stale), with the way back to them', async () => {
    const { store } = setup(['reports.students'], {
      'GET /api/reports/students/student': fakeResponse(422, {
        message: 'The given data was invalid.',
        code: 'validation',
        message_key: 'validation',
        errors: { created_to: ['The end date may not be before the start date.'] },
        error_keys: { created_to: [{ key: 'dateRangeOrder' }] },
      }),
    });
    await open(store, `${STUDENTS_RESULT}?created_from=2030-02-01&created_to=2030-01-01`);
    const alert = await screen.findByTestId('report-refused', {}, SLOW);
    expect(alert).toHaveTextContent('The end date may not be before the start date.');
    expect(screen.getByTestId('report-change')).toBeInTheDocument();
  });

  it('groups in place: the grouping’s rows and columns', async () => {
    const { calls, store } = setup(['reports.schools'], {
      'GET /api/reports/schools/school': fakeResponse(200, {
        ...answer,
        items: [
          {
            school_id: 1,
            school: 'Yonsei',
            applications: 3,
            offers: 2,
            enrolments: 1,
            url: '/schools/basic/1',
          },
        ],
        totals: [{ currency: null, applications: 3, offers: 2, enrolments: 1 }],
        group_by: 'school',
        ranges: { applied: { from: '2030-01-01', to: '2030-12-31', preset: 'this_year' } },
        names: {},
      }),
    });
    await open(store, `${schoolsReport.route}-result?group_by=school`);
    expect(await screen.findByRole('columnheader', { name: 'Enrolments' }, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Admission time' })).toBeNull();
    expect(await screen.findByText('2030-01-01 – 2030-12-31 (This year)', {}, SLOW)).toBeInTheDocument();
    expect(queryOf(calledWith(calls, '/api/reports/schools/school')[0].url)).toEqual({ group_by: 'school' });
  });
});

describe('files of a result', () => {
  /** A download streamed chunk by chunk, each chunk sent when `next()` is called. */
  function slowDownload() {
    const waiting: (() => void)[] = [];
    let sent = 0;
    const chunks = ['PK', 'xlsx', 'end'].map((c) => new TextEncoder().encode(c));
    const response = fakeResponse(200, undefined, {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': 'attachment; filename="report-student-2030-05-20.xlsx"',
    }) as unknown as Record<string, unknown>;
    response.body = {
      getReader: () => ({
        read: () =>
          new Promise((resolve, reject) => {
            const signal = (global.fetch as jest.Mock).mock.calls.at(-1)[1].signal as AbortSignal;
            if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
            signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            waiting.push(() =>
              resolve(
                sent < chunks.length
                  ? { done: false, value: chunks[sent++] }
                  : { done: true, value: undefined },
              ),
            );
          }),
      }),
    };
    return { response: response as never, next: () => waiting.shift()?.() };
  }

  beforeEach(() => {
    URL.createObjectURL = jest.fn(() => 'blob:report');
    URL.revokeObjectURL = jest.fn();
  });

  it('shows a download’s progress, which the user can cancel; done, it is saved under the server’s name', async () => {
    const first = slowDownload();
    const second = slowDownload();
    let downloads = 0;
    const { calls, store } = setup(['reports.students', 'reports.export'], {
      'GET /api/reports/students/student': (call: FetchCall) =>
        queryOf(call.url).format
          ? ++downloads === 1
            ? first.response
            : second.response
          : fakeResponse(200, answer),
    });
    const { user } = await open(store, `${STUDENTS_RESULT}?created_preset=this_year`);
    await user.click(await screen.findByTestId('report-export-xlsx', {}, SLOW));
    const file = calledWith(calls, '/api/reports/students/student').find((c) => queryOf(c.url).format);
    expect(queryOf(file!.url)).toEqual({ created_preset: 'this_year', format: 'xlsx', lang: 'en' });
    await act(async () => first.next());
    const progress = await screen.findByTestId('report-export-progress', {}, SLOW);
    await waitFor(() => expect(progress).toHaveTextContent('Exporting XLSX… 2 B received'), SLOW);
    await user.click(screen.getByTestId('report-export-cancel'));
    expect(await screen.findByText('The export was cancelled.', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('report-export-progress')).toBeNull();
    expect(URL.createObjectURL).not.toHaveBeenCalled();

    await user.click(screen.getByTestId('report-export-xlsx'));
    for (let i = 0; i < 4; i++) await act(async () => second.next());
    expect(
      await screen.findByText('The file report-student-2030-05-20.xlsx is saved.', {}, SLOW),
    ).toBeInTheDocument();
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
  });

  it('says why a file is refused (a PDF past its rows) in words, staying on the result', async () => {
    const { store } = setup(['reports.students', 'reports.export'], {
      'GET /api/reports/students/student': (call: FetchCall) =>
        queryOf(call.url).format
          ? fakeResponse(422, {
              message: 'The given data was invalid.',
              code: 'validation',
              message_key: 'validation',
              error_keys: { format: [{ key: 'reportPdfTooLong', params: { max: 5000 } }] },
            })
          : fakeResponse(200, answer),
    });
    const { router, user } = await open(store, STUDENTS_RESULT);
    await user.click(await screen.findByTestId('report-export-pdf', {}, SLOW));
    expect(await screen.findByTestId('report-export-failed', {}, SLOW)).toHaveTextContent(
      'A PDF holds at most 5000 rows and this result has more',
    );
    expect(router.state.location.pathname).toBe(STUDENTS_RESULT);
  });
});

describe('the dashboard', () => {
  const dashboard = {
    today: '2030-05-20',
    figures: [
      {
        key: 'applications_by_status',
        kind: 'counts',
        link: '/reports/schools/school-result?applied_preset=this_year',
        data: {
          items: [
            { key: 'draft', label: 'Draft', value: 2 },
            { key: 'offered', label: 'Offered', value: 1 },
          ],
        },
      },
      {
        key: 'pending_documents',
        kind: 'list',
        link: null,
        data: {
          total: 3,
          items: [
            {
              id: 9,
              title: 'CHAN Tai Man — Yonsei',
              detail: '2030 Fall',
              date: '2030-05-25',
              value: 3,
              url: '/students/application/5',
            },
          ],
        },
      },
      {
        key: 'new_students',
        kind: 'series',
        link: null,
        data: { points: [{ period: '2030-05', value: 4 }] },
      },
      {
        key: 'month_received',
        kind: 'money',
        link: null,
        data: { values: [] },
      },
      {
        key: 'invoiced',
        kind: 'money',
        link: null,
        data: {
          values: [
            { currency: 'HKD', amount: 123450 },
            { currency: 'KRW', amount: 150000000 },
          ],
        },
      },
      {
        key: 'overdue_invoices',
        kind: 'money',
        link: '/reports/orders/order-result?date_to=2030-05-20&due=overdue',
        data: {
          count: 3,
          values: [
            { currency: 'HKD', amount: 400000 },
            { currency: 'KRW', amount: 29000000 },
          ],
        },
      },
      {
        key: 'month_invoiced_series',
        kind: 'money_series',
        link: null,
        data: {
          currencies: ['HKD', 'KRW'],
          points: [
            { period: '2030-04', amounts: { HKD: 0, KRW: 9000000 } },
            { period: '2030-05', amounts: { HKD: 1800050, KRW: 320000000 } },
          ],
        },
      },
    ],
  };

  it('draws each figure the server answers, with the link that explains it', async () => {
    const { store } = setup(['dashboard.view', 'students.view'], {
      'GET /api/dashboard/show': fakeResponse(200, dashboard),
    });
    await open(store, '/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW)).toBeInTheDocument();
    const statuses = screen.getByTestId('dashboard-figure-applications_by_status');
    expect(
      within(statuses).getByRole('heading', { name: 'Applications this year, by status' }),
    ).toBeInTheDocument();
    expect(within(statuses).getByRole('link', { name: /Details/ })).toHaveAttribute(
      'href',
      '/reports/schools/school-result?applied_preset=this_year',
    );
    expect(within(statuses).getByText('Draft: 2, Offered: 1')).toBeInTheDocument();
    const pending = screen.getByTestId('dashboard-figure-pending_documents');
    expect(within(pending).getByRole('link', { name: 'CHAN Tai Man — Yonsei' })).toHaveAttribute(
      'href',
      '/students/application/5',
    );
    expect(within(pending).queryByRole('link', { name: /Details/ })).toBeNull();
    // money per currency, side by side, never one sum
    const money = screen.getByTestId('dashboard-figure-invoiced');
    expect(within(money).getByText('HKD 1,234.50')).toBeInTheDocument();
    expect(within(money).getByText('KRW 1,500,000')).toBeInTheDocument();
    // nothing received in any currency: said so, not an empty card
    const received = screen.getByTestId('dashboard-figure-month_received');
    expect(within(received).getByText('None so far.')).toBeInTheDocument();
    expect(within(money).queryByText('None so far.')).toBeNull();
    // how many overdue invoices, and what is outstanding on them per currency
    const overdue = screen.getByTestId('dashboard-figure-overdue_invoices');
    expect(within(overdue).getByRole('heading', { name: 'Overdue invoices' })).toBeInTheDocument();
    expect(within(overdue).getByText('Invoices past their due date')).toBeInTheDocument();
    expect(within(overdue).getByText('3')).toBeInTheDocument();
    expect(within(overdue).getByText('HKD 4,000.00')).toBeInTheDocument();
    expect(within(overdue).getByText('KRW 290,000')).toBeInTheDocument();
    expect(within(overdue).getByRole('link', { name: /Details/ })).toHaveAttribute(
      'href',
      '/reports/orders/order-result?date_to=2030-05-20&due=overdue',
    );
    // one chart, HKD beside KRW, each month's amounts in words for whoever does not see it
    const series = screen.getByTestId('dashboard-figure-month_invoiced_series');
    expect(within(series).getAllByTestId('dashboard-chart')).toHaveLength(1);
    expect(within(series).getByText('HKD')).toBeInTheDocument();
    expect(within(series).getByText('KRW')).toBeInTheDocument();
    expect(
      within(series).getByText(
        'HKD: Apr 30: HKD 0.00, May 30: HKD 18,000.50; KRW: Apr 30: KRW 90,000, May 30: KRW 3,200,000',
      ),
    ).toBeInTheDocument();
  });

  it('sends a user without dashboard.view to /home', async () => {
    const { calls, store } = setup(['students.view']);
    const { router } = await open(store, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'), SLOW);
    expect(calledWith(calls, '/api/dashboard/show')).toEqual([]);
  });
});

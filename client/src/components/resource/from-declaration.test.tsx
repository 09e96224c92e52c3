import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { declareResource } from '../../../../shared/resources/declaration';
import { studentCategories } from '../../../../shared/resources/student-categories';
import { appActions } from '../../app/app-slice';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeLoader } from '../../app/routes/build-routes';
import { buildMenu, type MenuBranch } from '../../app/routes/menu';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { routesFromDeclarations } from './declared-routes';
import { configFromDeclaration } from './from-declaration';
import { ResourceFormPage } from './resource-form-page';

jest.setTimeout(120_000);

// antd renders slowly in jsdom on a busy machine: a generous wait, not a speed target.
const SLOW = { timeout: 30_000 };

const admin = {
  id: 7,
  name: 'Admin',
  email: 'a@example.com',
  is_admin: true,
  language: 'zh_HK',
  branch_id: 1,
  role: null,
  permissions: [],
  two_factor_enabled: true,
};

const categories = {
  items: [
    {
      id: 1,
      name_en: 'VIP',
      name_zh: '貴賓',
      color: '#FF5500',
      sort_order: 1,
      is_active: true,
      allowed_actions: ['update', 'delete'],
      refusal: null,
    },
    {
      id: 2,
      name_en: 'Dormant',
      name_zh: '休眠',
      color: '#888888',
      sort_order: 2,
      is_active: false,
      allowed_actions: ['update', 'delete'],
      refusal: null,
    },
  ],
  total: 2,
  page: 1,
  per_page: 20,
};

async function setup(path: string) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/student-categories': fakeResponse(200, categories),
    'GET /api/student-categories/create': fakeResponse(200, {
      defaults: { color: '#1677ff', sort_order: 0, is_active: true },
    }),
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(admin as never));
  const [list, create] = routesFromDeclarations([studentCategories]);
  const screens = await Promise.all(
    [list, create].map(async (entry) => {
      const Page = (await entry.page!()).default;
      return {
        path: entry.path.slice(1),
        loader: makeLoader(entry, { kind: 'backoffice', store }),
        element: <Page />,
      };
    }),
  );
  const rendered = renderScreens(store, screens, path);
  return { calls, ...rendered };
}

beforeEach(() => {
  resetCsrfToken();
  initI18n('zh_HK');
});

describe('student categories from their declaration', () => {
  it('lists the declared columns with their zh_HK labels, colour swatches and yes / no tags', async () => {
    const { calls } = await setup('/students/categories');
    expect(await screen.findByText('貴賓', undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '學生類別' })).toBeInTheDocument();
    const headers = screen
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim())
      .filter(Boolean);
    expect(headers.slice(0, 5)).toEqual(['名稱（英文）', '名稱（中文）', '顏色', '排序', '啟用']);

    const vip = screen.getByRole('row', { name: /貴賓/ });
    expect(within(vip).getByTestId('color-swatch')).toHaveTextContent('#ff5500');
    expect(within(vip).getByText('是')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /休眠/ })).getByText('否')).toBeInTheDocument();
    // the sortable columns sort, the others do not
    expect(screen.getByRole('columnheader', { name: /排序/ })).toHaveClass('ant-table-column-has-sorters');
    expect(screen.getByRole('columnheader', { name: /顏色/ })).not.toHaveClass(
      'ant-table-column-has-sorters',
    );
    // the screen's language goes with every call: the server names lookups in it
    const listCall = calls.find((c) => c.url.startsWith('/api/student-categories'))!;
    expect((listCall.init.headers as Record<string, string>)['Accept-Language']).toBe('zh-HK');
  });

  it('opens a new category with the declared fields and the server’s defaults', async () => {
    await setup('/students/categories/create');
    const form = await screen.findByTestId('resource-form-student_category', undefined, SLOW);
    const labels = within(form)
      .getAllByText((_, el) => el?.tagName === 'LABEL')
      .map((l) => l.textContent);
    expect(labels).toEqual(['名稱（英文）', '名稱（中文）', '顏色', '排序', '啟用']);
    expect(within(form).getByTestId('color-color')).toHaveTextContent(/^#1677ff$/i);
    expect(within(form).getByRole('switch')).toBeChecked();
    expect(within(form).getByRole('spinbutton')).toHaveValue('0');
  });
});

/** A record with money, a rate, an option and a lookup: the inputs of those types. */
const fees = declareResource({
  name: 'fee',
  path: '/fees',
  table: 'fees',
  module: 'settings',
  fields: {
    currency: { type: 'currency', required: true },
    amount: { type: 'money', currency: 'currency', required: true },
    rate: { type: 'rate' },
    category_id: { type: 'lookup', resource: 'student_category' },
  },
  display: { en: ['currency'], zh_HK: ['currency'] },
  defaultSort: 'currency',
});

describe('declared inputs', () => {
  it('edit money in major units of the row’s currency (KRW without decimals), a rate as %, a lookup by name', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/fees/5': fakeResponse(200, {
        id: 5,
        currency: 'KRW',
        amount: 150000000,
        rate: 1234,
        category_id: 3,
        category_name: '貴賓',
        allowed_actions: ['update', 'delete'],
        refusal: null,
      }),
      'GET /api/options/currency': fakeResponse(200, {
        items: [
          {
            id: 1,
            key: 'currency',
            value: 'KRW',
            label_en: 'Korean won',
            label_zh: '韓圜',
            sort_order: 1,
            is_active: true,
            in_use: 1,
          },
        ],
        total: 1,
        page: 1,
        per_page: 100,
      }),
      'PUT /api/fees/5': (call) => fakeResponse(200, { id: 5, ...JSON.parse(String(call.init.body)) }),
      'GET /api/fees': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 20 }),
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(admin as never));
    const config = configFromDeclaration(fees, { routePath: '/fees' });
    const record = {
      path: '/fees/:id',
      access: 'signed-in' as const,
      data: { url: (p: { id?: string }) => `/api/fees/${p.id}` },
    };
    const { router } = renderScreens(
      store,
      [
        {
          path: 'fees/:id',
          loader: makeLoader(record as never, { kind: 'backoffice', store }),
          element: <ResourceFormPage config={config} />,
        },
        { path: 'fees', element: <p>Fees</p> },
      ],
      '/fees/5',
    );
    const form = await screen.findByTestId('resource-form-fee', undefined, SLOW);
    // typed as text and read digit by digit into integers: no float holds the amount
    const amount = form.querySelector<HTMLInputElement>('input[data-money-input]')!;
    const rate = form.querySelector<HTMLInputElement>('input[data-rate-input]')!;
    expect(amount.value.replace(/,/g, '')).toBe('1500000');
    expect(rate).toHaveValue('12.34');
    expect(within(form).getByText('貴賓')).toBeInTheDocument();
    expect(within(form).queryByText('3')).toBeNull();
    await waitFor(() => expect(within(form).getByText('韓圜')).toBeInTheDocument(), SLOW);

    fireEvent.change(amount, { target: { value: '2,000,000' } });
    fireEvent.blur(amount);
    fireEvent.change(rate, { target: { value: '5.5' } });
    fireEvent.blur(rate);
    fireEvent.click(within(form).getByRole('button', { name: /儲存/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/fees'), SLOW);
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({
      currency: 'KRW',
      amount: 200000000,
      rate: 550,
      category_id: 3,
    });
    // the option list is read with its active values only
    const options = calls.find((c) => c.url.startsWith('/api/options/currency'))!;
    expect(options.url).toContain('is_active=true');
  });
});

describe('configFromDeclaration', () => {
  it('derives rules, titles and export from the declaration', () => {
    const config = configFromDeclaration(studentCategories);
    expect(config.titleKey).toBe('resources.student_category.title');
    expect(config.apiPath).toBe('/api/student-categories');
    expect(config.routePath).toBe('/students/categories');
    expect(config.exportable).toBe(true);
    expect(config.searchable).toBe(true);
    expect(config.auditEntity).toBe('student_category');
    expect(config.recordTitle({ name_en: 'VIP', name_zh: '貴賓' }, 'en')).toBe('VIP');
    expect(config.recordTitle({ name_en: 'VIP', name_zh: '貴賓' }, 'zh_HK')).toBe('貴賓');
    expect(config.filters?.map((f) => f.name)).toEqual(['is_active']);
    expect(config.form?.create.safeParse({ name_en: 'A', name_zh: '甲', color: 'red' }).success).toBe(false);
    expect(config.form?.create.safeParse({ name_en: 'A', name_zh: '甲', color: '#ff0000' }).success).toBe(
      true,
    );
  });

  it('filters by a related record picked by its name, never by an id typed in', async () => {
    const { users } = await import('../../../../shared/resources/users');
    const filters = configFromDeclaration(users).filters ?? [];
    const role = filters.find((f) => f.name === 'role_id');
    expect(role?.type).toBe('custom');
    expect(filters.some((f) => f.type === 'number' && /_id$/.test(f.name))).toBe(false);
    const { render } = await import('@testing-library/react');
    const { Provider } = await import('react-redux');
    const changed: (string | undefined)[] = [];
    render(
      <Provider store={makeStore('backoffice')}>
        {role?.render?.({ value: undefined, label: 'Role', onChange: (v) => changed.push(v) })}
      </Provider>,
    );
    expect(screen.getByRole('combobox', { name: 'Role' })).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });

  it('filters over related rows by a record picked by its name (the intake a student applied to)', async () => {
    const { students } = await import('../../../../shared/resources/students');
    const filters = configFromDeclaration(students).filters ?? [];
    const intake = filters.find((f) => f.name === 'admission_id');
    expect(intake).toMatchObject({ type: 'custom', labelKey: 'resources.student.fields.admission_id' });
    const { render } = await import('@testing-library/react');
    const { Provider } = await import('react-redux');
    render(
      <Provider store={makeStore('backoffice')}>
        {intake?.render?.({ value: undefined, label: 'Intake', onChange: () => undefined })}
      </Provider>,
    );
    expect(screen.getByRole('combobox', { name: 'Intake' })).toBeInTheDocument();
  });

  it('takes a screen’s overrides: hidden and extra columns, a locked field, tabs and row actions', () => {
    const locked = () => 'resource.readOnly';
    const config = configFromDeclaration(studentCategories, {
      columns: { sort_order: false, color: { width: 80 } },
      extraColumns: [{ key: 'students_count', titleKey: 'x', after: 'name_zh' }],
      fields: { name_en: { locked } },
      extraFields: [{ name: 'note', labelKey: 'y', input: { type: 'textarea' }, before: 'color' }],
      tabs: [{ key: 'students', labelKey: 'z', render: () => null }],
      rowActions: () => null,
      referencedHintKey: 'hint',
    });
    expect(config.columns.map((c) => c.key)).toEqual([
      'name_en',
      'name_zh',
      'students_count',
      'color',
      'is_active',
    ]);
    expect(config.columns.find((c) => c.key === 'color')?.width).toBe(80);
    expect(config.form?.fields.map((f) => f.name)).toEqual([
      'name_en',
      'name_zh',
      'note',
      'color',
      'sort_order',
      'is_active',
    ]);
    expect(config.form?.fields[0].locked).toBe(locked);
    expect(config.tabs?.map((t) => t.key)).toEqual(['students']);
    expect(config.rowActions).toBeDefined();
    expect(config.referencedHintKey).toBe('hint');
  });
});

describe('declared routes', () => {
  it('serve student categories at the spec’s routes, under the Students menu', () => {
    const paths = backofficeRoutes.routes.map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/students/categories',
        '/students/categories/create',
        '/students/categories/:id',
      ]),
    );
    const list = backofficeRoutes.routes.find((r) => r.path === '/students/categories')!;
    expect(list.permission).toBe('student_categories.view');
    const menu = buildMenu(backofficeRoutes, admin as never);
    const students = menu.find((n) => n.key === 'group:students') as MenuBranch;
    expect(students.labelKey).toBe('menu.students');
    // the students' list first (its menu order), then their categories
    expect(students.children).toEqual([
      expect.objectContaining({ path: '/students', labelKey: 'resources.student.title' }),
      expect.objectContaining({ path: '/students/categories', labelKey: 'resources.student_category.title' }),
    ]);
  });

  it('leave the menu group out for a user without the permission', () => {
    const clerk = { ...admin, is_admin: false, permissions: ['holidays.view'] };
    const menu = buildMenu(backofficeRoutes, clerk as never);
    expect(menu.find((n) => n.key === 'group:students')).toBeUndefined();
  });

  it('give every declared menu group a group of the route table', () => {
    const groups = new Set(backofficeRoutes.menuGroups.map((g) => g.id));
    for (const entry of routesFromDeclarations())
      if (entry.menu?.group) expect(groups).toContain(entry.menu.group);
  });
});

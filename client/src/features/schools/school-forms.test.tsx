import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { schoolAdmissions, schools } from '../../../../shared/resources/schools';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { configFromDeclaration } from '../../components/resource/from-declaration';
import { ResourceForm } from '../../components/resource/resource-form-page';
import { ResourceListPage } from '../../components/resource/resource-list-page';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FakeResponse, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';

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
const noOptions = fakeResponse(200, { items: [], total: 0, page: 1, per_page: 100 });
const optionLists = {
  'GET /api/options/school_type': noOptions,
  'GET /api/options/term': noOptions,
  'GET /api/options/currency': noOptions,
  'GET /api/options/document_type': noOptions,
};

const schoolConfig = configFromDeclaration(schools);
const admissionConfig = configFromDeclaration(schoolAdmissions);

function renderForm(form: ReactElement) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(admin as never));
  return renderScreens(store, [{ path: 'form', element: form }], '/form');
}

/** Opens an antd select by its label and picks the option with this text. */
async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByTitle(option, {}, SLOW));
}

const bodyOf = (calls: FetchCall[], method: string, url: string) =>
  JSON.parse(String(calls.find((c) => c.init.method === method && c.url === url)!.init.body)) as Record<
    string,
    unknown
  >;

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('the school form', () => {
  it('offers an area’s districts once the area is chosen, and empties the district when the area changes', async () => {
    const areas: Record<string, { id: number; label: string }[]> = {
      '': [
        { id: 1, label: 'Hong Kong' },
        { id: 2, label: 'Seoul' },
      ],
      '1': [{ id: 11, label: 'Central' }],
      '2': [{ id: 21, label: 'Gangnam' }],
    };
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      ...optionLists,
      'GET /api/areas/lookup': (call) =>
        fakeResponse(200, areas[new URL(call.url, 'http://x').searchParams.get('parent_id') ?? '']),
      'POST /api/schools': (call) => fakeResponse(201, { id: 9, ...JSON.parse(String(call.init.body)) }),
    });
    const saved = jest.fn();
    renderForm(
      <ResourceForm
        config={schoolConfig}
        data={{ defaults: { is_active: true, is_partner: false } }}
        apiPath="/api/schools"
        routePath="/schools"
        onSaved={saved}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    const district = await screen.findByRole('combobox', { name: 'District' }, SLOW);
    expect(district).toBeDisabled();
    fireEvent.change(screen.getByLabelText('School code'), { target: { value: 'hku' } });
    fireEvent.change(screen.getByLabelText('English name'), { target: { value: 'HKU' } });
    fireEvent.change(screen.getByLabelText('Chinese name'), { target: { value: '港大' } });

    // the area picker lists the areas (no parent): the server answers the top-level ones
    await pick('Area', 'Hong Kong');
    await waitFor(() => expect(district).toBeEnabled(), SLOW);
    await pick('District', 'Central');
    const lookups = () =>
      calls
        .filter((c) => c.url.startsWith('/api/areas/lookup'))
        .map((c) => new URL(c.url, 'http://x').searchParams.get('parent_id'));
    expect(lookups()).toEqual([null, '1']);
    const districtItem = district.closest('.ant-form-item') as HTMLElement;
    expect(within(districtItem).getByText('Central')).toBeInTheDocument();

    // another area: the district chosen is no longer one of its districts
    await pick('Area', 'Seoul');
    await waitFor(() => expect(within(districtItem).queryByText('Central')).toBeNull(), SLOW);
    await pick('District', 'Gangnam');
    expect(lookups()).toEqual([null, '1', '2']);

    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(saved).toHaveBeenCalled(), SLOW);
    expect(bodyOf(calls, 'POST', '/api/schools')).toMatchObject({
      code: 'hku',
      area_id: 2,
      district_id: 21,
      is_active: true,
    });
    // the logo is never part of the record's body
    expect(bodyOf(calls, 'POST', '/api/schools')).not.toHaveProperty('logo_file_id');
  });

  it('sends a district emptied by the area’s change as null', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      ...optionLists,
      'GET /api/areas/lookup': fakeResponse(200, [{ id: 2, label: 'Seoul' }]),
      'PUT /api/schools/5': (call) => fakeResponse(200, { id: 5, ...JSON.parse(String(call.init.body)) }),
    });
    const saved = jest.fn();
    renderForm(
      <ResourceForm
        config={schoolConfig}
        data={{
          id: 5,
          code: 'HKU',
          name_en: 'HKU',
          name_zh: '港大',
          area_id: 1,
          area_name: 'Hong Kong',
          district_id: 11,
          district_name: 'Central',
          ...allowed,
        }}
        id={5}
        apiPath="/api/schools"
        routePath="/schools"
        onSaved={saved}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    const district = await screen.findByRole('combobox', { name: 'District' }, SLOW);
    expect(district).toBeEnabled();
    expect(
      within(district.closest('.ant-form-item') as HTMLElement).getByText('Central'),
    ).toBeInTheDocument();
    await pick('Area', 'Seoul');
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(saved).toHaveBeenCalled(), SLOW);
    expect(bodyOf(calls, 'PUT', '/api/schools/5')).toMatchObject({ area_id: 2, district_id: null });
  });

  it('has no logo upload on a new school: it says to save first', async () => {
    installFetch({ 'GET /api/csrf-token': fakeResponse(200, { token: 't' }), ...optionLists });
    renderForm(
      <ResourceForm
        config={schoolConfig}
        data={{ defaults: {} }}
        apiPath="/api/schools"
        routePath="/schools"
        onSaved={() => undefined}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    const logo = await screen.findByTestId('file-field-logo_file_id', undefined, SLOW);
    expect(within(logo).getByRole('button', { name: /Upload/ })).toBeDisabled();
    expect(within(logo).getByText('Save the school first to add a logo.')).toBeInTheDocument();
  });

  it('uploads the logo of a school to its own route after checking it here, and removes it when confirmed', async () => {
    let upload: FakeResponse = fakeResponse(200, { id: 5, logo_file_id: 41 });
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      ...optionLists,
      'POST /api/schools/5/logo': () => upload,
      'DELETE /api/schools/5/logo': fakeResponse(200, { id: 5, logo_file_id: null }),
    });
    renderForm(
      <ResourceForm
        config={schoolConfig}
        data={{ id: 5, code: 'HKU', name_en: 'HKU', name_zh: '港大', logo_file_id: 40, ...allowed }}
        id={5}
        apiPath="/api/schools"
        routePath="/schools"
        onSaved={() => undefined}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    const logo = await screen.findByTestId('file-field-logo_file_id', undefined, SLOW);
    expect(await within(logo).findByRole('img', { name: 'Logo' }, SLOW)).toHaveAttribute(
      'src',
      '/api/files/40?inline=1',
    );
    // the upload's input is made anew after each file: found each time
    const choose = (file: File) =>
      fireEvent.change(logo.querySelector('input[type=file]') as HTMLInputElement, {
        target: { files: [file] },
      });
    const posts = () => calls.filter((c) => c.init.method === 'POST' && c.url === '/api/schools/5/logo');

    // refused here, without a request: not an image, then over the upload limit (5 MB)
    choose(new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    expect(
      await within(logo).findByText('Choose a JPG, PNG, WebP or GIF image.', {}, SLOW),
    ).toBeInTheDocument();
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    choose(big);
    expect(await within(logo).findByText('The file is larger than 5 MB.', {}, SLOW)).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    // the server's refusal, in words
    upload = fakeResponse(422, {
      message: 'Storage is full.',
      code: 'validation',
      error_keys: { file: [{ key: 'fileImageOnly' }] },
    });
    choose(new File(['png'], 'fake.png', { type: 'image/png' }));
    await waitFor(() => expect(posts()).toHaveLength(1), SLOW);
    expect(
      await within(logo).findByText('Choose a JPG, PNG, WebP or GIF image.', {}, SLOW),
    ).toBeInTheDocument();

    // a picture: multipart `file` to POST /api/schools/5/logo
    upload = fakeResponse(200, { id: 5, logo_file_id: 41 });
    choose(new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(posts()).toHaveLength(2), SLOW);
    const body = posts()[1].init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('logo.png');

    // removal is asked first
    fireEvent.click(within(logo).getByRole('button', { name: /Remove/ }));
    const deletes = () => calls.filter((c) => c.init.method === 'DELETE');
    expect(deletes()).toHaveLength(0);
    fireEvent.click(
      within(await screen.findByRole('tooltip', {}, SLOW)).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(deletes().map((c) => c.url)).toEqual(['/api/schools/5/logo']), SLOW);
  });
});

describe('a school read again while its form is being edited', () => {
  it('keeps what is typed, and shows the new logo', async () => {
    installFetch({ 'GET /api/csrf-token': fakeResponse(200, { token: 't' }), ...optionLists });
    const first = { id: 5, code: 'HKU', name_en: 'HKU', name_zh: '港大', logo_file_id: 40, ...allowed };
    const second = { ...first, name_en: 'HKU (read again)', logo_file_id: 41 };
    function Reread() {
      const [data, setData] = useState<Record<string, unknown>>(first);
      return (
        <>
          <button type="button" onClick={() => setData(data === first ? second : first)}>
            read again
          </button>
          <ResourceForm
            config={schoolConfig}
            data={data}
            id={5}
            apiPath="/api/schools"
            routePath="/schools"
            onSaved={() => undefined}
            onDeleted={() => undefined}
            onRefused={() => undefined}
          />
        </>
      );
    }
    renderForm(<Reread />);
    const address = await screen.findByLabelText('Address', undefined, SLOW);
    const logo = () => screen.getByRole('img', { name: 'Logo' });
    await waitFor(() => expect(logo()).toHaveAttribute('src', '/api/files/40?inline=1'), SLOW);
    fireEvent.change(address, { target: { value: 'Pok Fu Lam' } });
    fireEvent.click(screen.getByRole('button', { name: 'read again' }));
    await waitFor(() => expect(logo()).toHaveAttribute('src', '/api/files/41?inline=1'), SLOW);
    expect(address).toHaveValue('Pok Fu Lam');
    expect(screen.getByLabelText('English name')).toHaveValue('HKU');
  });
});

describe('the schools list', () => {
  it('filters by school type by its label, by area, and by a district of the chosen area', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/schools': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 20 }),
      'GET /api/options/school_type': fakeResponse(200, {
        items: [{ id: 1, key: 'school_type', value: 'university', label_en: 'University', label_zh: '大學' }],
        total: 1,
        page: 1,
        per_page: 100,
      }),
      'GET /api/areas/lookup': (call) =>
        fakeResponse(
          200,
          new URL(call.url, 'http://x').searchParams.get('parent_id') === '1'
            ? [{ id: 11, label: 'Central' }]
            : [
                { id: 1, label: 'Hong Kong' },
                { id: 2, label: 'Seoul' },
              ],
        ),
    });
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(admin as never));
    const { router } = renderScreens(
      store,
      [{ path: 'schools', element: <ResourceListPage config={schoolConfig} /> }],
      '/schools',
    );
    const district = await screen.findByRole('combobox', { name: 'District' }, SLOW);
    expect(district).toBeDisabled();
    await pick('School type', 'University');
    await waitFor(() => expect(router.state.location.search).toBe('?school_type=university'), SLOW);
    await pick('Area', 'Hong Kong');
    await waitFor(() => expect(district).toBeEnabled(), SLOW);
    await pick('District', 'Central');
    await waitFor(
      () => expect(router.state.location.search).toBe('?school_type=university&area_id=1&district_id=11'),
      SLOW,
    );
    const lookup = calls.filter((c) => c.url.startsWith('/api/areas/lookup')).at(-1)!;
    expect(new URL(lookup.url, 'http://x').searchParams.get('parent_id')).toBe('1');
    // another area: its district filter is emptied
    await pick('Area', 'Seoul');
    await waitFor(() => expect(router.state.location.search).toBe('?school_type=university&area_id=2'), SLOW);
  });
});

describe('the intake form', () => {
  const intake = {
    id: 7,
    school_id: 5,
    name_en: 'Spring 2027',
    name_zh: '2027 春季',
    year: 2027,
    subject_ids: [12],
    subject_names: [{ id: 12, label: 'CS Computer Science' }],
    timetable: [],
    documents: [
      { id: 1, document_type: null, name_en: 'A', name_zh: '甲', is_required: true, remark: null },
      { id: 2, document_type: null, name_en: 'B', name_zh: '乙', is_required: false, remark: 'r' },
    ],
    ...allowed,
  };

  it('edits the subjects offered and the checklist rows — add, move, drag, remove — and sends them whole in order', async () => {
    let answer: FakeResponse = fakeResponse(422, {
      message: 'The given data was invalid.',
      code: 'validation',
      error_keys: { 'documents.1.name_zh': [{ key: 'required' }] },
    });
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      ...optionLists,
      'GET /api/schools/5/subjects/lookup': fakeResponse(200, [
        { id: 12, label: 'CS Computer Science' },
        { id: 13, label: 'BA Business' },
      ]),
      'PUT /api/schools/5/admissions/7': () => answer,
    });
    const saved = jest.fn();
    renderForm(
      <ResourceForm
        config={admissionConfig}
        data={intake}
        id={7}
        apiPath="/api/schools/5/admissions"
        routePath="/schools/admission/5"
        onSaved={saved}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    // the subjects offered: named as the record reads, chosen among the school's own subjects
    const subjects = await screen.findByRole('combobox', { name: 'Subjects offered' }, SLOW);
    expect(
      within(subjects.closest('.ant-select') as HTMLElement).getByText('CS Computer Science'),
    ).toBeInTheDocument();
    await pick('Subjects offered', 'BA Business');

    const name = (n: number) => screen.getByRole('textbox', { name: `English name ${n}` });
    const names = () =>
      within(screen.getByTestId('collection-documents'))
        .getAllByRole('textbox')
        .filter((t) => /^English name \d+$/.test(t.getAttribute('aria-label') ?? ''))
        .map((t) => (t as HTMLInputElement).value);
    expect(names()).toEqual(['A', 'B']);

    // a row added, with the declared default (required)
    fireEvent.click(screen.getByRole('button', { name: /Add a document/ }));
    await waitFor(() => expect(names()).toEqual(['A', 'B', '']), SLOW);
    fireEvent.change(name(3), { target: { value: 'C' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Chinese name 3' }), { target: { value: '丙' } });
    expect(
      screen.getAllByRole('switch', { name: /Required/ }).map((s) => s.getAttribute('aria-checked')),
    ).toEqual(['true', 'false', 'true']);

    // moved up with the keyboard's button: A C B
    fireEvent.click(screen.getByRole('button', { name: 'Move up 3' }));
    await waitFor(() => expect(names()).toEqual(['A', 'C', 'B']), SLOW);
    expect(screen.getByRole('button', { name: 'Move up 1' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move down 3' })).toBeDisabled();

    // the first row dragged by its handle onto the last: C B A
    const table = screen.getByTestId('collection-documents');
    const dataTransfer = { setData: jest.fn(), effectAllowed: '' };
    fireEvent.dragStart(screen.getByTestId('documents-drag-0'), { dataTransfer });
    const last = table.querySelector('tr[data-row-index="2"]') as HTMLElement;
    fireEvent.dragOver(last, { dataTransfer });
    fireEvent.drop(last, { dataTransfer });
    await waitFor(() => expect(names()).toEqual(['C', 'B', 'A']), SLOW);

    // B removed: C A
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 2' }));
    await waitFor(() => expect(names()).toEqual(['C', 'A']), SLOW);

    // a server error on a row's cell shows on that cell
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    const cell = screen
      .getByRole('textbox', { name: 'Chinese name 2' })
      .closest('.ant-form-item') as HTMLElement;
    expect(await within(cell).findByText('This field is required.', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByTestId('resource-form-error')).toBeNull();

    // the arrays are sent whole, in the order shown, each existing row with its id and nothing undeclared
    const put = calls.find((c) => c.init.method === 'PUT')!;
    const body = JSON.parse(String(put.init.body)) as Record<string, unknown>;
    expect(body.subject_ids).toEqual([12, 13]);
    expect(body.timetable).toEqual([]);
    expect(body.documents).toEqual([
      { name_en: 'C', name_zh: '丙', is_required: true },
      { id: 1, document_type: null, name_en: 'A', name_zh: '甲', is_required: true, remark: null },
    ]);
    expect(body).not.toHaveProperty('subject_names');

    answer = fakeResponse(200, { ...intake, ...body });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(saved).toHaveBeenCalled(), SLOW);
  });

  it('names a checklist row after the document type chosen, in both languages, keeping names typed by hand', async () => {
    const types = fakeResponse(200, {
      items: [
        { id: 1, value: 'passport', label_en: 'Passport copy', label_zh: '護照副本', is_active: true },
        { id: 2, value: 'hkid', label_en: 'HKID copy', label_zh: '香港身份證副本', is_active: true },
        { id: 3, value: 'study_plan', label_en: 'Study plan', label_zh: '讀書計劃', is_active: true },
      ],
      total: 3,
      page: 1,
      per_page: 100,
    });
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      ...optionLists,
      'GET /api/options/document_type': types,
      'PUT /api/schools/5/admissions/7': (call) =>
        fakeResponse(200, { ...intake, ...(JSON.parse(String(call.init.body)) as object) }),
    });
    const saved = jest.fn();
    renderForm(
      <ResourceForm
        config={admissionConfig}
        data={{ ...intake, documents: [] }}
        id={7}
        apiPath="/api/schools/5/admissions"
        routePath="/schools/admission/5"
        onSaved={saved}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Add a document/ }, SLOW));
    const en = (n: number) => screen.getByRole('textbox', { name: `English name ${n}` }) as HTMLInputElement;
    const zh = (n: number) => screen.getByRole('textbox', { name: `Chinese name ${n}` }) as HTMLInputElement;
    // a type chosen on an empty row names it
    await pick('Document type 1', 'HKID copy');
    await waitFor(() => expect([en(1).value, zh(1).value]).toEqual(['HKID copy', '香港身份證副本']), SLOW);
    // another type: the names it gave follow (they were not typed by hand)
    await pick('Document type 1', 'Study plan');
    await waitFor(() => expect([en(1).value, zh(1).value]).toEqual(['Study plan', '讀書計劃']), SLOW);
    // a name typed by hand stays; the other still follows the type
    fireEvent.change(en(1), { target: { value: 'Study plan (500 words)' } });
    await pick('Document type 1', 'Passport copy');
    await waitFor(() => expect(zh(1).value).toBe('護照副本'), SLOW);
    expect(en(1).value).toBe('Study plan (500 words)');
    console.log(`a checklist row named by its type: ${en(1).value} / ${zh(1).value}`);

    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(saved).toHaveBeenCalled(), SLOW);
    expect(bodyOf(calls, 'PUT', '/api/schools/5/admissions/7').documents).toEqual([
      {
        document_type: 'passport',
        name_en: 'Study plan (500 words)',
        name_zh: '護照副本',
        is_required: true,
      },
    ]);
  });

  it('checks a row’s own rules here before sending', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      ...optionLists,
    });
    renderForm(
      <ResourceForm
        config={admissionConfig}
        data={{ ...intake, documents: [] }}
        id={7}
        apiPath="/api/schools/5/admissions"
        routePath="/schools/admission/5"
        onSaved={() => undefined}
        onDeleted={() => undefined}
        onRefused={() => undefined}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Add a milestone/ }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    const table = screen.getByTestId('collection-timetable');
    // the date and both titles are required
    await waitFor(() => expect(within(table).getAllByText('This field is required')).toHaveLength(3), SLOW);
    expect(calls.filter((c) => c.init.method === 'PUT')).toHaveLength(0);
  });
});

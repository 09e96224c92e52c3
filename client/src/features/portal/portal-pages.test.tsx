import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import DocumentsPage from './documents-page';
import FamilyPage from './family-page';
import PersonalPage from './personal-page';
import { APPLICATION, documentRow, OPTIONS, portalStore, portalStudent } from './portal-test-data';

jest.setTimeout(120_000);

const SUBMITTED_AT = '2026-11-26T02:30:00.000Z'; // 10:30 in Hong Kong
const routeData = (data: unknown) => () => ({ params: {}, query: {}, ...(data as object) });

function setup(path: string, screens: Parameters<typeof renderScreens>[1], locked: boolean, extra = {}) {
  const student = portalStudent({ info_submitted_at: locked ? SUBMITTED_AT : null });
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/student/options': fakeResponse(200, OPTIONS),
    'GET /api/student': fakeResponse(200, student),
    'GET /api/application': fakeResponse(200, { items: [APPLICATION] }),
    'GET /api/education': fakeResponse(200, {
      items: [{ id: 1, level: 'primary', school_name: 'St Paul Primary', level_label: 'Primary school' }],
    }),
    'PUT /api/student': fakeResponse(200, student),
    ...extra,
  });
  const store = portalStore(student);
  const rendered = renderScreens(store, screens, path);
  return { calls, store, ...rendered };
}

const writes = (calls: FetchCall[]) =>
  calls.filter((c) => c.init.method && c.init.method !== 'GET').map((c) => `${c.init.method} ${c.url}`);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('personal details', () => {
  it('edits the details with the staff side’s rules and saves them', async () => {
    const { calls } = setup(
      '/index',
      [{ path: 'index', loader: routeData(portalStudent()), Component: PersonalPage }],
      false,
    );
    const surname = await screen.findByLabelText('Surname (English)', {}, SLOW);
    expect(screen.getByRole('heading', { level: 1, name: 'Personal details' })).toBeInTheDocument();
    fireEvent.change(surname, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Passport no.'), { target: { value: 'K12-34' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('This field is required', {}, SLOW)).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
    fireEvent.change(surname, { target: { value: 'Chan' } });
    fireEvent.change(screen.getByLabelText('Passport no.'), { target: { value: 'K7654321' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(writes(calls)).toEqual(['PUT /api/student']), SLOW);
    const body = JSON.parse(String(calls.find((c) => c.init.method === 'PUT')!.init.body));
    expect(body).toMatchObject({ surname_en: 'Chan', passport_no: 'K7654321' });
    expect(Object.keys(body)).not.toContain('student_no');
  });

  it('is read-only once submitted, with the submission date and who can reopen it', async () => {
    const { calls } = setup(
      '/index',
      [
        {
          path: 'index',
          loader: routeData(portalStudent({ info_submitted_at: SUBMITTED_AT })),
          Component: PersonalPage,
        },
      ],
      true,
    );
    const banner = await screen.findByTestId('portal-locked-banner', {}, SLOW);
    expect(banner).toHaveTextContent('Your information was submitted on 2026-11-26 10:30 (Hong Kong time).');
    expect(banner).toHaveTextContent('ask your consultant to reopen it');
    // the submitted details read as text (label, value), not as disabled inputs (issue 31)
    const details = screen.getByTestId('portal-personal-details');
    expect(within(details).getByText('Surname (English)')).toBeInTheDocument();
    expect(within(details).getByText('Passport no.')).toBeInTheDocument();
    expect(within(details).getByText('K1234567')).toBeInTheDocument();
    expect(screen.queryByLabelText('Surname (English)')).not.toBeInTheDocument();
    expect(document.querySelectorAll('input:disabled')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Save/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Confirm my information/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Choose a photo/ })).not.toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });

  it('shows the server’s lock message when a save is refused after a submission elsewhere', async () => {
    setup('/index', [{ path: 'index', loader: routeData(portalStudent()), Component: PersonalPage }], false, {
      'PUT /api/student': fakeResponse(409, {
        message:
          'Your information has been submitted and can no longer be changed. Ask your consultant to reopen it.',
        code: 'conflict',
        message_key: 'portalLocked',
      }),
    });
    await screen.findByLabelText('Surname (English)', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByTestId('portal-form-error', {}, SLOW)).toHaveTextContent(
      'Your information has been submitted and can no longer be changed.',
    );
  });
});

describe('family and education', () => {
  const family = {
    items: [
      {
        id: 1,
        relationship: 'mother',
        relationship_label: 'Mother',
        name_en: 'Wong Mei Ling',
        name_zh: '黃美玲',
      },
    ],
  };

  it('lists the members as cards, says primary and secondary are required, and locks once submitted', async () => {
    setup('/family', [{ path: 'family', loader: routeData(family), Component: FamilyPage }], true);
    const card = await screen.findByTestId('family-card', {}, SLOW);
    expect(card).toHaveTextContent('Wong Mei Ling');
    expect(card).toHaveTextContent('Mother');
    expect(await screen.findByTestId('education-card', {}, SLOW)).toHaveTextContent('St Paul Primary');
    expect(screen.getByTestId('education-required-note')).toHaveTextContent(
      'Your primary school and your secondary school are both required',
    );
    expect(await screen.findByText(/Still missing: secondary school/, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId('portal-locked-banner')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add a family member/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('adds a member in a dialog with the declaration’s rules', async () => {
    const { calls } = setup(
      '/family',
      [{ path: 'family', loader: routeData(family), Component: FamilyPage }],
      false,
      {
        'POST /api/family': fakeResponse(201, { id: 2, relationship: 'mother', name_en: 'Chan Tai Man' }),
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: /Add a family member/ }, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: /Save/ }));
    expect((await within(dialog).findAllByText('This field is required', {}, SLOW)).length).toBeGreaterThan(
      0,
    );
    expect(writes(calls)).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('English name'), { target: { value: 'Chan Tai Man' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Relationship'));
    fireEvent.click(await screen.findByTitle('Mother', {}, SLOW));
    fireEvent.click(within(dialog).getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(writes(calls)).toEqual(['POST /api/family']), SLOW);
    expect(JSON.parse(String(calls.find((c) => c.init.method === 'POST')!.init.body))).toMatchObject({
      relationship: 'mother',
      name_en: 'Chan Tai Man',
    });
  });
});

describe('documents', () => {
  const checklist = {
    items: [
      documentRow(1, 'pending'),
      documentRow(2, 'uploaded'),
      documentRow(3, 'submitted'),
      documentRow(4, 'unsubmitted'),
      documentRow(5, 'cancelled', { can_upload: false }),
    ],
  };

  it('shows each row’s code in its colour, the legend, due dates, and only the possible upload and remove buttons', async () => {
    setup('/document', [{ path: 'document', loader: routeData(checklist), Component: DocumentsPage }], false);
    await screen.findByText('Document 5', {}, SLOW);
    const codes = screen.getAllByTestId('document-code');
    expect(codes.map((c) => c.textContent)).toEqual(['P', 'U', 'S', 'N', 'C']);
    expect(codes[1].className).toMatch(/ant-tag-blue/);
    expect(codes[2].className).toMatch(/ant-tag-green/);
    expect(codes[3].className).toMatch(/ant-tag-orange/);
    expect(codes[4].className).toMatch(/ant-tag-red/);
    expect(screen.getByTestId('checklist-legend')).toHaveTextContent('Submitted — sent to the school');
    expect(screen.getAllByTestId('document-due')[0]).toHaveTextContent('Due 2026-12-31');
    // titled by its application
    expect(
      await screen.findByText('Seoul University · Spring 2027 · Korean Language', {}, SLOW),
    ).toBeInTheDocument();

    const actions = (id: number) =>
      screen.queryByTestId(`document-actions-${id}`)
        ? [...screen.getByTestId(`document-actions-${id}`).querySelectorAll('button')].map((b) =>
            b.getAttribute('data-action'),
          )
        : [];
    expect(actions(1)).toEqual(['upload']);
    expect(actions(2)).toEqual(['upload', 'remove']);
    expect(actions(3)).toEqual([]);
    expect(actions(4)).toEqual(['upload']);
    expect(actions(5)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Upload Document 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace Document 2' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /scan-2\.pdf/ })).toHaveAttribute(
      'href',
      '/api/document/2/file?inline=1',
    );
  });

  it('offers no upload or removal once the information is submitted', async () => {
    setup('/document', [{ path: 'document', loader: routeData(checklist), Component: DocumentsPage }], true);
    await screen.findByText('Document 5', {}, SLOW);
    expect(screen.queryAllByRole('button', { name: /Upload|Replace|Remove/ })).toEqual([]);
    expect(screen.getByTestId('portal-locked-banner')).toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import SelectApplicationPage from './select-application-page';
import { APPLICATION, portalStore, portalStudent } from './portal-test-data';

jest.setTimeout(120_000);

/** `GET /api/select-application`: the intakes open now and the student's choices. */
const SELECTION = {
  intakes: [
    {
      id: 2,
      school_id: 1,
      school_name_en: 'Seoul University',
      school_name_zh: '首爾大學',
      name_en: 'Spring 2027',
      name_zh: '2027 春季',
      application_start: '2026-11-01',
      application_deadline: '2026-12-31',
      subjects: [
        { id: 4, code: 'KOR', name_en: 'Korean Language', name_zh: '韓語' },
        { id: 5, code: 'BUS', name_en: 'Business', name_zh: '商業' },
      ],
      timetable: [],
    },
  ],
  choices: [APPLICATION],
  locked: false,
};

function setup() {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/student': fakeResponse(200, portalStudent()),
    'POST /api/select-application': fakeResponse(201, { ...APPLICATION, id: 9, subject_id: 5 }),
    'DELETE /api/select-application/3': fakeResponse(204),
  });
  renderScreens(
    portalStore(),
    [
      {
        path: 'select-application',
        loader: () => ({ params: {}, query: {}, ...SELECTION }),
        Component: SelectApplicationPage,
      },
    ],
    '/select-application',
  );
  return calls;
}

const writes = (calls: FetchCall[]) =>
  calls.filter((c) => c.init.method && c.init.method !== 'GET').map((c) => `${c.init.method} ${c.url}`);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('choose application', () => {
  it('lists the open intakes by school with deadlines, chooses a subject and withdraws a choice once confirmed', async () => {
    const calls = setup();
    const school = await screen.findByTestId('school', {}, SLOW);
    expect(school).toHaveTextContent('Seoul University');
    expect(school).toHaveTextContent('Spring 2027');
    expect(school).toHaveTextContent('Apply by 2026-12-31');
    const subjects = within(school).getAllByTestId('subject');
    // the chosen subject says so; the other can be chosen
    expect(subjects[0]).toHaveTextContent('Chosen');
    expect(within(subjects[0]).queryByRole('button')).not.toBeInTheDocument();
    fireEvent.click(within(subjects[1]).getByRole('button', { name: /Choose/ }));
    const ask = await screen.findByText(/Apply for Seoul University · Spring 2027 · Business\?/, {}, SLOW);
    expect(writes(calls)).toEqual([]);
    fireEvent.click(
      within(ask.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Choose' }),
    );
    await waitFor(() => expect(writes(calls)).toEqual(['POST /api/select-application']), SLOW);
    expect(JSON.parse(String(calls.find((c) => c.init.method === 'POST')!.init.body))).toEqual({
      admission_id: 2,
      subject_id: 5,
    });

    const choice = screen.getByTestId('choice');
    expect(choice).toHaveTextContent('Seoul University · Spring 2027 · Korean Language');
    fireEvent.click(within(choice).getByRole('button', { name: /Withdraw/ }));
    const withdraw = await screen.findByText(/Withdraw your choice of/, {}, SLOW);
    fireEvent.click(
      within(withdraw.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Withdraw' }),
    );
    await waitFor(
      () =>
        expect(writes(calls)).toEqual(['POST /api/select-application', 'DELETE /api/select-application/3']),
      SLOW,
    );
  });
});

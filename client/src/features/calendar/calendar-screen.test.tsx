import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CalendarEntry, CalendarFeed } from '../../../../shared/calendar';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FakeResponse, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { CalendarScreen } from './calendar-screen';
import type { CalendarViewProps } from './calendar-view';

jest.setTimeout(120_000);

/**
 * FullCalendar does not lay out in jsdom: the screens are tested with a stand-in view that lists what it is given
 * (the entries and the month); FullCalendar's own drawing is left to the e2e journey.
 */
function StandInView({ type, date, entries, onOpen }: CalendarViewProps) {
  return (
    <ul data-testid="stand-in" data-type={type} data-date={date}>
      {entries.map((entry) => (
        <li key={entry.id}>
          <button type="button" onClick={() => entry.url && onOpen(entry.url)}>
            {entry.title}
          </button>
        </li>
      ))}
    </ul>
  );
}

const SOURCES: CalendarFeed['sources'] = [
  { key: 'holiday', color: '#cf1322' },
  { key: 'application_deadline', color: '#ad4e00' },
  { key: 'calendar_event', color: '#434343' },
];

function entry(overrides: Partial<CalendarEntry> = {}): CalendarEntry {
  return {
    id: 'application_deadline:12',
    source: 'application_deadline',
    title: 'Application deadline: Korea University 2027 Spring',
    detail: 'Korea University',
    start: '2026-12-10',
    end: null,
    all_day: true,
    color: '#ad4e00',
    url: '/schools/admission/5/12',
    record: { type: 'school_admission', id: 12 },
    branch_id: null,
    ...overrides,
  };
}

const meeting = entry({
  id: 'calendar_event:7',
  source: 'calendar_event',
  title: 'Team meeting',
  detail: null,
  start: '2026-12-11T02:30:00.000Z',
  end: '2026-12-11T03:30:00.000Z',
  all_day: false,
  color: '#434343',
  url: '/calendar/events/7',
  record: { type: 'calendar_event', id: 7 },
  branch_id: 2,
});

function feed(items: CalendarEntry[]): CalendarFeed {
  return { type: 'basic', start: '', end: '', sources: SOURCES, items };
}

type Answer = (call: FetchCall) => FakeResponse | Promise<FakeResponse>;

function setup(path: string, answer: Answer, user: Partial<User> = {}) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    // a pending answer is a promise: the fake fetch awaits what a handler returns
    'GET /api/calendars': answer as (call: FetchCall) => FakeResponse,
    'GET /api/branches/lookup': fakeResponse(200, [
      { id: 2, label: 'MK Mong Kok' },
      { id: 3, label: 'CWB Causeway Bay' },
    ]),
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ permissions: ['calendar.view'], ...user })));
  const rendered = renderScreens(
    store,
    [
      { path: 'calendar', element: <CalendarScreen type="basic" view={StandInView} /> },
      { path: 'calendar/list', element: <CalendarScreen type="list" view={StandInView} /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    path,
  );
  return { calls, ...rendered };
}

/** The query of each `GET /api/calendars`. */
const feedCalls = (calls: FetchCall[]) =>
  calls
    .filter((c) => c.url.split('?')[0] === '/api/calendars')
    .map((c) => Object.fromEntries(new URL(c.url, 'http://x').searchParams));

const shown = () =>
  within(screen.getByTestId('stand-in'))
    .queryAllByRole('button')
    .map((b) => b.textContent);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('the calendar screens', () => {
  it('ask for the month grid of the URL’s date, and open an entry’s screen inside the app', async () => {
    const { calls, router } = setup('/calendar?date=2026-12-17', () =>
      fakeResponse(200, feed([entry(), meeting])),
    );
    await screen.findByText('Team meeting', {}, SLOW);
    expect(feedCalls(calls)).toEqual([{ type: 'basic', start: '2026-11-29', end: '2027-01-10' }]);
    expect(screen.getByTestId('calendar-title')).toHaveTextContent('December 2026');
    expect(screen.getByTestId('stand-in')).toHaveAttribute('data-date', '2026-12-17');
    // no branch picker and no "New entry" without the scope and the permission
    expect(screen.queryByRole('combobox', { name: 'Branch' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('calendar-new-entry')).not.toBeInTheDocument();

    fireEvent.click(screen.getByText('Team meeting'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/calendar/events/7'));
  });

  it('step by months, keeping the last entries on show until the next answer arrives', async () => {
    let release: () => void = () => {};
    const { calls, router } = setup('/calendar?date=2026-12-17', (call) => {
      if (call.url.includes('start=2026-11-29')) return fakeResponse(200, feed([entry()]));
      return new Promise<FakeResponse>((resolve) => {
        release = () =>
          resolve(
            fakeResponse(200, feed([entry({ id: 'x', title: 'January deadline', start: '2027-01-05' })])),
          );
      });
    });
    await screen.findByText('Application deadline: Korea University 2027 Spring', {}, SLOW);

    fireEvent.click(screen.getByTestId('calendar-next'));
    await waitFor(() => expect(router.state.location.search).toBe('?date=2027-01-01'));
    await waitFor(() =>
      expect(feedCalls(calls).at(-1)).toEqual({ type: 'basic', start: '2026-12-27', end: '2027-02-07' }),
    );
    expect(screen.getByTestId('calendar-title')).toHaveTextContent('January 2027');
    // not answered yet: the busy flag is up (the progress bar shows it), December's answer stays on show
    expect(screen.getByTestId('calendar-basic')).toHaveAttribute('aria-busy', 'true');
    expect(shown()).toEqual(['Application deadline: Korea University 2027 Spring']);
    await act(async () => release());
    await waitFor(() => expect(shown()).toEqual(['January deadline']));
    expect(screen.getByTestId('calendar-basic')).toHaveAttribute('aria-busy', 'false');

    fireEvent.click(screen.getByTestId('calendar-prev'));
    await waitFor(() => expect(router.state.location.search).toBe('?date=2026-12-01'));
    fireEvent.click(screen.getByTestId('calendar-today'));
    await waitFor(() => expect(router.state.location.search).not.toBe('?date=2026-12-01'));
    expect(router.state.location.search).toMatch(/^\?date=\d{4}-\d{2}-\d{2}$/);
  });

  it('read the month again when the screen is opened again: an entry saved meanwhile shows', async () => {
    let items = [entry()];
    const { calls, router } = setup('/calendar?date=2026-12-17', () => fakeResponse(200, feed(items)));
    await screen.findByText('Application deadline: Korea University 2027 Spring', {}, SLOW);
    await act(async () => router.navigate('/elsewhere'));
    await screen.findByText('elsewhere');
    // saved elsewhere (an intake, an entry) before coming back, within the cache's lifetime
    items = [entry(), meeting];
    await act(async () => router.navigate('/calendar?date=2026-12-17'));
    await screen.findByText('Team meeting', {}, SLOW);
    expect(feedCalls(calls)).toEqual([
      { type: 'basic', start: '2026-11-29', end: '2027-01-10' },
      { type: 'basic', start: '2026-11-29', end: '2027-01-10' },
    ]);
  });

  it('filter by source with the coloured legend, at once and in the request', async () => {
    const { calls, router } = setup('/calendar?date=2026-12-17', () =>
      fakeResponse(200, feed([entry(), meeting])),
    );
    await screen.findByText('Team meeting', {}, SLOW);
    const legend = screen.getByRole('group', { name: 'Show' });
    const tags = within(legend).getAllByRole('button');
    expect(tags.map((tag) => [tag.textContent, tag.getAttribute('aria-pressed')])).toEqual([
      ['Holidays', 'true'],
      ['Application deadlines', 'true'],
      ['Calendar entries', 'true'],
    ]);
    expect(tags[1].style.getPropertyValue('--calendar-source-color')).toBe('#ad4e00');

    fireEvent.click(within(legend).getByRole('button', { name: 'Calendar entries' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?date=2026-12-17&sources=holiday,application_deadline'),
    );
    // hidden before the answer comes
    expect(shown()).toEqual(['Application deadline: Korea University 2027 Spring']);
    expect(within(legend).getByRole('button', { name: 'Calendar entries' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await waitFor(() => expect(feedCalls(calls).at(-1)?.sources).toBe('holiday,application_deadline'));

    // every source on again: no filter at all
    fireEvent.click(within(legend).getByRole('button', { name: 'Calendar entries' }));
    await waitFor(() => expect(router.state.location.search).toBe('?date=2026-12-17'));
  });

  it('switch month ↔ list keeping the date and the filters; the list asks for the month', async () => {
    const { calls, router } = setup('/calendar?date=2026-12-17&sources=holiday', () =>
      fakeResponse(200, feed([])),
    );
    await waitFor(() => expect(feedCalls(calls)).toHaveLength(1), SLOW);
    fireEvent.click(screen.getByText('List'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/calendar/list'));
    expect(router.state.location.search).toBe('?date=2026-12-17&sources=holiday');
    await waitFor(() =>
      expect(feedCalls(calls).at(-1)).toEqual({
        type: 'list',
        start: '2026-12-01',
        end: '2027-01-01',
        sources: 'holiday',
      }),
    );
    expect(screen.getByTestId('stand-in')).toHaveAttribute('data-type', 'list');
    fireEvent.click(screen.getByText('Month'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/calendar'));
    expect(router.state.location.search).toBe('?date=2026-12-17&sources=holiday');
  });

  it('say a refused request in the toolbar and keep the screen', async () => {
    setup('/calendar/list?date=2026-12-17', () =>
      fakeResponse(422, {
        code: 'validation',
        message: 'The given data was invalid.',
        message_key: 'validation',
        error_keys: { end: [{ key: 'calendarEndAfterStart' }] },
      }),
    );
    const alert = await screen.findByTestId('calendar-error', {}, SLOW);
    expect(alert).toHaveTextContent('The end date must be after the start date.');
    expect(screen.getByTestId('stand-in')).toBeInTheDocument();
    expect(screen.getByTestId('calendar-title')).toHaveTextContent('December 2026');
  });

  it('offer the branch picker to callers who see every branch, and "New entry" to calendar.create', async () => {
    const { calls, router } = setup(
      '/calendar?date=2026-12-17&branch_id=2',
      () =>
        fakeResponse(
          200,
          feed([entry(), meeting, { ...meeting, id: 'calendar_event:8', title: 'CWB only', branch_id: 3 }]),
        ),
      {
        role: { id: 1, name: 'Manager', data_scope: 'all' },
        permissions: ['calendar.view', 'calendar.create'],
      },
    );
    await screen.findByText('Team meeting', {}, SLOW);
    expect(feedCalls(calls)[0]).toMatchObject({ branch_id: '2' });
    // the chosen branch is named on opening
    expect(await screen.findByTitle('MK Mong Kok', {}, SLOW)).toBeInTheDocument();
    // another branch's entry of an older answer is not shown
    expect(shown()).not.toContain('CWB only');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Branch' }));
    fireEvent.click(await screen.findByTitle('CWB Causeway Bay', {}, SLOW));
    await waitFor(() => expect(router.state.location.search).toBe('?date=2026-12-17&branch_id=3'));

    expect(screen.getByTestId('calendar-new-entry').closest('a')).toHaveAttribute(
      'href',
      '/calendar/events/create',
    );
  });

  it('keep the branch picker from a branch-scoped role', async () => {
    setup('/calendar?date=2026-12-17', () => fakeResponse(200, feed([entry()])), {
      role: { id: 2, name: 'Consultant', data_scope: 'branch' },
      branch_id: 2,
    });
    await screen.findByText('Application deadline: Korea University 2027 Spring', {}, SLOW);
    expect(screen.queryByRole('combobox', { name: 'Branch' })).not.toBeInTheDocument();
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { AntdProvider } from '../../components/antd-provider';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { PORTAL_DETAIL_FIELDS } from '../../../../shared/schemas/portal';
import { PortalLockBar } from './portal-lock';
import { APPLICATION, documentRow, portalStore, portalStudent } from './portal-test-data';

jest.setTimeout(120_000);

const SUBMITTED_AT = '2026-11-26T02:30:00.000Z'; // 10:30 in Hong Kong

function setup(submit = fakeResponse(200, portalStudent({ info_submitted_at: SUBMITTED_AT }))) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/student': () =>
      fakeResponse(200, portalStudent({ info_submitted_at: posted(calls).length ? SUBMITTED_AT : null })),
    'GET /api/family': fakeResponse(200, {
      items: [{ id: 1, relationship: 'mother', name_en: 'Wong Mei Ling', name_zh: '黃美玲' }],
    }),
    'GET /api/education': fakeResponse(200, {
      items: [
        { id: 1, level: 'primary', school_name: 'St Paul Primary' },
        { id: 2, level: 'secondary', school_name: 'Queen’s College' },
      ],
    }),
    'GET /api/application': fakeResponse(200, { items: [APPLICATION] }),
    'GET /api/document': fakeResponse(200, {
      items: [documentRow(1, 'uploaded'), documentRow(2, 'uploaded'), documentRow(3, 'pending')],
    }),
    'POST /api/student/submit': submit,
  });
  const store = portalStore();
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AntdProvider>
          <PortalLockBar />
        </AntdProvider>
      </MemoryRouter>
    </Provider>,
  );
  return { calls, store };
}

const posted = (calls: FetchCall[]) =>
  calls.filter((c) => c.init.method === 'POST' && c.url === '/api/student/submit');

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('confirm my information', () => {
  it('shows what will be submitted and that it cannot be changed, and posts only once confirmed', async () => {
    const { calls, store } = setup();
    fireEvent.click(await screen.findByRole('button', { name: /Confirm my information/ }, SLOW));
    const summary = await screen.findByTestId('portal-submit-summary', {}, SLOW);
    expect(within(summary).getByText('Chan')).toBeInTheDocument();
    expect(within(summary).getByText('K1234567')).toBeInTheDocument();
    // every detail the submission locks is named, those left empty said to be so (issue 31)
    const details = within(summary).getByTestId('summary-details');
    for (const label of ['Korean name', 'Gender', 'Nationality', 'Korean level', 'Address'])
      expect(within(details).getByText(label)).toBeInTheDocument();
    expect(details.querySelectorAll('.ant-descriptions-item-label')).toHaveLength(
      PORTAL_DETAIL_FIELDS.length,
    );
    expect(within(details).getByText('2005-04-01')).toBeInTheDocument();
    expect(within(details).getAllByText('Not given').length).toBeGreaterThan(0);
    expect(within(summary).getByTestId('summary-family')).toHaveTextContent('Wong Mei Ling');
    expect(within(summary).getByTestId('summary-education')).toHaveTextContent(
      'St Paul Primary, Queen’s College',
    );
    expect(within(summary).getByTestId('summary-applications')).toHaveTextContent(
      'Seoul University · Spring 2027 · Korean Language',
    );
    const documents = within(summary).getByTestId('summary-documents');
    expect(documents).toHaveTextContent('U Uploaded: 2');
    expect(documents).toHaveTextContent('P Pending: 1');
    expect(summary).toHaveTextContent('Once submitted, your information cannot be modified.');

    // nothing is sent until the student ticks the confirmation and submits
    const send = screen.getByTestId('portal-submit-confirm');
    expect(send).toBeDisabled();
    expect(posted(calls)).toHaveLength(0);
    fireEvent.click(within(summary).getByRole('checkbox'));
    expect(posted(calls)).toHaveLength(0);
    await waitFor(() => expect(send).toBeEnabled());
    fireEvent.click(send);
    await waitFor(() => expect(posted(calls)).toHaveLength(1), SLOW);
    await waitFor(() => expect(store.getState().app.student?.info_submitted_at).toBe(SUBMITTED_AT), SLOW);
    // every page's bar now says the information is submitted, when, and who can reopen it
    expect(await screen.findByTestId('portal-locked-banner', {}, SLOW)).toHaveTextContent(
      'Your information was submitted on 2026-11-26 10:30 (Hong Kong time).',
    );
    expect(screen.queryByRole('button', { name: /Confirm my information/ })).not.toBeInTheDocument();
  });

  it('lists what is still missing when the server refuses the submission', async () => {
    const refusal = fakeResponse(422, {
      message: 'The given data was invalid.',
      code: 'validation',
      message_key: 'validation',
      error_keys: {
        gender: [{ key: 'required' }],
        education_secondary: [{ key: 'portalSecondaryEducation' }],
      },
    });
    const { calls, store } = setup(refusal);
    fireEvent.click(await screen.findByRole('button', { name: /Confirm my information/ }, SLOW));
    const summary = await screen.findByTestId('portal-submit-summary', {}, SLOW);
    fireEvent.click(within(summary).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('portal-submit-confirm'));
    const error = await screen.findByTestId('portal-submit-error', {}, SLOW);
    expect(error).toHaveTextContent('Gender:');
    expect(error).toHaveTextContent('Add at least one secondary school to your education before submitting.');
    expect(posted(calls)).toHaveLength(1);
    expect(store.getState().app.student?.info_submitted_at).toBeNull();
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { AntdProvider } from '../../components/antd-provider';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import PortalAccessCard from './portal-access-card';

jest.setTimeout(120_000);

const student = {
  id: 5,
  student_no: 'HK-2026-0001',
  surname_en: 'Chan',
  given_name_en: 'Tai Man',
  name_zh: '陳大文',
  portal_enabled: true,
  portal_email: 'taiman@example.com',
  portal_password_set: false,
  portal_must_change_password: false,
  portal_invited_at: null,
  // 02:30 UTC is 10:30 in Hong Kong
  info_submitted_at: '2026-03-01T02:30:00.000Z',
  allowed_actions: ['update'],
  refusal: null,
};

function setup(record: Record<string, unknown>, permissions = ['students.view', 'students.update']) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'POST /api/students/5/reopen': fakeResponse(200, { ...record, info_submitted_at: null }),
    'POST /api/students/5/portal/invite': fakeResponse(200, {
      ...record,
      portal_invited_at: '2026-03-02T01:00:00.000Z',
    }),
    'POST /api/students/5/portal/password': fakeResponse(200, {
      ...record,
      portal_password_set: true,
      portal_must_change_password: true,
    }),
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ permissions })));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AntdProvider>
          <PortalAccessCard student={{ ...record, id: 5 }} />
        </AntdProvider>
      </MemoryRouter>
    </Provider>,
  );
  return calls;
}

const posts = (calls: FetchCall[]) => calls.filter((c) => c.init.method === 'POST').map((c) => c.url);

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('the portal access card', () => {
  it('shows when the student submitted (Hong Kong time) and reopens only once confirmed', async () => {
    const calls = setup(student);
    expect(await screen.findByTestId('portal-submitted', {}, SLOW)).toHaveTextContent(
      'Information submitted: 2026-03-01 10:30',
    );
    fireEvent.click(screen.getByTestId('portal-reopen'));
    const question = await screen.findByText(/Reopen the information of Chan Tai Man\?/, {}, SLOW);
    expect(posts(calls)).toEqual([]);
    fireEvent.click(
      within(question.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Reopen' }),
    );
    await waitFor(() => expect(posts(calls)).toEqual(['/api/students/5/reopen']), SLOW);
    expect(await screen.findByText(/Reopened/, {}, SLOW)).toBeInTheDocument();
  });

  it('sends the invitation, and sets a first password with the spec’s rule', async () => {
    const calls = setup({ ...student, info_submitted_at: null });
    await screen.findByTestId('portal-access', {}, SLOW);
    expect(screen.queryByTestId('portal-reopen')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Send invitation/ }));
    expect(
      await screen.findByText('The invitation was sent to taiman@example.com.', {}, SLOW),
    ).toBeInTheDocument();
    expect(posts(calls)).toEqual(['/api/students/5/portal/invite']);

    fireEvent.click(screen.getByRole('button', { name: /Set first password/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(dialog).toHaveTextContent('At least 8 characters, with an uppercase letter');
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.change(within(dialog).getByLabelText('Confirm password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByTestId('portal-password-save'));
    expect(
      await within(dialog).findByText(/The password must be at least 8 characters/, {}, SLOW),
    ).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(1);
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Welcome2026' } });
    fireEvent.change(within(dialog).getByLabelText('Confirm password'), { target: { value: 'Welcome2026' } });
    fireEvent.click(screen.getByTestId('portal-password-save'));
    await waitFor(() => expect(posts(calls)).toHaveLength(2), SLOW);
    const sent = calls.find((c) => c.url === '/api/students/5/portal/password')!;
    expect(JSON.parse(String(sent.init.body))).toEqual({
      password: 'Welcome2026',
      password_confirmation: 'Welcome2026',
    });
  });

  it('says what is missing before an invitation can go, without dead buttons', async () => {
    setup({ ...student, portal_enabled: false, portal_email: null, info_submitted_at: null });
    expect(await screen.findByTestId('portal-setup-hint', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a user without students.update the access, with no button at all', async () => {
    setup({ ...student, allowed_actions: [] }, ['students.view']);
    expect(await screen.findByTestId('portal-submitted', {}, SLOW)).toHaveTextContent('2026-03-01 10:30');
    expect(screen.getByText('taiman@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('portal-setup-hint')).toBeNull();
  });
});

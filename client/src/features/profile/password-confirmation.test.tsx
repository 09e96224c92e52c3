import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { makeStore } from '../../app/store';
import { AntdProvider } from '../../components/antd-provider';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { usePasswordConfirmation } from './password-confirmation';
import { useLogoutOtherSessionsMutation } from './profile-api';

function Screen() {
  const [logoutOthers] = useLogoutOtherSessionsMutation();
  const { run, modal } = usePasswordConfirmation();
  const [outcome, setOutcome] = useState('');
  const go = async () => {
    const result = await run(() => logoutOthers());
    if (!result) setOutcome('cancelled');
    else setOutcome(result.data ? `ended ${result.data.ended}` : 'failed');
  };
  return (
    <>
      {modal}
      <button onClick={() => void go()}>Log out others</button>
      <p data-testid="outcome">{outcome}</p>
    </>
  );
}

function setup() {
  const store = makeStore('backoffice');
  render(
    <Provider store={store}>
      <AntdProvider>
        <Screen />
      </AntdProvider>
    </Provider>,
  );
  return userEvent.setup();
}

const NEEDS_CONFIRMATION = fakeResponse(423, {
  message: 'Please confirm your password.',
  code: 'password_confirmation_required',
});

jest.setTimeout(30_000);

describe('password confirmation before a sensitive action', () => {
  beforeEach(() => {
    resetCsrfToken();
    initI18n('en');
  });

  it('asks for the password on 423, refuses a wrong one, then runs the action again once confirmed', async () => {
    let confirmed = false;
    const calls: FetchCall[] = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/user/sessions/logout-others': () =>
        confirmed ? fakeResponse(200, { ended: 2 }) : NEEDS_CONFIRMATION,
      'POST /api/user/confirm-password': (call) => {
        const { password } = JSON.parse(call.init.body as string) as { password: string };
        if (password !== 'Admin1234')
          return fakeResponse(422, {
            message: 'The given data was invalid.',
            code: 'validation',
            errors: { password: ['The provided password does not match your current password.'] },
            error_keys: { password: [{ key: 'currentPasswordWrong' }] },
          });
        confirmed = true;
        return fakeResponse(200, { confirmed: true });
      },
    });
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Log out others' }));

    expect(await screen.findByText('Confirm your password')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    await user.click(screen.getByTestId('confirm-password-submit'));
    expect(
      await screen.findByText('The provided password does not match your current password.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('outcome')).toHaveTextContent('');

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Admin1234' } });
    await user.click(screen.getByTestId('confirm-password-submit'));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('ended 2'));

    const actions = calls.filter((c) => c.url.endsWith('/api/user/sessions/logout-others'));
    expect(actions).toHaveLength(2);
    const confirmations = calls.filter((c) => c.url.endsWith('/api/user/confirm-password'));
    expect(confirmations.map((c) => JSON.parse(c.init.body as string))).toEqual([
      { password: 'wrong' },
      { password: 'Admin1234' },
    ]);
  });

  it('a cancelled confirmation does not run the action again', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/user/sessions/logout-others': NEEDS_CONFIRMATION,
    });
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Log out others' }));
    expect(await screen.findByText('Confirm your password')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('cancelled'));
    expect(calls.filter((c) => c.url.endsWith('/api/user/sessions/logout-others'))).toHaveLength(1);
  });

  it('an action the server allows at once asks nothing', async () => {
    installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/user/sessions/logout-others': fakeResponse(200, { ended: 0 }),
    });
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Log out others' }));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('ended 0'));
    expect(screen.queryByText('Confirm your password')).not.toBeInTheDocument();
  });
});

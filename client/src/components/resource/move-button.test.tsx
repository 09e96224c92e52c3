import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { orders } from '../../../../shared/resources/sales';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { staffUser } from '../../test/fixtures';
import { renderScreens } from '../../test/render-screens';
import { MoveButton } from './move-button';

jest.setTimeout(120_000);

function setup(voidAnswer = fakeResponse(200, { id: 7, order_no: 'INV-MK-2026-00007', status: 'void' })) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'POST /api/orders/7/void': voidAnswer,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ is_admin: true })));
  const moved = jest.fn();
  renderScreens(
    store,
    [
      {
        path: 'x',
        element: (
          <MoveButton
            resource="order"
            apiPath="/api/orders"
            id={7}
            action="void"
            declared={orders.states!.actions.void}
            recordName="INV-MK-2026-00007"
            onMoved={moved}
          />
        ),
      },
    ],
    '/x',
  );
  return { calls, moved };
}

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('a declared move with input (an invoice voided)', () => {
  it('asks in a dialog naming the number, refuses without a reason, then sends the reason', async () => {
    const { calls, moved } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Void INV-MK-2026-00007' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Void: INV-MK-2026-00007?')).toBeTruthy();
    fireEvent.click(screen.getByTestId('move-confirm'));
    await within(dialog).findByText(/required|must/i);
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Reason for voiding'), {
      target: { value: 'Issued twice' },
    });
    fireEvent.click(screen.getByTestId('move-confirm'));
    await waitFor(() => expect(moved).toHaveBeenCalled());
    const post = calls.find((c) => c.init.method === 'POST')!;
    console.log('void body', String(post.init.body));
    expect(JSON.parse(String(post.init.body))).toEqual({ void_reason: 'Issued twice' });
  });

  it('shows the server’s refusal in the dialog, in words, and moves nothing', async () => {
    const { moved } = setup(
      fakeResponse(409, {
        message: 'x',
        code: 'conflict',
        message_key: 'orderAlreadyVoid',
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Void INV-MK-2026-00007' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Reason for voiding'), { target: { value: 'Twice' } });
    fireEvent.click(screen.getByTestId('move-confirm'));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).not.toBe('');
    expect(moved).not.toHaveBeenCalled();
  });
});

import { Suspense } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { documentTotals, formatMinor } from '../../../../shared/money';
import { quotations } from '../../../../shared/resources/sales';
import { deriveSchemas } from '../../../../shared/resources/derive';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { SLOW, staffUser } from '../../test/fixtures';
import { renderScreens } from '../../test/render-screens';
import LinesInput from './lines-input';

jest.setTimeout(120_000);

function Document({ currency }: { currency: string }) {
  const [form] = Form.useForm();
  return (
    <Form
      form={form}
      initialValues={{
        currency,
        language: 'en',
        lines: [
          { description: 'Application', quantity: 3, unit_price: 33_333, discount_rate: 1250 },
          { description: 'Visa', quantity: 1, unit_price: 100_001, discount_rate: 3333 },
        ],
      }}
    >
      <Form.Item name="currency" hidden>
        <input />
      </Form.Item>
      <Suspense fallback={null}>
        <LinesInput
          name="lines"
          schema={deriveSchemas(quotations).create}
          record={null}
          resource="quotation"
          collection={quotations.collections!.lines}
        />
      </Suspense>
    </Form>
  );
}

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
  installFetch({
    'GET /api/options/unit': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 100 }),
  });
});

describe('the lines editor', () => {
  it('previews each net and the totals with documentTotals, again as a price and a discount are typed', async () => {
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(staffUser({ is_admin: true })));
    renderScreens(store, [{ path: 'x', element: <Document currency="HKD" /> }], '/x');
    const first = [
      { quantity: 3, unit_price: 33_333, discount_rate: 1250 },
      { quantity: 1, unit_price: 100_001, discount_rate: 3333 },
    ];
    const before = documentTotals(first, 'HKD');
    await waitFor(
      () =>
        expect(screen.getByTestId('lines-total').textContent).toBe(`HKD ${formatMinor(before.total, 'HKD')}`),
      SLOW,
    );
    expect(screen.getByTestId('line-net-0').textContent).toBe(formatMinor(before.nets[0], 'HKD'));
    expect(screen.getByTestId('lines-subtotal').textContent).toBe(
      `HKD ${formatMinor(before.subtotal, 'HKD')}`,
    );

    fireEvent.change(screen.getByLabelText('Unit price 2'), { target: { value: '0.29' } });
    fireEvent.change(screen.getByLabelText('Discount rate (%) 2'), { target: { value: '33.33' } });
    const after = documentTotals([first[0], { quantity: 1, unit_price: 29, discount_rate: 3333 }], 'HKD');
    await waitFor(() =>
      expect(screen.getByTestId('lines-total').textContent).toBe(`HKD ${formatMinor(after.total, 'HKD')}`),
    );
    console.log(
      'lines preview',
      before.total,
      '→',
      after.total,
      'net 2:',
      screen.getByTestId('line-net-1').textContent,
    );
    expect(screen.getByTestId('line-net-1').textContent).toBe(formatMinor(after.nets[1], 'HKD'));

    // text that is no amount: the line shows no net and adds nothing until it is one
    fireEvent.change(screen.getByLabelText('Unit price 2'), { target: { value: '0.291' } });
    await waitFor(() => expect(screen.getByTestId('line-net-1').textContent).toBe('—'));
    expect(screen.getByTestId('lines-total').textContent).toBe(`HKD ${formatMinor(before.nets[0], 'HKD')}`);
  });
});

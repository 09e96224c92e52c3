import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { documentTotals, lineNet } from '../../../../shared/money';
import { completeLine, pageTotalsByCurrency, previewLines, readMoneyText, readRateText } from './money-lines';
import { MoneyTextInput, RateTextInput } from './money-text-input';

describe('typed money and rates are read into integers, digit by digit', () => {
  it('reads a percentage with two decimals into basis points, and refuses more or beyond 100 %', () => {
    const cases: [string, number | 'invalid' | 'empty'][] = [
      ['12.5', 1250],
      ['12.34', 1234],
      ['0.01', 1],
      ['100', 10000],
      ['7', 700],
      ['33.33 %', 3333],
      ['', 'empty'],
      ['12.345', 'invalid'],
      ['100.01', 'invalid'],
      ['-5', 'invalid'],
      ['abc', 'invalid'],
    ];
    for (const [text, expected] of cases) {
      const read = readRateText(text);
      if (expected === 'invalid' || expected === 'empty') expect(read.kind).toBe(expected);
      else expect(read).toEqual({ kind: 'value', value: expected });
    }
  });

  it('reads money in the currency’s decimals into minor units (KRW ×100, without decimals)', () => {
    expect(readMoneyText('0.29', 'HKD')).toEqual({ kind: 'value', value: 29 }); // 0.29 × 100 is 28.999… as a float
    expect(readMoneyText('1,234.5', 'HKD')).toEqual({ kind: 'value', value: 123450 });
    expect(readMoneyText('10000000000.00', 'HKD')).toEqual({ kind: 'value', value: 1_000_000_000_000 });
    expect(readMoneyText('1500000', 'KRW')).toEqual({ kind: 'value', value: 150_000_000 });
    expect(readMoneyText('1.5', 'KRW').kind).toBe('invalid');
    expect(readMoneyText('1.234', 'HKD').kind).toBe('invalid');
    expect(readMoneyText('12a', 'HKD').kind).toBe('invalid');
    expect(readMoneyText('  ', 'HKD').kind).toBe('empty');
  });
});

describe('the lines’ preview is the server’s arithmetic', () => {
  it('computes each complete line’s net and the totals with documentTotals, leaving incomplete lines out', () => {
    const lines = [
      { quantity: 3, unit_price: 33333, discount_rate: 1250 },
      { quantity: 1, unit_price: 100001, discount_rate: 3333 },
      { quantity: 2, unit_price: null, discount_rate: 0 },
      { quantity: 1, unit_price: 999, discount_rate: null },
    ];
    const preview = previewLines(lines, 'HKD');
    const complete = [
      { quantity: 3, unit_price: 33333, discount_rate: 1250 },
      { quantity: 1, unit_price: 100001, discount_rate: 3333 },
      { quantity: 1, unit_price: 999, discount_rate: 0 },
    ];
    const expected = documentTotals(complete, 'HKD');
    expect(preview.nets).toEqual([expected.nets[0], expected.nets[1], null, expected.nets[2]]);
    expect(preview.nets[0]).toBe(lineNet(complete[0], 'HKD'));
    expect(preview.nets[0]).toBe(87499); // 99999 × 0.875 = 87499.125 → 87499
    expect({ s: preview.subtotal, d: preview.discount_total, t: preview.total }).toEqual({
      s: expected.subtotal,
      d: expected.discount_total,
      t: expected.total,
    });
    expect(preview.complete).toBe(false);
  });

  it('rounds KRW lines to whole won, as the server does', () => {
    const preview = previewLines([{ quantity: 1, unit_price: 150_000_000, discount_rate: 333 }], 'KRW');
    expect(preview.nets[0]! % 100).toBe(0);
    expect(preview.total).toBe(lineNet({ quantity: 1, unit_price: 150_000_000, discount_rate: 333 }, 'KRW'));
  });

  it('takes no line with a float, a NaN (text in error) or a figure beyond the limits', () => {
    expect(completeLine({ quantity: 1.5, unit_price: 100, discount_rate: 0 })).toBeNull();
    expect(completeLine({ quantity: 1, unit_price: Number.NaN, discount_rate: 0 })).toBeNull();
    expect(completeLine({ quantity: 1, unit_price: 100, discount_rate: 10001 })).toBeNull();
    expect(completeLine({ quantity: 1, unit_price: 1_000_000_000_001, discount_rate: 0 })).toBeNull();
    expect(completeLine({ quantity: 2, unit_price: 100 })).toEqual({
      quantity: 2,
      unit_price: 100,
      discount_rate: 0,
    });
  });
});

describe('a page’s totals per currency', () => {
  it('sums each currency on its own, never across currencies, in BigInt', () => {
    const rows = [
      { currency: 'HKD', total: 123450, outstanding: 23450 },
      { currency: 'KRW', total: 150_000_000, outstanding: 0 },
      { currency: 'HKD', total: 1, outstanding: null },
      { currency: 'krw', total: 50_000_000, outstanding: 50_000_000 },
      { currency: 'HKD', total: 4_000_000_000_000_000, outstanding: 1 },
    ];
    const totals = pageTotalsByCurrency(rows, ['total', 'outstanding']);
    console.log('page totals per currency', JSON.stringify(totals));
    expect(totals).toEqual([
      { currency: 'HKD', rows: 3, sums: { total: 4_000_000_000_123_451, outstanding: 23451 } },
      { currency: 'KRW', rows: 2, sums: { total: 200_000_000, outstanding: 50_000_000 } },
    ]);
  });

  it('has no row for a currency the page does not hold', () => {
    expect(pageTotalsByCurrency([], ['total'])).toEqual([]);
  });
});

function Harness({ currency, initial }: { currency: string; initial: number | null }) {
  const [value, setValue] = useState<number | null>(initial);
  const [rate, setRate] = useState<number | null>(null);
  return (
    <>
      <MoneyTextInput aria-label="price" currency={currency} value={value} onChange={setValue} />
      <RateTextInput aria-label="rate" value={rate} onChange={setRate} />
      <output data-testid="held">{JSON.stringify({ value, rate })}</output>
    </>
  );
}

describe('the money and rate boxes', () => {
  const held = () => JSON.parse(screen.getByTestId('held').textContent!.replace(/null/g, 'null'));

  it('hold the integer of what is typed and show a held amount in its currency', () => {
    render(<Harness currency="HKD" initial={123450} />);
    const price = screen.getByLabelText('price') as HTMLInputElement;
    expect(price.value).toBe('1234.50');
    fireEvent.change(price, { target: { value: '0.29' } });
    expect(held().value).toBe(29);
    fireEvent.change(screen.getByLabelText('rate'), { target: { value: '12.5' } });
    expect(held().rate).toBe(1250);
    fireEvent.change(screen.getByLabelText('rate'), { target: { value: '' } });
    expect(held().rate).toBeNull();
  });

  it('hold NaN for text that is no amount (refused by the rules) and mark the box in error', () => {
    render(<Harness currency="KRW" initial={null} />);
    const price = screen.getByLabelText('price') as HTMLInputElement;
    fireEvent.change(price, { target: { value: '1500.5' } });
    expect(price.getAttribute('aria-invalid')).toBe('true');
    // JSON writes NaN as null: the value held is not a number
    expect(held().value).toBeNull();
    fireEvent.change(price, { target: { value: '1,500,000' } });
    expect(price.getAttribute('aria-invalid')).toBeNull();
    expect(held().value).toBe(150_000_000);
  });
});

describe('the total rows under a list', () => {
  it('draws one row per currency with each totalled column in its currency’s decimals', async () => {
    const { Table } = await import('antd');
    const { PageTotalsSummary } = await import('./page-totals');
    const rows = [
      { id: 1, order_no: 'INV-1', currency: 'HKD', total: 123450, outstanding: 23450 },
      { id: 2, order_no: 'INV-2', currency: 'KRW', total: 150_000_000, outstanding: 150_000_000 },
      { id: 3, order_no: 'INV-3', currency: 'HKD', total: 99, outstanding: 0 },
    ];
    const columns = ['order_no', 'total', 'outstanding'];
    render(
      <Table
        rowKey="id"
        dataSource={rows}
        pagination={false}
        columns={columns.map((key) => ({ key, dataIndex: key }))}
        summary={() => <PageTotalsSummary rows={rows} columns={columns} fields={['total', 'outstanding']} />}
      />,
    );
    const totals = screen.getAllByTestId('page-total');
    const cells = totals.map((row) => [
      row.getAttribute('data-currency'),
      row.querySelector('[data-total="total"]')?.textContent,
      row.querySelector('[data-total="outstanding"]')?.textContent,
    ]);
    console.log('total rows', JSON.stringify(cells));
    expect(cells).toEqual([
      ['HKD', '1,235.49', '234.50'],
      ['KRW', '1,500,000', '1,500,000'],
    ]);
  });
});

import { render, screen } from '@testing-library/react';
import { initI18n } from '../../i18n/i18n';
import {
  currencyDigits,
  formatDate,
  formatDateTime,
  formatMoney,
  formatRate,
  plainText,
  renderDeclaredValue,
} from './renderers';

describe('formatMoney', () => {
  it('shows two-decimal currencies with their cents and thousands separators', () => {
    expect(formatMoney(123456789, 'HKD', 'en')).toBe('HKD 1,234,567.89');
    expect(formatMoney(50, 'USD', 'en')).toBe('USD 0.50');
    expect(formatMoney(-1999, 'HKD', 'zh_HK')).toBe('HKD -19.99');
    expect(formatMoney(0, 'HKD', 'en')).toBe('HKD 0.00');
  });

  it('shows KRW and JPY, stored ×100 like every currency, without decimals', () => {
    expect(formatMoney(123456700, 'KRW', 'en')).toBe('KRW 1,234,567');
    expect(formatMoney(123456700, 'KRW', 'zh_HK')).toBe('KRW 1,234,567');
    expect(formatMoney(500000, 'JPY', 'en')).toBe('JPY 5,000');
    expect(currencyDigits('KRW')).toBe(0);
    expect(currencyDigits('BHD')).toBe(3);
    // stored ×100 like every currency (domain.md), shown with its own decimals
    expect(formatMoney(1234, 'BHD', 'en')).toBe('BHD 12.340');
  });

  it('shows nothing for no amount, and an amount without a currency with two decimals', () => {
    expect(formatMoney(null, 'HKD', 'en')).toBe('');
    expect(formatMoney(undefined, 'HKD', 'en')).toBe('');
    expect(formatMoney(1000, null, 'en')).toBe('10.00');
  });
});

describe('times in Hong Kong', () => {
  it('runs in a browser zone other than Hong Kong (so Hong Kong time cannot come from the browser)', () => {
    expect(new Date('2026-03-01T10:30:00Z').getTimezoneOffset()).not.toBe(-480);
  });

  it('shows a UTC time in Hong Kong time (UTC+8), whatever the offset it was written with', () => {
    expect(formatDateTime('2026-03-01T10:30:00Z')).toBe('2026-03-01 18:30');
    expect(formatDateTime('2026-03-01T10:30:00.000Z', { seconds: true })).toBe('2026-03-01 18:30:00');
    expect(formatDateTime('2026-03-01T18:30:00+08:00')).toBe('2026-03-01 18:30');
    expect(formatDateTime('2026-03-01T05:30:00-05:00')).toBe('2026-03-01 18:30');
  });

  it('reads a database time without an offset as UTC, and crosses midnight into the next day', () => {
    expect(formatDateTime('2026-12-31 20:15:00')).toBe('2027-01-01 04:15');
    expect(formatDate('2026-12-31T20:15:00Z')).toBe('2027-01-01');
  });

  it('shows a calendar date as it is', () => {
    expect(formatDate('2026-02-28')).toBe('2026-02-28');
    expect(formatDate(null)).toBe('');
    expect(formatDateTime('')).toBe('');
  });
});

describe('declared values', () => {
  beforeAll(() => initI18n('zh_HK'));

  const decl = {
    name: 'invoice',
    states: { column: 'status', values: ['draft', 'issued'], initial: 'draft', actions: {} },
  };
  const t = (key: string) => key;

  it('shows a rate in basis points as a percentage, and rich text as its words', () => {
    expect(formatRate(1234, 'en')).toBe('12.34%');
    expect(formatRate(500, 'en')).toBe('5%');
    expect(plainText('<p>Hello <b>world</b></p><p>&amp; more</p>')).toBe('Hello world & more');
  });

  it('names a lookup by its name field, never by its id', () => {
    const row = { id: 1, branch_id: 3, branch_name: '銅鑼灣分行' };
    const node = renderDeclaredValue(decl, 'branch_id', { type: 'lookup', resource: 'branch' }, row, {
      t,
      language: 'zh_HK',
    });
    expect(node).toBe('銅鑼灣分行');
    const none = renderDeclaredValue(
      decl,
      'branch_id',
      { type: 'lookup', resource: 'branch' },
      { id: 2, branch_id: 4 },
      {
        t,
        language: 'zh_HK',
      },
    );
    expect(none).toBe('');
  });

  it('shows money with the currency of the row, booleans, colours and states as tags', () => {
    const row = { id: 1, amount: 150000000, currency: 'KRW', paid: true, color: '#FF0000', status: 'issued' };
    expect(
      renderDeclaredValue(decl, 'amount', { type: 'money', currency: 'currency' }, row, {
        t,
        language: 'en',
      }),
    ).toBe('KRW 1,500,000');
    render(
      <div>
        {renderDeclaredValue(decl, 'paid', { type: 'boolean' }, row, { t, language: 'zh_HK' })}
        {renderDeclaredValue(decl, 'color', { type: 'color' }, row, { t, language: 'zh_HK' })}
        {renderDeclaredValue(decl, 'status', { type: 'text', max: 20 }, row, { t, language: 'zh_HK' })}
      </div>,
    );
    expect(screen.getByText('是')).toBeInTheDocument();
    expect(screen.getByTestId('color-swatch')).toHaveTextContent('#ff0000');
    // the state's label key, shown as the value while the resource has no strings for it
    expect(screen.getByText('issued')).toHaveAttribute('data-state', 'issued');
  });
});

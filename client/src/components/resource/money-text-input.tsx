import { useEffect, useRef, useState } from 'react';
import { Input } from 'antd';
import { formatMinor, formatRateText } from '../../../../shared/money';
import { readMoneyText, readRateText, type TypedNumber } from './money-lines';

/**
 * Money and rates typed as text and read digit by digit into integers (shared/money.ts `parseMoney`, `parseRate`):
 * no float ever holds the amount, so `0.29` is 29 cents and `1,234,567,890.12` is exact. The box keeps what is
 * typed; the form holds the integer. Text that is no amount of the currency (three decimals, two decimals in
 * KRW, letters) is shown in error and held as NaN, which every rule refuses, so it is never saved as something
 * else.
 */

interface TextNumberProps {
  id?: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
  disabled?: boolean;
  'aria-label'?: string;
  width?: number | string;
}

function useTypedNumber(
  value: number | null | undefined,
  show: (value: number) => string,
  read: (text: string) => TypedNumber,
  onChange: ((value: number | null) => void) | undefined,
) {
  const shown = (v: number | null | undefined) =>
    v === null || v === undefined || Number.isNaN(v) ? '' : show(v);
  const [text, setText] = useState(() => shown(value));
  // the value the form holds, as last sent from here: a value set from elsewhere (a picked item) is shown anew
  const sent = useRef<number | null | undefined>(value);
  useEffect(() => {
    const same = value === sent.current || (Number.isNaN(value) && Number.isNaN(sent.current));
    if (!same) {
      sent.current = value;
      setText(shown(value));
    }
    // `show` changes with the currency: the text is read again below
  }, [value]); // eslint-disable-line react-hooks/exhaustive-deps
  const typed = read(text);
  const change = (next: string) => {
    setText(next);
    const result = read(next);
    const out = result.kind === 'value' ? result.value : result.kind === 'empty' ? null : Number.NaN;
    sent.current = out;
    onChange?.(out);
  };
  return { text, invalid: typed.kind === 'invalid', change };
}

/** An amount in integer minor units of `currency`, typed in its major units (`1,234.50`; KRW without decimals). */
export function MoneyTextInput({
  currency,
  width = 160,
  ...props
}: TextNumberProps & { currency: string | null | undefined }) {
  const { text, invalid, change } = useTypedNumber(
    props.value,
    (v) => formatMinor(v, currency, { plain: true }),
    (t) => readMoneyText(t, currency),
    props.onChange,
  );
  // the currency changed under a typed amount: read it again in the new currency's decimals
  const lastCurrency = useRef(currency);
  useEffect(() => {
    if (lastCurrency.current === currency) return;
    lastCurrency.current = currency;
    if (text.trim()) change(text);
  }, [currency]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Input
      id={props.id}
      disabled={props.disabled}
      aria-label={props['aria-label']}
      aria-invalid={invalid || undefined}
      status={invalid ? 'error' : undefined}
      inputMode="decimal"
      autoComplete="off"
      // the currency code in grey that still reads: #595959 is 7:1 on white (axe color-contrast; #8c8c8c was 3.4:1)
      prefix={currency ? <span style={{ color: '#595959' }}>{currency}</span> : undefined}
      value={text}
      onChange={(e) => change(e.target.value)}
      style={{ width, textAlign: 'right' }}
      data-money-input=""
    />
  );
}

/** A rate in basis points, typed as a percentage with at most two decimals (`12.5` → 1250). */
export function RateTextInput({ width = 110, ...props }: TextNumberProps) {
  const { text, invalid, change } = useTypedNumber(props.value, formatRateText, readRateText, props.onChange);
  return (
    <Input
      id={props.id}
      disabled={props.disabled}
      aria-label={props['aria-label']}
      aria-invalid={invalid || undefined}
      status={invalid ? 'error' : undefined}
      inputMode="decimal"
      autoComplete="off"
      suffix="%"
      value={text}
      onChange={(e) => change(e.target.value)}
      style={{ width }}
      data-rate-input=""
    />
  );
}

import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ControlProps } from './from-declaration';
import { BUSINESS_TIME_ZONE, inBusinessTime } from '../../i18n/date-time';

/**
 * A date and time picked in Hong Kong time, kept as an ISO time with its offset (`…T18:30:00+08:00`); loaded on
 * demand by `DateTimeInput` in from-declaration.tsx.
 */
export default function DateTimeInput(props: ControlProps<string>) {
  const value = props.value ? inBusinessTime(props.value) : null;
  return (
    <DatePicker
      id={props.id}
      disabled={props.disabled}
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      style={{ width: 220 }}
      value={value && value.isValid() ? value : null}
      onChange={(picked: Dayjs | null) =>
        props.onChange?.(
          picked ? dayjs.tz(picked.format('YYYY-MM-DDTHH:mm:00'), BUSINESS_TIME_ZONE).format() : null,
        )
      }
    />
  );
}

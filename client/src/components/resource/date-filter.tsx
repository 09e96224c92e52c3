import { DatePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** `YYYY-MM-DD`, the one date format of the app's screens and API, in both languages. */
export const DATE_FORMAT = 'YYYY-MM-DD';

/** The other end of a date range filter: `date_from` ↔ `date_to`, `created_at_from` ↔ `created_at_to`. */
export function rangePartner(name: string): { name: string; end: 'from' | 'to' } | null {
  const m = /^(.*)_(from|to)$/.exec(name);
  if (!m) return null;
  return { name: `${m[1]}_${m[2] === 'from' ? 'to' : 'from'}`, end: m[2] as 'from' | 'to' };
}

/** Whether `value` at this end and the partner's value make a range that ends before it starts. */
export function rangeReversed(name: string, value: string | undefined, partner: string | undefined): boolean {
  const range = rangePartner(name);
  if (!range || !value || !partner) return false;
  return range.end === 'from' ? value > partner : value < partner;
}

/**
 * A list filter's date, picked in a calendar or typed as `YYYY-MM-DD` (never the browser's own mm/dd/yyyy). One end
 * of a range (`…_from` / `…_to`) that would end before it starts is not applied: the control says so beside itself
 * (the server refuses such a range too, 422 on the end date).
 */
export function DateFilter({
  name,
  label,
  value,
  query,
  onChange,
}: {
  name: string;
  label: string;
  value: string | undefined;
  /** the list's query: the range's other end is read from it */
  query?: Record<string, unknown>;
  onChange: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const messageId = useId();
  // a date picked but not applied (the range would be reversed): shown until it is corrected or the query moves
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => setPending(null), [value]);
  const partnerName = rangePartner(name)?.name;
  const partner = partnerName ? query?.[partnerName] : undefined;
  const shown = pending ?? value;
  // the end just picked says so (a reversed range that came in the address is the server's 422 on the end date,
  // which the table shows beside that control)
  const reversed =
    pending !== null && rangeReversed(name, shown, typeof partner === 'string' ? partner : undefined);
  const picked = shown && /^\d{4}-\d{2}-\d{2}$/.test(shown) ? dayjs(shown) : null;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <DatePicker
        aria-label={label}
        placeholder={label}
        format={DATE_FORMAT}
        value={picked && picked.isValid() ? picked : null}
        status={reversed ? 'error' : undefined}
        aria-invalid={reversed || undefined}
        aria-describedby={reversed ? messageId : undefined}
        style={{ width: 160 }}
        onChange={(date: Dayjs | null) => {
          const next = date ? date.format(DATE_FORMAT) : undefined;
          if (rangeReversed(name, next, typeof partner === 'string' ? partner : undefined)) {
            setPending(next ?? null);
            return;
          }
          setPending(null);
          onChange(next);
        }}
      />
      {reversed && (
        <Typography.Text type="danger" id={messageId} role="alert" data-testid={`filter-${name}-error`}>
          {t('serverMessages.dateRangeOrder')}
        </Typography.Text>
      )}
    </span>
  );
}

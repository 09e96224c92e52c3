import { DatePicker, Input, InputNumber, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ResourceFieldInput } from './types';

/**
 * The input of a form field; antd's Form.Item hands it `id`, `value` and `onChange`, passed on to the control.
 * Used by the record form and by the cells of a collection's rows.
 */
export function FieldInput({
  input,
  data,
  record,
  block = false,
  ...control
}: {
  input: ResourceFieldInput;
  /** as wide as its place (a table cell), not the form's usual width */
  block?: boolean;
  data: Record<string, unknown>;
  record: Record<string, unknown> | null;
  id?: string;
  value?: never;
  checked?: never;
  onChange?: never;
  disabled?: boolean;
  'aria-label'?: string;
}) {
  const { i18n } = useTranslation();
  switch (input.type) {
    case 'textarea':
      return <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} {...control} />;
    case 'password':
      return <Input.Password autoComplete="new-password" {...control} />;
    case 'number':
      return (
        <InputNumber min={input.min} max={input.max} style={{ width: block ? '100%' : 200 }} {...control} />
      );
    case 'switch':
      return <Switch {...control} />;
    case 'select':
      return (
        <Select
          allowClear={input.allowClear}
          options={input.options(data, i18n.language)}
          style={{ maxWidth: 400 }}
          {...control}
        />
      );
    case 'custom':
      return <>{input.render({ ...control, record })}</>;
    case 'group':
      return null;
    case 'date':
      return <DatePicker format="YYYY-MM-DD" style={{ width: block ? '100%' : 200 }} {...control} />;
    default:
      return <Input autoComplete="off" {...control} />;
  }
}

/**
 * The Form.Item props an input needs beyond its name and rules: a switch's value is `checked`; a date is kept
 * as `YYYY-MM-DD` text and shown in a picker.
 */
export function fieldItemProps(input: ResourceFieldInput) {
  if (input.type === 'switch') return { valuePropName: 'checked' };
  if (input.type === 'date')
    return {
      valuePropName: 'value',
      getValueProps: (value: unknown) => ({
        value: typeof value === 'string' && value ? dayjs(value) : undefined,
      }),
      // an emptied date is sent as null (the record's date cleared), not left out
      normalize: (value: Dayjs | null) => (value ? value.format('YYYY-MM-DD') : null),
    };
  return { valuePropName: 'value' };
}

import { useMemo, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinor, formatMoneyText } from '../../../../shared/money';
import type { CollectionDeclaration } from '../../../../shared/resources/declaration';
import { declarationByName } from '../../../../shared/resources';
import { RowButtons, rowSchemaOf } from './collection-input';
import { LookupSelect, OptionSelect } from './from-declaration';
import { previewLines, type DraftLine } from './money-lines';
import { MoneyTextInput, RateTextInput } from './money-text-input';
import { useLazyResourceReadQuery, useResourceReadQuery } from './resource-api';
import { displayName } from '../../../../shared/resources/derive';
import { zodRule } from './resource-errors';
import type { GroupFieldProps } from './types';

/**
 * What a line may point at: a lookup field of the line naming a priced record (a service, a quotation item, a
 * special event), and the fields of that record that fill the line — its name per language, its unit, its price
 * and its currency.
 */
export interface LineSource {
  /** the line's lookup field (`product_id`) */
  field: string;
  /** the record's name per language (`name_en`, `name_zh`; an event's `title_en`, `title_zh`) */
  name: { en: string; zh_HK: string };
  unit?: string;
  price: string;
  currency: string;
}

/** The sources of the sales documents' lines (shared/resources/sales.ts `LINE_SOURCES`). */
export const SALES_LINE_SOURCES: readonly LineSource[] = [
  {
    field: 'product_id',
    name: { en: 'name_en', zh_HK: 'name_zh' },
    unit: 'unit',
    price: 'price',
    currency: 'currency',
  },
  {
    field: 'quotation_item_id',
    name: { en: 'name_en', zh_HK: 'name_zh' },
    unit: 'unit',
    price: 'unit_price',
    currency: 'currency',
  },
  {
    field: 'special_event_id',
    name: { en: 'title_en', zh_HK: 'title_zh' },
    price: 'fee',
    currency: 'currency',
  },
];

export interface LinesInputProps extends GroupFieldProps {
  /** the document's declaration name: labels are `resources.<name>.collections.<collection>.*` */
  resource: string;
  collection: CollectionDeclaration;
  sources?: readonly LineSource[];
  /** the document's field naming its currency, and the one naming the language its lines are described in */
  currencyField?: string;
  languageField?: string;
  /** the field naming the document's student, whose language the lines are described in when it names none */
  studentField?: string;
}

/** The lookup declared for a source field (its resource). */
function sourceResource(collection: CollectionDeclaration, field: string): string | null {
  const declared = collection.fields?.[field];
  return declared?.type === 'lookup' ? declared.resource : null;
}

/** The source a row points at now (the first of its source fields holding an id), or null. */
function rowSource(
  row: Record<string, unknown> | undefined,
  sources: readonly LineSource[],
): LineSource | null {
  return sources.find((s) => row?.[s.field] !== null && row?.[s.field] !== undefined) ?? null;
}

/**
 * The lines of a sales document, saved whole with it: per line, what it points at (a service, a quotation item
 * or a special event: at most one, chosen by kind then by name, which fills the description in the document's
 * language — its student's when it names none —, the unit and the unit price), the description, quantity, unit, unit price (typed in the document's
 * currency, held in minor units), discount (a percentage with two decimals, held in basis points) and the net
 * amount; under them the subtotal, discount and total. Every figure shown is `documentTotals` of shared/money.ts,
 * the function the server saves with, so the preview is what the server will answer. The rows are an antd
 * `Form.List` under the collection's name, each cell checked by the row's declared rules and showing the server's
 * error on it (`lines.2.unit_price`).
 */
export default function LinesInput({
  name,
  schema,
  disabled,
  record,
  resource,
  collection,
  sources = SALES_LINE_SOURCES,
  currencyField = 'currency',
  languageField = 'language',
  studentField = 'student_id',
}: LinesInputProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const form = Form.useFormInstance();
  const currency = (Form.useWatch(currencyField, form) ?? record?.[currencyField] ?? null) as string | null;
  const watchedLanguage = Form.useWatch(languageField, form) as string | null | undefined;
  const chosenLanguage = watchedLanguage ?? (record?.[languageField] as string | null | undefined) ?? null;
  // a document without a language of its own is in its student's (read once, quietly: a refusal changes nothing)
  const studentId = (Form.useWatch(studentField, form) ?? record?.[studentField] ?? null) as number | null;
  const { data: student } = useResourceReadQuery(
    { url: `/api/students/${String(studentId)}`, handleErrors: false },
    { skip: Boolean(chosenLanguage) || !studentId },
  );
  const language =
    chosenLanguage ??
    ((student as Record<string, unknown> | undefined)?.language as string | undefined) ??
    i18n.language;
  const watchedLines = Form.useWatch(name, form) as (DraftLine & Record<string, unknown>)[] | undefined;
  const lines = useMemo(() => watchedLines ?? [], [watchedLines]);
  const preview = useMemo(() => previewLines(lines, currency), [lines, currency]);
  const rowSchema = useMemo(() => rowSchemaOf(schema, name), [schema, name]);
  const [readRecord] = useLazyResourceReadQuery();
  const labels = `resources.${resource}.collections.${name}`;
  const label = (field: string) => t(`${labels}.fields.${field}`);
  const rule = (field: string) => (rowSchema && rowSchema.shape[field] ? [zodRule(rowSchema, field, t)] : []);
  const names = (record?.[name] as Record<string, unknown>[] | undefined) ?? [];

  /** A source picked: the row points at it alone, and takes its name, unit and price. */
  const pick = async (index: number, source: LineSource, id: number | null) => {
    for (const other of sources) form.setFieldValue([name, index, other.field], other === source ? id : null);
    if (id === null) return;
    const path = declarationByName(sourceResource(collection, source.field) ?? '')?.path;
    if (!path) return;
    try {
      const picked = (await readRecord({ url: `/api${path}/${id}` }).unwrap()) as Record<string, unknown>;
      const description = picked[language === 'en' ? source.name.en : source.name.zh_HK];
      if (typeof description === 'string' && description)
        form.setFieldValue([name, index, 'description'], description);
      if (source.unit && picked[source.unit]) form.setFieldValue([name, index, 'unit'], picked[source.unit]);
      const itemCurrency = String(picked[source.currency] ?? '').toUpperCase();
      if (currency && itemCurrency && itemCurrency !== String(currency).toUpperCase()) {
        void message.warning(
          t('resource.lines.otherCurrency', { currency: itemCurrency, document: currency }),
        );
      } else if (typeof picked[source.price] === 'number') {
        form.setFieldValue([name, index, 'unit_price'], picked[source.price]);
      }
      if (!form.getFieldValue([name, index, 'quantity'])) form.setFieldValue([name, index, 'quantity'], 1);
      // the form hears of the change (its unsaved-changes guard, the preview)
      form.setFields([{ name: [name, index, 'description'], touched: true }]);
    } catch {
      // the record could not be read: the line keeps what was typed
    }
  };

  return (
    <Form.List name={name}>
      {(rows, { add, remove, move }, { errors }) => (
        <div data-testid={`lines-${name}`}>
          <Table
            rowKey="key"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={rows}
            locale={{ emptyText: t('resource.collection.empty') }}
            columns={[
              {
                key: 'source',
                title: t('resource.lines.item'),
                width: 230,
                render: (_v, row, index) => (
                  <SourceCell
                    sources={sources}
                    collection={collection}
                    value={lines[index]}
                    initialLabel={sourceLabel(names[index], sources)}
                    disabled={disabled}
                    index={index}
                    onPick={(source, id) => void pick(row.name, source, id)}
                    rowName={row.name}
                  />
                ),
              },
              {
                key: 'description',
                title: label('description'),
                width: 200,
                render: (_v, row, index) => (
                  <Form.Item
                    name={[row.name, 'description']}
                    rules={rule('description')}
                    style={{ margin: 0 }}
                  >
                    <Input.TextArea
                      autoSize={{ minRows: 1, maxRows: 4 }}
                      aria-label={`${label('description')} ${index + 1}`}
                    />
                  </Form.Item>
                ),
              },
              {
                key: 'quantity',
                title: label('quantity'),
                width: 90,
                render: (_v, row, index) => (
                  <Form.Item name={[row.name, 'quantity']} rules={rule('quantity')} style={{ margin: 0 }}>
                    <InputNumber<number>
                      min={1}
                      precision={0}
                      style={{ width: 80 }}
                      aria-label={`${label('quantity')} ${index + 1}`}
                    />
                  </Form.Item>
                ),
              },
              {
                key: 'unit',
                title: label('unit'),
                width: 100,
                render: (_v, row) => (
                  <Form.Item name={[row.name, 'unit']} rules={rule('unit')} style={{ margin: 0 }}>
                    <UnitSelect />
                  </Form.Item>
                ),
              },
              {
                key: 'unit_price',
                title: label('unit_price'),
                width: 160,
                render: (_v, row, index) => (
                  <Form.Item name={[row.name, 'unit_price']} rules={rule('unit_price')} style={{ margin: 0 }}>
                    <MoneyTextInput
                      currency={currency}
                      width={140}
                      aria-label={`${label('unit_price')} ${index + 1}`}
                    />
                  </Form.Item>
                ),
              },
              {
                key: 'discount_rate',
                title: label('discount_rate'),
                width: 110,
                render: (_v, row, index) => (
                  <Form.Item
                    name={[row.name, 'discount_rate']}
                    rules={rule('discount_rate')}
                    style={{ margin: 0 }}
                  >
                    <RateTextInput width={90} aria-label={`${label('discount_rate')} ${index + 1}`} />
                  </Form.Item>
                ),
              },
              {
                key: 'net_amount',
                title: label('net_amount'),
                width: 120,
                align: 'right',
                render: (_v, _row, index) => (
                  <Typography.Text data-testid={`line-net-${index}`}>
                    {preview.nets[index] === null || preview.nets[index] === undefined
                      ? '—'
                      : formatMinor(preview.nets[index], currency)}
                  </Typography.Text>
                ),
              },
              {
                key: 'actions',
                width: 1,
                render: (_v, row, index) => (
                  <RowButtons
                    index={index}
                    count={rows.length}
                    disabled={disabled}
                    onMove={move}
                    onRemove={remove}
                  >
                    <Form.Item name={[row.name, 'id']} hidden>
                      <Input />
                    </Form.Item>
                  </RowButtons>
                ),
              },
            ]}
          />
          <Form.ErrorList errors={errors} />
          <Space align="start" style={{ marginTop: 8, width: '100%', justifyContent: 'space-between' }} wrap>
            <Button
              icon={<PlusOutlined />}
              disabled={disabled || rows.length >= collection.max}
              onClick={() => add({ quantity: 1, discount_rate: 0 })}
              data-testid="lines-add"
            >
              {t(`${labels}.add`, { defaultValue: t('resource.lines.add') })}
            </Button>
            <Descriptions
              size="small"
              column={1}
              bordered
              data-testid="lines-totals"
              style={{ minWidth: 320 }}
              items={(['subtotal', 'discount_total', 'total'] as const).map((key) => ({
                key,
                label: t(`resource.lines.${key}`),
                children: (
                  <Typography.Text strong={key === 'total'} data-testid={`lines-${key}`}>
                    {formatMoneyText(preview[key], currency)}
                  </Typography.Text>
                ),
              }))}
            />
          </Space>
        </div>
      )}
    </Form.List>
  );
}

/** The unit of the `unit` option list. */
function UnitSelect(props: { id?: string; value?: string | null; onChange?: (v: string | null) => void }) {
  return <OptionSelect list="unit" allowClear {...props} />;
}

/** A saved line's source name (the read's `<field>_name`), for the picker until its choices hold it. */
function sourceLabel(
  row: Record<string, unknown> | undefined,
  sources: readonly LineSource[],
): string | null {
  const source = rowSource(row, sources);
  if (!source) return null;
  const label = row?.[source.field.replace(/_id$/, '_name')];
  return typeof label === 'string' ? label : null;
}

/**
 * The name of a saved line's source as its picker shows it (the record's declared display, in the screen's
 * language), read once per record when the line came without it; what the line came with otherwise.
 */
function useSourceName(resource: string | null, id: number | null, known: string | null): string | null {
  const { i18n } = useTranslation();
  const decl = resource ? declarationByName(resource) : undefined;
  const { data } = useResourceReadQuery(
    { url: `/api${decl?.path ?? ''}/${String(id)}` },
    { skip: Boolean(known) || !decl || id === null },
  );
  if (known) return known;
  return decl && data ? displayName(decl, data as Record<string, unknown>, i18n.language) || null : null;
}

/** A line's source: its kind (service, quotation item, special event), then the record, searched by name. */
function SourceCell({
  sources,
  collection,
  value,
  initialLabel,
  disabled,
  index,
  onPick,
  rowName,
}: {
  sources: readonly LineSource[];
  collection: CollectionDeclaration;
  value: Record<string, unknown> | undefined;
  initialLabel: string | null;
  disabled?: boolean;
  index: number;
  onPick: (source: LineSource, id: number | null) => void;
  rowName: number;
}) {
  const { t } = useTranslation();
  const current = rowSource(value, sources);
  // the kind chosen before its record is: the row's source field once one is picked
  const [chosen, setChosen] = useState<string | null>(null);
  const kind = chosen ?? current?.field;
  const source = sources.find((s) => s.field === kind) ?? null;
  const resource = source ? sourceResource(collection, source.field) : null;
  const id = source ? ((value?.[source.field] as number | null | undefined) ?? null) : null;
  const named = useSourceName(resource, id, initialLabel);
  return (
    <Space.Compact style={{ width: 230 }}>
      {sources.map((s) => (
        // the source fields are sent with the row
        <Form.Item key={s.field} name={[rowName, s.field]} hidden noStyle>
          <Input type="hidden" />
        </Form.Item>
      ))}
      <Select<string>
        style={{ width: 90 }}
        value={kind}
        disabled={disabled}
        allowClear
        placeholder={t('resource.lines.kind')}
        aria-label={`${t('resource.lines.kind')} ${index + 1}`}
        options={sources.map((s) => ({ value: s.field, label: t(`resource.lines.sources.${s.field}`) }))}
        onChange={(next: string | undefined) => {
          setChosen(next ?? null);
          if (current && current.field !== next) onPick(current, null);
        }}
      />
      {resource && source ? (
        <LookupSelect
          resource={resource}
          value={id}
          initialLabel={named}
          disabled={disabled}
          ariaLabel={`${t(`resource.lines.sources.${source.field}`)} ${index + 1}`}
          width={140}
          onChange={(id) => onPick(source, id ?? null)}
        />
      ) : (
        <Input disabled style={{ width: 140 }} />
      )}
    </Space.Compact>
  );
}

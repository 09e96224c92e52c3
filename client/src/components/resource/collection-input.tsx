import { useMemo, useState, type DragEvent, type HTMLAttributes, type ReactNode } from 'react';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  HolderOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Button, Form, Input, Space, Table, Tooltip, type TableProps } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { CollectionDeclaration, FieldDeclaration } from '../../../../shared/resources/declaration';
import { FieldInput, fieldItemProps } from './field-input';
import { useOptionListQuery } from './declared-api';
import { declaredInput } from './from-declaration';
import { optionListOf } from './renderers';
import { zodRule } from './resource-errors';
import type { GroupFieldProps, ResourceFieldInput } from './types';

export interface CollectionRowsInputProps extends GroupFieldProps {
  /** the declaration's name: labels are `resources.<name>.collections.<collection>.*` */
  resource: string;
  collection: CollectionDeclaration;
}

/** The schema of one row of a collection in the form's schema (`documents: z.array(z.strictObject(…))`). */
export function rowSchemaOf(schema: z.ZodObject | undefined, name: string): z.ZodObject | null {
  let field = schema?.shape[name] as z.ZodType | undefined;
  while (field instanceof z.ZodOptional || field instanceof z.ZodNullable)
    field = field.unwrap() as z.ZodType;
  if (field instanceof z.ZodArray && field.element instanceof z.ZodObject) return field.element;
  return null;
}

/** The values of a row added: each field's declared default. */
function rowDefaults(fields: Record<string, FieldDeclaration>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields))
    if (field.default !== undefined) out[name] = field.default;
  return out;
}

/** A cell's width by its input: a switch is narrow, a date fits its picker, text takes room. */
function cellWidth(input: ResourceFieldInput): number {
  if (input.type === 'switch') return 80;
  if (input.type === 'date') return 150;
  if (input.type === 'custom' || input.type === 'select') return 150;
  return 160;
}

interface RowRef {
  key: number;
  name: number;
}

type ControlledProps = { id?: string; value?: unknown; onChange?: (value: unknown) => void };

/**
 * A row's option cell whose choice names the row (`fillsNames`: a checklist row's document type fills its English
 * and Chinese names with the type's labels). Names typed by hand are kept: a name is filled when it is empty or
 * still the label of the option chosen before.
 */
function NameFillingCell({
  input,
  list,
  row,
  fills,
  value,
  onChange,
  ...rest
}: ControlledProps & {
  input: ResourceFieldInput;
  list: string;
  row: NamePath;
  fills: { en: string; zh: string };
  'aria-label'?: string;
  disabled?: boolean;
}) {
  const form = Form.useFormInstance();
  const { data } = useOptionListQuery({ list, activeOnly: true });
  const change = (next: unknown) => {
    onChange?.(next);
    const before = data?.find((o) => o.value === value);
    const chosen = data?.find((o) => o.value === next);
    if (!chosen) return;
    const path = (field: string) => [...(Array.isArray(row) ? row : [row]), field];
    for (const [field, label, previous] of [
      [fills.en, chosen.label_en, before?.label_en],
      [fills.zh, chosen.label_zh || chosen.label_en, before ? before.label_zh || before.label_en : undefined],
    ] as const) {
      const current: unknown = form.getFieldValue(path(field));
      if (current === undefined || current === null || current === '' || current === previous)
        form.setFieldValue(path(field), label);
    }
  };
  return (
    <FieldInput
      input={input}
      data={{}}
      record={null}
      {...rest}
      {...({ value, onChange: change } as unknown as Record<string, never>)}
    />
  );
}

/**
 * The rows a record owns and is saved with, whole (an intake's timetable, its checklist of documents): a table
 * with one input per declared row field (an option as its list's select, a boolean as a switch, a date as a
 * picker), each cell checked by the row's own rules and showing the server's error on it
 * (`documents.2.name_en`); "Add" and a remove button per row; for a collection kept in order (`orderColumn`),
 * a drag handle per row (drop it on another row) and move up / down buttons for the keyboard. The rows are an
 * antd `Form.List` under the collection's name: the form sends them in their order, each existing row with its
 * `id`.
 */
export default function CollectionRowsInput({
  name,
  schema,
  disabled,
  resource,
  collection,
}: CollectionRowsInputProps) {
  const { t } = useTranslation();
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const fields = useMemo(() => Object.entries(collection.fields ?? {}), [collection]);
  const inputs = useMemo(
    () => fields.map(([field, declared]) => [field, declaredInput(field, declared, resource)] as const),
    [fields, resource],
  );
  const rowSchema = useMemo(() => rowSchemaOf(schema, name), [schema, name]);
  const ordered = Boolean(collection.orderColumn);
  const labels = `resources.${resource}.collections.${name}`;
  const label = (field: string) => t(`${labels}.fields.${field}`);

  return (
    <Form.List name={name}>
      {(rows, { add, remove, move }, { errors }) => {
        const moveRow = (from: number, to: number) => {
          if (to < 0 || to >= rows.length || from === to) return;
          move(from, to);
        };
        const columns: NonNullable<TableProps<RowRef>['columns']> = [];
        if (ordered) {
          columns.push({
            key: 'order',
            width: 44,
            render: (_v, row, index) => (
              <span
                draggable={!disabled}
                onDragStart={(e: DragEvent) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(index));
                  setDragged(index);
                }}
                onDragEnd={() => {
                  setDragged(null);
                  setOver(null);
                }}
                aria-label={t('resource.collection.dragHandle', { row: index + 1 })}
                data-testid={`${name}-drag-${index}`}
                style={{ cursor: disabled ? 'default' : 'grab', padding: 4, display: 'inline-block' }}
              >
                <HolderOutlined />
                <Form.Item name={[row.name, 'id']} hidden>
                  <Input />
                </Form.Item>
              </span>
            ),
          });
        }
        for (const [field, input] of inputs) {
          const required = Boolean(collection.fields?.[field]?.required);
          columns.push({
            key: field,
            title: (
              <span>
                {required && (
                  <span aria-hidden style={{ color: '#ff4d4f', marginInlineEnd: 4 }}>
                    *
                  </span>
                )}
                {label(field)}
              </span>
            ),
            width: cellWidth(input),
            render: (_v, row, index) => (
              <Form.Item
                name={[row.name, field]}
                rules={rowSchema ? [zodRule(rowSchema, field, t)] : []}
                style={{ marginBottom: 0 }}
                {...fieldItemProps(input)}
              >
                {(() => {
                  const declared = collection.fields?.[field];
                  return declared?.type === 'option' && declared.fillsNames ? (
                    <NameFillingCell
                      input={input}
                      list={optionListOf(declared)}
                      row={[name, row.name]}
                      fills={declared.fillsNames}
                      aria-label={`${label(field)} ${index + 1}`}
                    />
                  ) : (
                    <FieldInput
                      input={input}
                      data={{}}
                      record={null}
                      aria-label={`${label(field)} ${index + 1}`}
                    />
                  );
                })()}
              </Form.Item>
            ),
          });
        }
        columns.push({
          key: 'actions',
          width: 1,
          render: (_v, row, index) => (
            <RowButtons
              index={index}
              count={rows.length}
              disabled={disabled}
              onMove={ordered ? moveRow : undefined}
              onRemove={remove}
            >
              {!ordered && (
                <Form.Item name={[row.name, 'id']} hidden>
                  <Input />
                </Form.Item>
              )}
            </RowButtons>
          ),
        });
        return (
          <div data-testid={`collection-${name}`}>
            <Table<RowRef>
              rowKey="key"
              size="small"
              columns={columns}
              dataSource={rows}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('resource.collection.empty') }}
              onRow={(_row, index) => {
                const at = index ?? 0;
                return {
                  'data-row-index': at,
                  style:
                    ordered && dragged !== null && over === at && dragged !== at
                      ? { boxShadow: `inset 0 ${dragged < at ? -2 : 2}px 0 #1677ff` }
                      : undefined,
                  onDragOver: (e: DragEvent) => {
                    if (dragged === null) return;
                    e.preventDefault();
                    setOver(at);
                  },
                  onDrop: (e: DragEvent) => {
                    if (dragged === null) return;
                    e.preventDefault();
                    moveRow(dragged, at);
                    setDragged(null);
                    setOver(null);
                  },
                } as HTMLAttributes<HTMLElement>;
              }}
            />
            <Form.ErrorList errors={errors} />
            <Button
              icon={<PlusOutlined />}
              style={{ marginTop: 8 }}
              disabled={disabled || rows.length >= collection.max}
              onClick={() => add(rowDefaults(collection.fields ?? {}))}
            >
              {t(`${labels}.add`)}
            </Button>
          </div>
        );
      }}
    </Form.List>
  );
}

/**
 * A collection row's buttons: move up and down (when `onMove` is given: an ordered collection) and remove, each
 * named with the row's number; `children` (a row's hidden id) go first.
 */
export function RowButtons({
  index,
  count,
  disabled,
  onMove,
  onRemove,
  children,
}: {
  index: number;
  count: number;
  disabled?: boolean;
  onMove?: (from: number, to: number) => void;
  onRemove: (index: number) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap={false}>
      {children}
      {onMove && (
        <>
          <Tooltip title={t('resource.collection.moveUp')}>
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined />}
              disabled={disabled || index === 0}
              aria-label={`${t('resource.collection.moveUp')} ${index + 1}`}
              onClick={() => onMove(index, index - 1)}
            />
          </Tooltip>
          <Tooltip title={t('resource.collection.moveDown')}>
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              disabled={disabled || index === count - 1}
              aria-label={`${t('resource.collection.moveDown')} ${index + 1}`}
              onClick={() => onMove(index, index + 1)}
            />
          </Tooltip>
        </>
      )}
      <Tooltip title={t('resource.collection.remove')}>
        <Button
          size="small"
          type="text"
          danger
          icon={<DeleteOutlined />}
          disabled={disabled}
          aria-label={`${t('resource.collection.remove')} ${index + 1}`}
          onClick={() => onRemove(index)}
        />
      </Tooltip>
    </Space>
  );
}

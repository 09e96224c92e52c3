import { useState } from 'react';
import { Alert, App, Button, Form, Modal, Popconfirm, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActionDeclaration } from '../../../../shared/resources/declaration';
import { moveInputSchema } from '../../../../shared/resources/derive';
import { FieldInput, fieldItemProps } from './field-input';
import { declaredInput } from './from-declaration';
import { useResourceActionMutation } from './resource-api';
import { deleteErrorMessage, zodRule } from './resource-errors';

/**
 * A declared state move of one record (`POST {apiPath}/{id}/{action}`), labelled
 * `resources.<name>.actions.<action>`: a move taking a body (`input`: an order's void reason) or asking first
 * (`confirm`: void, unvoid) opens a dialog naming the record (its number) with the input's fields, checked by the
 * same rules the server applies; any other move asks in a small confirmation. A refusal is shown in the dialog
 * (or handed to `onFailed`), and nothing moves.
 */
export function MoveButton({
  resource,
  apiPath,
  id,
  action,
  declared,
  recordName,
  invalidates = [],
  size = 'small',
  onMoved,
  onFailed,
}: {
  /** the declaration's name (labels) */
  resource: string;
  /** the record's collection: the move is `${apiPath}/${id}/${action}` */
  apiPath: string;
  id: number | string;
  action: string;
  declared?: ActionDeclaration;
  /** the record's name as the confirmation says it (an order's number) */
  recordName: string;
  /** other lists showing the record (read again after the move) */
  invalidates?: string[];
  size?: 'small' | 'middle';
  onMoved?: () => void;
  /** a refusal of a move without a dialog (the list shows it above the table); default a message */
  onFailed?: (text: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [act, { isLoading }] = useResourceActionMutation();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [form] = Form.useForm();
  const label = t(`resources.${resource}.actions.${action}`);
  const input = Object.entries(declared?.input ?? {});
  const dialog = Boolean(declared?.confirm || input.length);
  const schema = moveInputSchema(declared?.input);

  const run = async (body: Record<string, unknown> | undefined) => {
    setRefusal(null);
    try {
      await act({ path: apiPath, id, action, body, invalidates }).unwrap();
      void message.success(t('resource.saved'));
      setOpen(false);
      form.resetFields();
      onMoved?.();
      return true;
    } catch (failure) {
      const text = deleteErrorMessage(failure, t);
      if (dialog) setRefusal(text);
      else if (onFailed) onFailed(text);
      else void message.error(text);
      return false;
    }
  };

  const button = (
    <Button
      size={size}
      data-move={action}
      aria-label={`${label} ${recordName}`}
      danger={declared?.to === 'void'}
      loading={isLoading && !dialog}
      onClick={dialog ? () => setOpen(true) : undefined}
    >
      {label}
    </Button>
  );
  if (!dialog)
    return (
      <Popconfirm
        title={t('resource.moveConfirm', { action: label, name: recordName })}
        okText={label}
        cancelText={t('resource.cancel')}
        onConfirm={() => run(undefined)}
      >
        {button}
      </Popconfirm>
    );
  return (
    <>
      {button}
      <Modal
        open={open}
        title={t('resource.moveConfirm', { action: label, name: recordName })}
        okText={label}
        cancelText={t('resource.cancel')}
        okButtonProps={{ danger: declared?.to === 'void', loading: isLoading, 'data-testid': 'move-confirm' }}
        onOk={() => form.submit()}
        onCancel={() => {
          setOpen(false);
          setRefusal(null);
        }}
        destroyOnHidden
        data-testid={`move-dialog-${action}`}
      >
        <Typography.Paragraph>
          {t('resource.moveDialog', { action: label, name: recordName })}
        </Typography.Paragraph>
        {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 16 }} />}
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={(values: Record<string, unknown>) =>
            void run(
              input.length
                ? pickInput(
                    values,
                    input.map(([name]) => name),
                  )
                : undefined,
            )
          }
        >
          {input.map(([name, field]) => {
            const control = declaredInput(name, field, resource);
            return (
              <Form.Item
                key={name}
                name={name}
                label={t(`resources.${resource}.fields.${name}`)}
                rules={[zodRule(schema, name, t)]}
                {...fieldItemProps(control)}
              >
                <FieldInput input={control} data={{}} record={null} />
              </Form.Item>
            );
          })}
        </Form>
      </Modal>
    </>
  );
}

function pickInput(values: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of names) body[name] = values[name] === '' ? null : (values[name] ?? null);
  return body;
}

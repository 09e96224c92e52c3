import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../app/api';
import { showSubmitError } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { useConfirmPasswordMutation } from './profile-api';

/** The server refuses a sensitive action until the password was confirmed within the window (423). */
export function needsPasswordConfirmation(error: unknown): boolean {
  return isApiError(error) && (error.status === 423 || error.data?.code === 'password_confirmation_required');
}

function PasswordConfirmModal({ open, onDone }: { open: boolean; onDone: (confirmed: boolean) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const [confirm, { isLoading }] = useConfirmPasswordMutation();
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    const { password } = await form.validateFields();
    const result = await confirm({ password });
    if (!result.error) {
      form.resetFields();
      onDone(true);
      return;
    }
    showSubmitError(result.error, form, t, setError);
  };

  return (
    <Modal
      open={open}
      title={t('profile.confirmPassword.title')}
      okText={t('profile.confirmPassword.submit')}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={() => {
        form.resetFields();
        setError(null);
        onDone(false);
      }}
      okButtonProps={{ disabled: isLoading, 'data-testid': 'confirm-password-submit' } as never}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('profile.confirmPassword.help')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form
        form={form}
        name="confirm-password"
        layout="vertical"
        requiredMark={false}
        onFinish={() => void submit().catch(() => undefined)}
      >
        <Form.Item name="password" label={t('profile.confirmPassword.password')} rules={[rules.required(t)]}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Runs a sensitive action; when the server answers that the password must be confirmed first, asks for it
 * in a modal and runs the action once more. A cancelled confirmation resolves to `null`.
 */
export function usePasswordConfirmation(): {
  run: <R extends { error?: unknown }>(action: () => Promise<R>) => Promise<R | null>;
  modal: ReactNode;
} {
  const [open, setOpen] = useState(false);
  const pending = useRef<((confirmed: boolean) => void) | null>(null);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        pending.current = resolve;
        setOpen(true);
      }),
    [],
  );

  const run = useCallback(
    async <R extends { error?: unknown }>(action: () => Promise<R>): Promise<R | null> => {
      const first = await action();
      if (!needsPasswordConfirmation(first.error)) return first;
      if (!(await ask())) return null;
      return action();
    },
    [ask],
  );

  const onDone = (confirmed: boolean) => {
    setOpen(false);
    pending.current?.(confirmed);
    pending.current = null;
  };

  return { run, modal: <PasswordConfirmModal open={open} onDone={onDone} /> };
}

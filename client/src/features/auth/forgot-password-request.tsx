import { useState } from 'react';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { showSubmitError } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';

/**
 * The request for a reset link (the staff sign-in's and the portal's: the same `POST /api/forgot-password`, which
 * the host makes a staff or a portal link): the address, then the same neutral answer whatever it belongs to. `texts`
 * are the screen's keys; `portal` words server errors for a student.
 */
export function ForgotPasswordRequest({
  send,
  texts,
  portal = false,
}: {
  send: (email: string) => Promise<{ error?: unknown }>;
  texts: { help: string; submit: string; sent: string };
  portal?: boolean;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string }>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async ({ email }: { email: string }) => {
    setError(null);
    setSending(true);
    const result = await send(email).finally(() => setSending(false));
    if (!result.error) {
      setSent(true);
      return;
    }
    showSubmitError(result.error, form, t, setError, portal ? { portal: true } : undefined);
  };

  if (sent) return <Alert type="success" showIcon title={t(texts.sent)} role="status" />;
  return (
    <>
      <Typography.Paragraph type="secondary">{t(texts.help)}</Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="email" label={t('auth.email')} rules={[rules.required(t), rules.email(t)]}>
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={sending}>
          {t(texts.submit)}
        </Button>
      </Form>
    </>
  );
}

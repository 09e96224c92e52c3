import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { showSubmitError } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { useForgotPasswordMutation } from './auth-api';
import { ResetPasswordForm } from './reset-password-form';

/**
 * Password reset request (spec §2 /password/reset). The server answers the same for known and unknown
 * addresses, and so does this screen. The mailed link comes back here with `token` and `email`: then this
 * screen is the new-password form.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string }>();
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [params] = useSearchParams();
  const token = params.get('token');
  const linkEmail = params.get('email');

  const onFinish = async ({ email }: { email: string }) => {
    setError(null);
    const result = await forgot({ email });
    if (!result.error) {
      setSent(true);
      return;
    }
    showSubmitError(result.error, form, t, setError);
  };

  return (
    <Card>
      <Typography.Title level={3}>{t('auth.forgot.title')}</Typography.Title>
      {token && linkEmail ? (
        <ResetPasswordForm token={token} email={linkEmail} />
      ) : sent ? (
        <Alert type="success" showIcon title={t('auth.forgot.sent')} role="status" />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('auth.forgot.help')}</Typography.Paragraph>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
          <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
            <Form.Item name="email" label={t('auth.email')} rules={[rules.required(t), rules.email(t)]}>
              <Input type="email" autoComplete="email" autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" block disabled={isLoading}>
              {t('auth.forgot.submit')}
            </Button>
          </Form>
        </>
      )}
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </div>
    </Card>
  );
}

import { useState } from 'react';
import { Alert, Button, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../../app/api';
import { errorSummary, fieldErrors } from '../../components/forms/server-errors';
import { translatePasswordErrors } from '../profile/password-rules';
import { useResetPasswordMutation } from '../profile/profile-api';
import { NewPasswordFields } from '../profile/new-password-fields';

interface Values {
  password: string;
  password_confirmation: string;
}

/**
 * The new-password form the mailed link opens (`/password/reset?token=…&email=…`). A reset never signs in
 * by itself: the person signs in afterwards.
 */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [reset, { isLoading }] = useResetPasswordMutation();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: Values) => {
    setError(null);
    const result = await reset({ token, email, ...values });
    if (!result.error) {
      setDone(true);
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    const fields = translatePasswordErrors(fieldErrors(result.error, t), t).filter((f) =>
      ['password', 'password_confirmation'].includes(f.name),
    );
    if (fields.length > 0) form.setFields(fields as never);
    // a bad, used or expired link has its message on the token or email field, which this form has not
    else if (isApiError(result.error) && result.error.status === 422) setError(t('auth.reset.invalid'));
    else setError(errorSummary(result.error, t));
  };

  if (done) {
    return (
      <>
        <Alert type="success" showIcon title={t('auth.reset.done')} role="status" />
        <div style={{ marginTop: 16 }}>
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </div>
      </>
    );
  }
  return (
    <>
      <Typography.Paragraph type="secondary">{t('auth.reset.help', { email })}</Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <NewPasswordFields
          passwordLabel={t('auth.reset.password')}
          confirmationLabel={t('auth.register.confirmPassword')}
          autoFocus
        />
        <Button type="primary" htmlType="submit" block disabled={isLoading}>
          {t('auth.reset.submit')}
        </Button>
      </Form>
    </>
  );
}

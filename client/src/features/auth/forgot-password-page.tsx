import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useForgotPasswordMutation } from './auth-api';
import { ForgotPasswordRequest } from './forgot-password-request';
import { ResetPasswordForm } from './reset-password-form';

/**
 * Password reset request (spec §2 /password/reset). The server answers the same for known and unknown
 * addresses, and so does this screen. The mailed link comes back here with `token` and `email`: then this
 * screen is the new-password form.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [forgot] = useForgotPasswordMutation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const linkEmail = params.get('email');

  return (
    <Card>
      <Typography.Title level={1} className="public-title">
        {t('auth.forgot.title')}
      </Typography.Title>
      {token && linkEmail ? (
        <ResetPasswordForm token={token} email={linkEmail} />
      ) : (
        <ForgotPasswordRequest
          send={(email) => forgot({ email })}
          texts={{ help: 'auth.forgot.help', submit: 'auth.forgot.submit', sent: 'auth.forgot.sent' }}
        />
      )}
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </div>
    </Card>
  );
}

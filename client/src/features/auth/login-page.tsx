import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { resetCsrfToken } from '../../http/client';
import { rules } from '../../components/forms/rules';
import { useLoginMutation, type LoginRequest } from './auth-api';
import { accountApi } from '../profile/profile-api';
import { userSignedIn } from './session';
import { showSignInError } from './sign-in-error';

/** Staff sign-in (spec §2 /login); asks for the two-factor step when the server says so. */
export default function LoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const registrationEnabled = useAppSelector((s) => s.shell.registrationEnabled);
  const [form] = Form.useForm<LoginRequest>();
  const [login, { isLoading }] = useLoginMutation();
  const [error, setError] = useState<string | null>(null);
  const timedOut = params.get('timeout') === '1';

  const onFinish = async (values: LoginRequest) => {
    setError(null);
    const result = await login({
      email: values.email,
      password: values.password,
      remember: !!values.remember,
    });
    if (result.data) {
      if ('two_factor' in result.data) {
        resetCsrfToken();
        navigate('/two-factor-challenge');
      } else {
        void userSignedIn(dispatch, result.data.user);
        // admins require 2FA and this account has none yet: only its profile's 2FA setup is open
        const session = await dispatch(
          accountApi.endpoints.sessionUser.initiate(undefined, { subscribe: false, forceRefetch: true }),
        );
        navigate(session.data?.two_factor_setup_required ? '/user/profile' : '/', { replace: true });
      }
      return;
    }
    showSignInError(result.error, form, t, setError);
  };

  return (
    <Card>
      <Typography.Title level={1} className="public-title">
        {t('auth.login.title')}
      </Typography.Title>
      {timedOut && (
        <Alert
          type="warning"
          showIcon
          title={t('serverMessages.sessionExpired')}
          style={{ marginBottom: 16 }}
          data-testid="session-expired"
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          style={{ marginBottom: 16 }}
          role="alert"
          data-testid="login-error"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        requiredMark={false}
        initialValues={{ remember: false }}
      >
        <Form.Item name="email" label={t('auth.email')} rules={[rules.required(t), rules.email(t)]}>
          <Input type="email" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={[rules.required(t)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="remember" valuePropName="checked">
          <Checkbox>{t('auth.login.remember')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block disabled={isLoading}>
          {t('auth.login.submit')}
        </Button>
      </Form>
      <div
        style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16, flexWrap: 'wrap', gap: 8 }}
      >
        <Link to="/password/reset">{t('auth.login.forgot')}</Link>
        {registrationEnabled && <Link to="/register">{t('auth.login.register')}</Link>}
      </div>
    </Card>
  );
}

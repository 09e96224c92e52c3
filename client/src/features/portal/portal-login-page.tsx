import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { Student } from '../../app/types';
import { useAppDispatch } from '../../app/hooks';
import { rules } from '../../components/forms/rules';
import { usePortalLoginMutation } from '../auth/auth-api';
import { studentSignedIn } from '../auth/session';
import { showSignInError } from '../auth/sign-in-error';
import { refreshStudent } from './portal-api';

interface PortalLoginForm {
  email: string;
  password: string;
}

/** Student portal sign-in (spec §2 portal /login), with the portal's own credentials message. */
export default function PortalLoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<PortalLoginForm>();
  const [login, { isLoading }] = usePortalLoginMutation();
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: PortalLoginForm) => {
    setError(null);
    const result = await login({ email: values.email, password: values.password });
    if (result.data) {
      // a password staff set is changed first (the answer says so, or the student record does)
      const answer = result.data as { student: Student; must_change_password?: boolean };
      const must = answer.must_change_password === true || answer.student.must_change_password === true;
      const saved = studentSignedIn(dispatch, { ...answer.student, must_change_password: must });
      // the whole record (whether the information is submitted) for the screens' lock, read once a language
      // chosen on this page is saved to it
      void saved.then(() => refreshStudent(dispatch, { ...answer.student, must_change_password: must }));
      navigate(must ? '/password/change' : '/', { replace: true });
      return;
    }
    showSignInError(result.error, form, t, setError, { portal: true });
  };

  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
        {t('portal.login.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('portal.login.help')}</Typography.Paragraph>
      {params.get('timeout') === '1' && (
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
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="email" label={t('auth.email')} rules={[rules.required(t), rules.email(t)]}>
          <Input type="email" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={[rules.required(t)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block disabled={isLoading}>
          {t('auth.login.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/password/forgot">{t('portal.password.forgotLink')}</Link>
      </div>
    </Card>
  );
}

import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { isApiError } from '../../app/api';
import { ButtonLink } from '../../components/layout/button-link';
import { errorSummary, fieldErrors } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { translatePasswordErrors } from '../profile/password-rules';
import { useRegisterMutation, type RegisterRequest } from './auth-api';
import { NewPasswordFields } from '../profile/new-password-fields';

/** Registration: only when the server's app-config enables it; otherwise the page says it is closed. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const enabled = useAppSelector((s) => s.shell.registrationEnabled);
  const termsFeature = useAppSelector((s) => s.app.features.hasTermsAndPrivacyPolicyFeature);
  const [form] = Form.useForm<RegisterRequest>();
  const [register, { isLoading }] = useRegisterMutation();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!enabled) return <RegistrationClosed />;

  const onFinish = async (values: RegisterRequest) => {
    setError(null);
    const result = await register({ ...values, terms: termsFeature ? !!values.terms : true });
    if (!result.error) {
      setDone(true);
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    const fields = translatePasswordErrors(fieldErrors(result.error, t), t);
    if (fields.length > 0) form.setFields(fields as never);
    else setError(errorSummary(result.error, t));
  };

  return (
    <Card>
      <Typography.Title level={1} className="public-title">
        {t('auth.register.title')}
      </Typography.Title>
      {done ? (
        <Alert type="success" showIcon title={t('auth.register.done')} role="status" />
      ) : (
        <>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
          <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
            <Form.Item name="name" label={t('auth.register.name')} rules={[rules.required(t)]}>
              <Input autoComplete="name" autoFocus />
            </Form.Item>
            <Form.Item name="email" label={t('auth.email')} rules={[rules.required(t), rules.email(t)]}>
              <Input type="email" autoComplete="email" />
            </Form.Item>
            <NewPasswordFields
              passwordLabel={t('auth.password')}
              confirmationLabel={t('auth.register.confirmPassword')}
            />
            {termsFeature && (
              <Form.Item
                name="terms"
                valuePropName="checked"
                rules={[
                  {
                    validator: (_r, v: boolean | undefined) =>
                      v ? Promise.resolve() : Promise.reject(new Error(t('errors.termsRequired'))),
                  },
                ]}
              >
                <Checkbox>{t('auth.register.terms')}</Checkbox>
              </Form.Item>
            )}
            <Button type="primary" htmlType="submit" block disabled={isLoading}>
              {t('auth.register.submit')}
            </Button>
          </Form>
        </>
      )}
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('auth.register.haveAccount')}</Link>
      </div>
    </Card>
  );
}

/** `/register` while registration is off: said so, with the way to sign in (never a not-found screen). */
function RegistrationClosed() {
  const { t } = useTranslation();
  return (
    <Card>
      <Result
        status="info"
        title={
          <h1 style={{ font: 'inherit', margin: 0, color: 'inherit' }}>{t('auth.register.closedTitle')}</h1>
        }
        subTitle={t('auth.register.closedText')}
        data-testid="registration-closed"
        extra={
          <ButtonLink to="/login" type="primary">
            {t('auth.register.signIn')}
          </ButtonLink>
        }
      />
    </Card>
  );
}

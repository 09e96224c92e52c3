import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { isApiError } from '../../app/api';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { Student } from '../../app/types';
import { errorSummary, fieldErrors } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { ForgotPasswordRequest } from '../auth/forgot-password-request';
import { NewPasswordFields } from '../profile/new-password-fields';
import { translatePasswordErrors } from '../profile/password-rules';
import { usePortalWriteMutation } from './portal-api';

interface NewPassword {
  password: string;
  password_confirmation: string;
}

function Title({ children }: { children: string }) {
  return (
    <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
      {children}
    </Typography.Title>
  );
}

/** A refused password form: the field errors (the password rule in the interface language) or a summary. */
function useRefusal() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const show = (failure: unknown, form: { setFields: (fields: never) => void }, fieldsOnForm: string[]) => {
    if (isApiError(failure) && failure.handled) return;
    const fields = translatePasswordErrors(fieldErrors(failure, t), t).filter((f) =>
      fieldsOnForm.includes(f.name),
    );
    if (fields.length) form.setFields(fields as never);
    else setError(errorSummary(failure, t));
  };
  return { error, setError, show };
}

/**
 * `/password/set?token=…` (public): the invitation's link, where the student chooses a first password
 * (`POST /api/password/set`); then they sign in.
 */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<NewPassword>();
  const [write, { isLoading }] = usePortalWriteMutation();
  const [done, setDone] = useState(false);
  const { error, setError, show } = useRefusal();

  const onFinish = async (values: NewPassword) => {
    setError(null);
    const result = await write({ url: '/api/password/set', method: 'POST', body: { token, ...values } });
    if (!result.error) setDone(true);
    else show(result.error, form, ['password', 'password_confirmation']);
  };

  return (
    <Card>
      <Title>{t('portal.password.setTitle')}</Title>
      {!token ? (
        <Alert type="error" showIcon role="alert" title={t('serverMessages.portalLinkInvalid')} />
      ) : done ? (
        <Alert type="success" showIcon role="status" title={t('serverMessages.portalPasswordSet')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('portal.password.setHelp')}</Typography.Paragraph>
          {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />}
          <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
            <NewPasswordFields
              passwordLabel={t('portal.password.new')}
              confirmationLabel={t('portal.password.confirm')}
              autoFocus
            />
            <Button type="primary" htmlType="submit" block loading={isLoading}>
              {t('portal.password.setSubmit')}
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

/** `/password/forgot` (public): a link to choose a new password is mailed to the portal email, if it is one. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [write] = usePortalWriteMutation();
  return (
    <Card>
      <Title>{t('portal.password.forgotTitle')}</Title>
      <ForgotPasswordRequest
        portal
        send={(email) => write({ url: '/api/forgot-password', method: 'POST', body: { email } })}
        texts={{
          help: 'portal.password.forgotHelp',
          submit: 'portal.password.forgotSubmit',
          sent: 'portal.password.forgotSent',
        }}
      />
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </div>
    </Card>
  );
}

/**
 * `/password/change` (signed in): the current password and a new one (`PUT /api/student/password`). A student
 * whose password staff set is sent here first; once changed, the portal opens.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const student = useAppSelector((s) => s.app.student);
  const [form] = Form.useForm<NewPassword & { current_password: string }>();
  const [write, { isLoading }] = usePortalWriteMutation();
  const { error, setError, show } = useRefusal();
  const must = Boolean(student?.must_change_password);
  // a forced change done: the index opens next; until it is drawn (a phone takes a moment) this page says so
  // instead of showing its emptied form under the index's address (issue 31)
  const [opening, setOpening] = useState(false);

  const onFinish = async (values: NewPassword & { current_password: string }) => {
    setError(null);
    const result = await write({ url: '/api/student/password', method: 'PUT', body: values });
    if (result.error) {
      show(result.error, form, ['current_password', 'password', 'password_confirmation']);
      return;
    }
    void message.success(t('portal.password.changed'));
    if (student) dispatch(appActions.setStudent({ ...student, must_change_password: false } as Student));
    if (must) {
      setOpening(true);
      navigate('/index', { replace: true });
      return;
    }
    form.resetFields();
  };

  if (opening)
    return (
      <div className="portal-page" data-testid="password-changed-opening">
        <Title>{t('portal.password.changeTitle')}</Title>
        <Card style={{ maxWidth: 520 }}>
          <Alert type="success" showIcon role="status" title={t('portal.password.changed')} />
          <div style={{ textAlign: 'center', padding: 16 }}>
            <Spin aria-label={t('app.loading')} />
          </div>
        </Card>
      </div>
    );

  return (
    <div className="portal-page">
      <Title>{t('portal.password.changeTitle')}</Title>
      <Card style={{ maxWidth: 520 }}>
        {must && (
          <Alert
            type="warning"
            showIcon
            data-testid="must-change-password"
            title={t('serverMessages.portalMustChangePassword')}
            style={{ marginBottom: 16 }}
          />
        )}
        {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />}
        <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item name="current_password" label={t('portal.password.current')} rules={[rules.required(t)]}>
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
          <NewPasswordFields
            passwordLabel={t('portal.password.new')}
            confirmationLabel={t('portal.password.confirm')}
          />
          <Button type="primary" htmlType="submit" block loading={isLoading}>
            {t('portal.password.changeSubmit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

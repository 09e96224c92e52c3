import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoaderData, useNavigate } from 'react-router-dom';
import { LOCALES } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { isApiError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { errorSummary, fieldErrors, showSubmitError } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { setLocale } from '../../i18n/i18n';
import { signedOut } from '../auth/session';
import { usePasswordConfirmation } from './password-confirmation';
import { translatePasswordErrors } from './password-rules';
import {
  useDeleteAccountMutation,
  useSendVerificationMutation,
  useSessionUserQuery,
  useUpdatePasswordMutation,
  useUpdateProfileMutation,
  type Profile,
} from './profile-api';
import { ProfilePhotoSection } from './profile-photo-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';
import { NewPasswordFields } from './new-password-fields';
import { useUnsavedForm } from './use-unsaved-form';
import { PageHeader } from '../../components/layout/page-header';

type InfoValues = Pick<Profile, 'name' | 'email' | 'language'> & { current_password?: string };

/** Whether the email typed is another address than the account's (the server compares them in lower case). */
export function emailChanged(typed: unknown, current: string): boolean {
  return (
    typeof typed === 'string' && typed.trim() !== '' && typed.trim().toLowerCase() !== current.toLowerCase()
  );
}

/**
 * Name, email and language. A new email address (where password reset links go) needs the current password:
 * its field appears as soon as the address typed differs from the account's, and is sent with it.
 */
function ProfileInformation({ initial }: { initial: Profile }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  const user = useAppSelector((s) => s.app.user);
  const verification = useAppSelector((s) => s.app.features.hasEmailVerification);
  const [form] = Form.useForm<InfoValues>();
  const [profile, setProfile] = useState(initial);
  const [update, { isLoading }] = useUpdateProfileMutation();
  const [resend, resending] = useSendVerificationMutation();
  const [notice, setNotice] = useState<{ type: 'success' | 'warning' | 'error'; text: string } | null>(null);
  const newEmail = emailChanged(Form.useWatch('email', form), profile.email);
  const unsaved = useUnsavedForm();
  // the header's language switch saves to the profile too: show what it saved unless the field was changed here
  const headerLanguage = user?.language;
  useEffect(() => {
    if (!headerLanguage || form.isFieldTouched('language')) return;
    form.setFieldValue('language', headerLanguage);
    setProfile((p) => (p.language === headerLanguage ? p : { ...p, language: headerLanguage }));
  }, [headerLanguage, form]);

  const onFinish = async (values: InfoValues) => {
    setNotice(null);
    const body: Parameters<typeof update>[0] = {
      name: values.name,
      email: values.email,
      language: values.language,
    };
    if (emailChanged(values.email, profile.email)) body.current_password = values.current_password;
    const result = await update(body);
    if (result.data) {
      const saved = result.data.user;
      setProfile(saved);
      unsaved.saved();
      form.setFieldValue('current_password', undefined);
      if (user)
        dispatch(
          appActions.setUser({ ...user, name: saved.name, email: saved.email, language: saved.language }),
        );
      if (saved.language !== profile.language) setLocale(saved.language);
      message.success(t('profile.info.saved'));
      if (result.data.verification === 'sent')
        setNotice({ type: 'success', text: t('profile.info.verifySent') });
      else if (result.data.verification === 'smtp_not_configured')
        setNotice({ type: 'warning', text: t('serverMessages.smtpMissing') });
      else if (result.data.verification === 'email_failed')
        setNotice({ type: 'warning', text: t('serverMessages.emailFailed') });
      return;
    }
    showSubmitError(result.error, form, t, (text: string) => setNotice({ type: 'error', text }));
  };

  const onResend = async () => {
    const result = await resend();
    if (!result.error) setNotice({ type: 'success', text: t('profile.info.verifySent') });
    else if (!(isApiError(result.error) && result.error.handled))
      setNotice({ type: 'error', text: errorSummary(result.error, t) });
  };

  return (
    <Card title={t('profile.info.title')} data-testid="profile-information">
      {notice && (
        <Alert type={notice.type} showIcon title={notice.text} style={{ marginBottom: 16 }} role="status" />
      )}
      <Form
        form={form}
        name="profile-information"
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: profile.name, email: profile.email, language: profile.language }}
        onValuesChange={unsaved.onValuesChange}
        onFinish={onFinish}
        style={{ maxWidth: 480 }}
      >
        <Form.Item name="name" label={t('profile.info.name')} rules={[rules.required(t)]}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('auth.email')}
          rules={[rules.required(t), rules.email(t)]}
          extra={verification ? t('profile.info.emailHelp') : undefined}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        {newEmail && (
          <Form.Item
            name="current_password"
            label={t('profile.info.currentPassword')}
            extra={t('profile.info.currentPasswordHelp')}
            rules={[rules.required(t)]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        {verification && (
          <Space style={{ marginBottom: 16 }} wrap>
            {profile.email_verified_at ? (
              <Tag color="green">{t('profile.info.verified')}</Tag>
            ) : (
              <>
                <Tag color="orange">{t('profile.info.unverified')}</Tag>
                <Button size="small" disabled={resending.isLoading} onClick={() => void onResend()}>
                  {t('profile.info.resend')}
                </Button>
              </>
            )}
          </Space>
        )}
        <Form.Item name="language" label={t('language.label')} rules={[rules.required(t)]}>
          <Select options={LOCALES.map((l) => ({ value: l, label: t(`language.${l}`) }))} />
        </Form.Item>
        <Button type="primary" htmlType="submit" disabled={isLoading}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

interface PasswordValues {
  current_password: string;
  password: string;
  password_confirmation: string;
  revoke_tokens?: boolean;
}

/**
 * The password change: the current password, the new one twice and, while API tokens are a feature, whether
 * they are revoked too (yes unless unticked). The other browser sessions end either way; the message says how
 * many tokens went.
 */
function UpdatePassword() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const apiTokens = useAppSelector((s) => s.app.features.hasApiFeatures);
  const [form] = Form.useForm<PasswordValues>();
  const [update, { isLoading }] = useUpdatePasswordMutation();
  const [error, setError] = useState<string | null>(null);
  const unsaved = useUnsavedForm();

  const onFinish = async (values: PasswordValues) => {
    setError(null);
    const { revoke_tokens: revoke, ...body } = values;
    const result = await update(apiTokens ? { ...body, revoke_tokens: revoke !== false } : body);
    if (!result.error) {
      form.resetFields();
      unsaved.saved();
      const tokens =
        revoke === false
          ? t('profile.password.tokensKept')
          : t('profile.password.tokensRevoked', { count: result.data.tokens_revoked ?? 0 });
      message.success(
        apiTokens
          ? t('profile.password.savedWithTokens', { saved: t('profile.password.saved'), tokens })
          : t('profile.password.saved'),
      );
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    const fields = translatePasswordErrors(fieldErrors(result.error, t), t).map((f) =>
      f.name === 'current_password' ? { ...f, errors: [t('profile.password.wrongCurrent')] } : f,
    );
    if (fields.length > 0) form.setFields(fields as never);
    else setError(errorSummary(result.error, t));
  };

  return (
    <Card title={t('profile.password.title')} data-testid="password-section">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form
        form={form}
        name="update-password"
        layout="vertical"
        requiredMark={false}
        onValuesChange={unsaved.onValuesChange}
        onFinish={onFinish}
        style={{ maxWidth: 480 }}
      >
        <Form.Item name="current_password" label={t('profile.password.current')} rules={[rules.required(t)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields
          passwordLabel={t('profile.password.new')}
          confirmationLabel={t('profile.password.confirmation')}
        />
        {apiTokens && (
          <Form.Item
            name="revoke_tokens"
            valuePropName="checked"
            initialValue={true}
            extra={t('profile.password.revokeTokensHelp')}
          >
            <Checkbox>{t('profile.password.revokeTokens')}</Checkbox>
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" disabled={isLoading}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function DeleteAccount() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [remove] = useDeleteAccountMutation();
  const { run, modal } = usePasswordConfirmation();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onDelete = async () => {
    setAsking(false);
    setError(null);
    const result = await run(() => remove());
    if (!result) return;
    if (!result.error) {
      signedOut(dispatch);
      navigate('/login', { replace: true });
    } else if (!(isApiError(result.error) && result.error.handled)) setError(errorSummary(result.error, t));
  };

  return (
    <Card title={t('profile.delete.title')} data-testid="delete-account-section">
      {modal}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Typography.Paragraph type="secondary">{t('profile.delete.help')}</Typography.Paragraph>
      <Button danger onClick={() => setAsking(true)}>
        {t('profile.delete.button')}
      </Button>
      <Modal
        open={asking}
        title={t('profile.delete.title')}
        okText={t('profile.delete.button')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        onOk={() => void onDelete()}
        onCancel={() => setAsking(false)}
      >
        {t('profile.delete.confirm')}
      </Modal>
    </Card>
  );
}

/**
 * /user/profile: profile information, password, two-factor authentication, browser sessions and account
 * deletion, each shown only when its feature flag is on. When the admins require 2FA and this account has
 * none yet, only the 2FA setup is shown (the server refuses everything else).
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const features = useAppSelector((s) => s.app.features);
  const sessionUser = useSessionUserQuery();
  const setupRequired = sessionUser.data?.two_factor_setup_required === true;
  const data = (useLoaderData() as { user?: Profile }).user;

  if (sessionUser.isLoading) return null;
  if (setupRequired) {
    return (
      <Space orientation="vertical" size="large" style={{ display: 'flex', padding: 24 }}>
        <PageHeader title={t('profile.title')} />
        <Alert
          type="warning"
          showIcon
          title={t('profile.twoFactor.required')}
          data-testid="two-factor-required"
        />
        <TwoFactorSection onEnabled={() => void sessionUser.refetch()} />
      </Space>
    );
  }
  return (
    <Space orientation="vertical" size="large" style={{ display: 'flex', padding: 24 }}>
      <PageHeader title={t('profile.title')} />
      {data && features.canUpdateProfileInformation && <ProfileInformation key={data.id} initial={data} />}
      <ProfilePhotoSection />
      {features.canUpdatePassword && <UpdatePassword />}
      {features.canManageTwoFactorAuthentication && <TwoFactorSection />}
      <SessionsSection />
      {features.hasAccountDeletionFeatures && <DeleteAccount />}
    </Space>
  );
}

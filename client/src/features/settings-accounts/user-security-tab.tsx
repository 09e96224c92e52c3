import { useState } from 'react';
import { Alert, App, Button, Card, Form, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useRevalidator } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { recordAllows } from '../../components/resource/record-access';
import { useResourceWriteMutation } from '../../components/resource/resource-api';
import { serverFormErrors } from '../../components/resource/resource-errors';
import type { ResourceRow } from '../../components/resource/types';
import { NewPasswordFields } from '../profile/new-password-fields';
import { translatePasswordErrors } from '../profile/password-rules';

interface PasswordValues {
  password: string;
  password_confirmation: string;
}

/** A new password for the user, set by someone managing users (`PUT /api/users/:id`); it ends their sign-ins. */
function SetPassword({ record }: { record: ResourceRow }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const [form] = Form.useForm<PasswordValues>();
  const [write, { isLoading }] = useResourceWriteMutation();
  const [summary, setSummary] = useState<string | null>(null);

  const onFinish = async (values: PasswordValues) => {
    setSummary(null);
    try {
      await write({ url: `/api/users/${record.id}`, method: 'PUT', body: values }).unwrap();
      form.resetFields();
      dispatch(appActions.setUnsavedChanges(false));
      void message.success(t('accounts.users.security.passwordSet'));
    } catch (error) {
      const result = serverFormErrors(error, t, ['password', 'password_confirmation']);
      form.setFields(translatePasswordErrors(result.fields, t) as never);
      setSummary(result.summary);
    }
  };

  return (
    <Card title={t('accounts.users.security.passwordTitle')} data-testid="user-password-section">
      <Typography.Paragraph type="secondary">
        {t('accounts.users.security.passwordHelp')}
      </Typography.Paragraph>
      {summary && <Alert type="error" showIcon role="alert" title={summary} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        name="set-user-password"
        layout="vertical"
        requiredMark={false}
        onValuesChange={() => dispatch(appActions.setUnsavedChanges(true))}
        onFinish={onFinish}
        style={{ maxWidth: 480 }}
      >
        <NewPasswordFields
          passwordLabel={t('accounts.users.security.newPassword')}
          confirmationLabel={t('accounts.users.security.newPasswordConfirmation')}
        />
        <Button type="primary" htmlType="submit" loading={isLoading}>
          {t('accounts.users.security.setPassword')}
        </Button>
      </Form>
    </Card>
  );
}

/** Whether 2FA is on, and the reset for a user who lost their device (`DELETE …/two-factor-authentication`). */
function TwoFactor({ record, editable }: { record: ResourceRow; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const revalidator = useRevalidator();
  const [write, { isLoading }] = useResourceWriteMutation();
  const [error, setError] = useState<string | null>(null);
  const enabled = record.two_factor_enabled === true;

  const reset = async () => {
    setError(null);
    try {
      await write({ url: `/api/users/${record.id}/two-factor-authentication`, method: 'DELETE' }).unwrap();
      void message.success(t('accounts.users.security.twoFactorWasReset'));
      await revalidator.revalidate();
    } catch (failure) {
      setError(serverFormErrors(failure, t, []).summary);
    }
  };

  return (
    <Card title={t('accounts.users.security.twoFactorTitle')} data-testid="user-two-factor-section">
      {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />}
      <Space orientation="vertical">
        <span data-testid="user-two-factor-status">
          {enabled ? (
            <Tag color="green">{t('accounts.users.security.twoFactorOn')}</Tag>
          ) : (
            <Tag>{t('accounts.users.security.twoFactorOff')}</Tag>
          )}
        </span>
        <Typography.Text type="secondary">
          {t(
            enabled
              ? 'accounts.users.security.twoFactorResetHelp'
              : 'accounts.users.security.twoFactorOffHelp',
          )}
        </Typography.Text>
        {enabled && editable && (
          <Popconfirm
            title={t('accounts.users.security.resetTwoFactorConfirm', { name: String(record.name ?? '') })}
            okText={t('accounts.users.security.resetTwoFactor')}
            cancelText={t('resource.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={reset}
          >
            <Button danger loading={isLoading} data-testid="reset-two-factor">
              {t('accounts.users.security.resetTwoFactor')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </Card>
  );
}

/**
 * The "Password and 2FA" tab of a user's page: a new password set by whoever manages users, and the 2FA
 * status with its reset (neither on an account stronger than the user's, see `allowed_actions`). One's own
 * password and 2FA are changed on one's profile, where the server asks for the password first.
 */
export function UserSecurityTab({ record }: { record: ResourceRow }) {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  if (user?.id === record.id) {
    return (
      <Alert
        type="info"
        showIcon
        data-testid="user-security-own"
        title={t('accounts.users.security.own')}
        description={<Link to="/user/profile">{t('accounts.users.security.toProfile')}</Link>}
      />
    );
  }
  // an account stronger than the user's is out of reach: its status is shown, nothing can be changed
  const editable = can(user, 'users.update') && recordAllows(record, 'update');
  return (
    <Space orientation="vertical" size="large" style={{ display: 'flex', maxWidth: 900 }}>
      {editable && <SetPassword record={record} />}
      <TwoFactor record={record} editable={editable} />
    </Space>
  );
}

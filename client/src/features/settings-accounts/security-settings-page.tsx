import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Form, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoaderData, useRevalidator } from 'react-router-dom';
import { FEATURE_FLAGS, type Features } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { shellActions } from '../../app/shell-slice';
import { useResourceWriteMutation } from '../../components/resource/resource-api';
import { serverFormErrors } from '../../components/resource/resource-errors';
import { usePasswordConfirmation } from '../profile/password-confirmation';
import { PageHeader } from '../../components/layout/page-header';

/** `GET/PUT /api/settings/accounts`. */
export interface AccountSettings {
  require_two_factor: boolean;
  registration_enabled: boolean;
  features: Features;
}

const FIELDS = ['require_two_factor', 'registration_enabled', ...FEATURE_FLAGS.map((f) => `features.${f}`)];

function SettingSwitch({ name, label, help }: { name: string | string[]; label: string; help: string }) {
  const id = Array.isArray(name) ? name.join('-') : name;
  return (
    <Form.Item name={name} label={label} extra={help} valuePropName="checked" data-testid={`setting-${id}`}>
      <Switch />
    </Form.Item>
  );
}

/**
 * Settings → security and features (admins only): require 2FA for all staff, self-registration and the spec's
 * feature flags. Saving needs a recent password confirmation: when the server asks for it, the password is
 * asked and the save runs again. A saved flag reaches this browser's app state at once (menus and routes
 * follow it); other browsers get it at their next load.
 */
export default function SecuritySettingsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const revalidator = useRevalidator();
  const data = useLoaderData() as AccountSettings;
  const user = useAppSelector((s) => s.app.user);
  const maxUploadSize = useAppSelector((s) => s.app.maxUploadSize);
  const [form] = Form.useForm<AccountSettings>();
  const [write, { isLoading }] = useResourceWriteMutation();
  const { run, modal } = usePasswordConfirmation();
  const [summary, setSummary] = useState<string | null>(null);
  const requireTwoFactor = Form.useWatch('require_two_factor', form);

  useEffect(() => () => void dispatch(appActions.setUnsavedChanges(false)), [dispatch]);

  const save = async (values: AccountSettings) => {
    setSummary(null);
    const result = await run(() => write({ url: '/api/settings/accounts', method: 'PUT', body: values }));
    if (!result) return; // the password confirmation was cancelled: nothing saved, the edits stay
    if (result.error) {
      const errors = serverFormErrors(result.error, t, FIELDS);
      form.setFields(errors.fields.map((f) => ({ ...f, name: f.name.split('.') as never })));
      setSummary(errors.summary);
      return;
    }
    const saved = result.data as AccountSettings;
    dispatch(appActions.setUnsavedChanges(false));
    dispatch(appActions.configReceived({ maxUploadSize, features: saved.features }));
    dispatch(shellActions.registrationEnabled(saved.registration_enabled));
    form.setFieldsValue(saved);
    void message.success(t('resource.saved'));
    void revalidator.revalidate();
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {modal}
      <PageHeader title={t('accounts.security.title')} />
      {summary && <Alert type="error" showIcon role="alert" title={summary} />}
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          require_two_factor: data.require_two_factor,
          registration_enabled: data.registration_enabled,
          features: data.features,
        }}
        onValuesChange={() => dispatch(appActions.setUnsavedChanges(true))}
        onFinish={save}
        style={{ maxWidth: 900 }}
        data-testid="security-settings-form"
      >
        <Card title={t('accounts.security.signInTitle')} style={{ marginBottom: 16 }}>
          <SettingSwitch
            name="require_two_factor"
            label={t('accounts.security.requireTwoFactor')}
            help={t('accounts.security.requireTwoFactorHelp')}
          />
          {requireTwoFactor && !data.require_two_factor && !user?.two_factor_enabled && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 24 }}
              data-testid="require-two-factor-self"
              title={t('accounts.security.requireTwoFactorSelf')}
            />
          )}
          <SettingSwitch
            name="registration_enabled"
            label={t('accounts.security.registration')}
            help={t('accounts.security.registrationHelp')}
          />
        </Card>
        <Card title={t('accounts.security.featuresTitle')} style={{ marginBottom: 16 }}>
          <Typography.Paragraph type="secondary">{t('accounts.security.featuresHelp')}</Typography.Paragraph>
          {FEATURE_FLAGS.map((flag) => (
            <SettingSwitch
              key={flag}
              name={['features', flag]}
              label={t(`accounts.features.${flag}.label`)}
              help={t(`accounts.features.${flag}.help`)}
            />
          ))}
        </Card>
        <Button type="primary" htmlType="submit" loading={isLoading}>
          {t('resource.save')}
        </Button>
      </Form>
    </Space>
  );
}

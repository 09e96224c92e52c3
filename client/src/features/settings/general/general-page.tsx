import { useEffect, useState } from 'react';
import {
  App,
  Alert,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Progress,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoaderData, useRevalidator } from 'react-router-dom';
import { ADMINS_ONLY, can } from '../../../../../shared/permissions';
import { ZSmtpSettings, ZSmtpTest } from '../../../../../shared/schemas/profile';
import { ZSettings, type Settings } from '../../../../../shared/schemas/settings';
import { api, isApiError } from '../../../app/api';
import { appActions } from '../../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { errorSummary } from '../../../components/forms/server-errors';
import { useResourceReadQuery, useResourceWriteMutation } from '../../../components/resource/resource-api';
import { serverFormErrors, zodRule } from '../../../components/resource/resource-errors';
import { usageFigures, useStorageUsageQuery } from '../../files/files-api';
import { usePasswordConfirmation } from '../../profile/password-confirmation';
import { PageHeader } from '../../../components/layout/page-header';
import { RemindersCard } from './reminders-card';

const GENERAL = ['storage_quota_mb', 'storage_suspended', 'max_upload_mb', 'default_currency'] as const;

interface SmtpShown {
  host: string | null;
  port: number | null;
  user: string | null;
  from: string | null;
  secure: boolean;
  password_set: boolean;
}

/** The test mail's outcome in the spec's words (§8): SMTP not set up, or the mail failed. */
export function testMailMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error) && error.data?.code === 'smtp_not_configured') return t('serverMessages.smtpMissing');
  if (isApiError(error) && error.data?.code === 'email_failed') return t('serverMessages.emailFailed');
  return errorSummary(error, t as never);
}

/** What is stored against the quota (files.view): a line with the figures and a bar. */
function StorageUsageLine() {
  const { t } = useTranslation();
  const { data, isError } = useStorageUsageQuery();
  if (isError)
    return <Typography.Text type="secondary">{t('files.storage.usageUnavailable')}</Typography.Text>;
  if (!data) return null;
  const problem = data.status === 'full' || data.status === 'suspended';
  return (
    <div data-testid="storage-usage" data-status={data.status} style={{ maxWidth: 480, marginBottom: 24 }}>
      <Typography.Text>{t('files.storage.used', usageFigures(data))}</Typography.Text>
      <Progress
        percent={Math.min(100, data.percent)}
        showInfo={false}
        status={problem ? 'exception' : 'normal'}
        strokeColor={data.status === 'almost_full' ? '#faad14' : undefined}
        aria-label={t('files.storage.used', usageFigures(data))}
      />
    </div>
  );
}

/**
 * The general settings: the storage ones (quota, suspension, upload limit) are admins' alone and need a recent
 * password confirmation, asked for when the server wants it (the save then runs again); the currency is for
 * whoever may update the settings.
 */
function GeneralCard({ data, editable, admin }: { data: Settings; editable: boolean; admin: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const revalidator = useRevalidator();
  const [form] = Form.useForm();
  const [write, { isLoading }] = useResourceWriteMutation();
  const { run, modal } = usePasswordConfirmation();
  const [summary, setSummary] = useState<string | null>(null);
  const seesFiles = can(
    useAppSelector((s) => s.app.user),
    'files.view',
  );
  // the storage settings are shown to everyone who reads the settings, changed by admins only
  const storageLocked = editable && !admin;
  const storageHelp = (help?: string) =>
    [help, storageLocked ? t('settings.general.storageAdminOnly') : undefined].filter(Boolean).join(' ') ||
    undefined;
  return (
    <Card title={t('settings.general.generalTitle')} style={{ maxWidth: 900, marginBottom: 16 }}>
      {modal}
      {summary && <Alert type="error" showIcon role="alert" title={summary} style={{ marginBottom: 16 }} />}
      {seesFiles && <StorageUsageLine />}
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        initialValues={Object.fromEntries(GENERAL.map((k) => [k, data[k]]))}
        onValuesChange={() => dispatch(appActions.setUnsavedChanges(true))}
        onFinish={async (values: Partial<Settings>) => {
          setSummary(null);
          const result = await run(() => write({ url: '/api/settings', method: 'PUT', body: values }));
          if (!result) return; // the password confirmation was cancelled: nothing saved, the edits stay
          if (result.error) {
            const errors = serverFormErrors(result.error, t, GENERAL);
            form.setFields(errors.fields);
            setSummary(errors.summary);
            return;
          }
          dispatch(appActions.setUnsavedChanges(false));
          // the quota and the suspension change what the storage banner and the usage line say
          dispatch(api.util.invalidateTags(['StorageUsage']));
          void message.success(t('resource.saved'));
          void revalidator.revalidate();
        }}
      >
        <Form.Item
          name="storage_quota_mb"
          label={t('settings.general.storageQuota')}
          extra={storageHelp()}
          rules={[zodRule(ZSettings, 'storage_quota_mb', t)]}
        >
          <InputNumber min={1} addonAfter="MB" style={{ width: 240 }} disabled={storageLocked || undefined} />
        </Form.Item>
        <Form.Item
          name="storage_suspended"
          label={t('files.storage.suspend')}
          extra={storageHelp(t('files.storage.suspendHelp'))}
          valuePropName="checked"
          data-testid="setting-storage_suspended"
        >
          <Switch disabled={storageLocked || undefined} />
        </Form.Item>
        <Form.Item
          name="max_upload_mb"
          label={t('settings.general.maxUpload')}
          extra={storageHelp()}
          rules={[zodRule(ZSettings, 'max_upload_mb', t)]}
        >
          <InputNumber
            min={1}
            max={100}
            addonAfter="MB"
            style={{ width: 240 }}
            disabled={storageLocked || undefined}
          />
        </Form.Item>
        <Form.Item
          name="default_currency"
          label={t('settings.general.currency')}
          rules={[zodRule(ZSettings, 'default_currency', t)]}
        >
          <Input maxLength={3} style={{ width: 120 }} />
        </Form.Item>
        {editable && (
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('resource.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/**
 * The SMTP settings and the test mail: admins only (whoever sets the mail server reads every password reset
 * link). Saving needs a recent password confirmation, asked for when the server wants it; the save then runs
 * again.
 */
function SmtpCard({ editable }: { editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const [form] = Form.useForm();
  const [testForm] = Form.useForm();
  const { data, refetch } = useResourceReadQuery({ url: '/api/settings/smtp' });
  const shown = data as SmtpShown | undefined;
  const [write, { isLoading }] = useResourceWriteMutation();
  const { run, modal } = usePasswordConfirmation();
  const [test, { isLoading: testing }] = useResourceWriteMutation();
  const [summary, setSummary] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const fields = ['host', 'port', 'user', 'password', 'from', 'secure'];

  useEffect(() => {
    if (shown) form.setFieldsValue({ ...shown, password: undefined });
  }, [shown, form]);

  return (
    <Card title={t('settings.general.smtpTitle')} style={{ maxWidth: 900 }}>
      {modal}
      {summary && <Alert type="error" showIcon role="alert" title={summary} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        onValuesChange={() => dispatch(appActions.setUnsavedChanges(true))}
        onFinish={async (values: Record<string, unknown>) => {
          setSummary(null);
          const body: Record<string, unknown> = {
            host: values.host,
            port: values.port,
            user: values.user || null,
            from: values.from,
            secure: Boolean(values.secure),
          };
          // An empty password keeps the stored one (it is never sent back to the screen).
          if (values.password) body.password = values.password;
          const result = await run(() => write({ url: '/api/settings/smtp', method: 'PUT', body }));
          if (!result) return; // the password confirmation was cancelled: nothing saved, the edits stay
          if (result.error) {
            const errors = serverFormErrors(result.error, t, fields);
            form.setFields(errors.fields);
            setSummary(errors.summary);
            return;
          }
          dispatch(appActions.setUnsavedChanges(false));
          void message.success(t('resource.saved'));
          void refetch();
        }}
      >
        <Form.Item name="host" label={t('settings.general.host')} rules={[zodRule(ZSmtpSettings, 'host', t)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="port" label={t('settings.general.port')} rules={[zodRule(ZSmtpSettings, 'port', t)]}>
          <InputNumber min={1} max={65535} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="user" label={t('settings.general.user')} rules={[zodRule(ZSmtpSettings, 'user', t)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('settings.general.password')}
          extra={t(shown?.password_set ? 'settings.general.passwordKept' : 'settings.general.passwordNone')}
          rules={[zodRule(ZSmtpSettings, 'password', t)]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="from" label={t('settings.general.from')} rules={[zodRule(ZSmtpSettings, 'from', t)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="secure" label={t('settings.general.secure')}>
          <Select
            options={[
              { value: false, label: t('settings.general.starttls') },
              { value: true, label: t('settings.general.tls') },
            ]}
            style={{ width: 240 }}
          />
        </Form.Item>
        {editable && (
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('resource.save')}
          </Button>
        )}
      </Form>
      {editable && (
        <Form
          form={testForm}
          layout="inline"
          style={{ marginTop: 24 }}
          onFinish={async (values: { to: string }) => {
            setTestResult(null);
            try {
              await test({
                url: '/api/settings/smtp/test',
                method: 'POST',
                body: { to: values.to },
              }).unwrap();
              setTestResult({ ok: true, text: t('settings.general.testSent') });
            } catch (error) {
              setTestResult({ ok: false, text: testMailMessage(error, t) });
            }
          }}
        >
          <Form.Item name="to" label={t('settings.general.testTo')} rules={[zodRule(ZSmtpTest, 'to', t)]}>
            <Input autoComplete="email" style={{ width: 260 }} />
          </Form.Item>
          <Button htmlType="submit" loading={testing}>
            {t('settings.general.sendTest')}
          </Button>
        </Form>
      )}
      {testResult && (
        <Alert
          style={{ marginTop: 16 }}
          type={testResult.ok ? 'success' : 'error'}
          showIcon
          role="alert"
          data-testid="smtp-test-result"
          title={testResult.text}
        />
      )}
    </Card>
  );
}

/**
 * General settings (storage quota and usage, suspending uploads, upload limit, currency) and, for admins, the
 * SMTP settings with a test mail and the mail reminders. The storage and mail settings are admins' alone (access rules): others see
 * the storage ones disabled, and no mail settings at all.
 */
export default function GeneralPage() {
  const { t } = useTranslation();
  const data = useLoaderData() as Settings;
  const user = useAppSelector((s) => s.app.user);
  const editable = can(user, 'settings.update');
  const admin = can(user, ADMINS_ONLY);
  const dispatch = useAppDispatch();
  useEffect(() => () => void dispatch(appActions.setUnsavedChanges(false)), [dispatch]);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <PageHeader title={t('settings.general.title')} />
      <GeneralCard data={data} editable={editable} admin={admin} />
      {admin && <SmtpCard editable={editable} />}
      {admin && <RemindersCard editable={editable} />}
    </Space>
  );
}

import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ZReminderSettingsUpdate, type ReminderSettings } from '../../../../../shared/schemas/reminders';
import { appActions } from '../../../app/app-slice';
import { useAppDispatch } from '../../../app/hooks';
import { useResourceReadQuery, useResourceWriteMutation } from '../../../components/resource/resource-api';
import { serverFormErrors, zodRule } from '../../../components/resource/resource-errors';
import { formatDateTime } from '../../../i18n/date-time';
import { usePasswordConfirmation } from '../../profile/password-confirmation';

const FIELDS = ['enabled', 'time'];

/**
 * The mail reminders (admins only, like the mail settings they send through): on or off and the daily time in Hong
 * Kong, what they send, and the last run's figures. Saving needs a recent password confirmation, asked for when the
 * server wants it; the save then runs again.
 */
export function RemindersCard({ editable }: { editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const [form] = Form.useForm();
  const { data, refetch } = useResourceReadQuery({ url: '/api/settings/reminders' });
  const shown = data as ReminderSettings | undefined;
  const [write, { isLoading }] = useResourceWriteMutation();
  const { run, modal } = usePasswordConfirmation();
  const [summary, setSummary] = useState<string | null>(null);

  useEffect(() => {
    if (shown) form.setFieldsValue({ enabled: shown.enabled, time: shown.time });
  }, [shown, form]);

  const last = shown?.last_run;
  return (
    <Card title={t('settings.reminders.title')} style={{ maxWidth: 900 }} data-testid="reminders-card">
      {modal}
      <Typography.Paragraph>
        {t('settings.reminders.what', { days: shown?.days_ahead ?? 7 })}
      </Typography.Paragraph>
      <ul>
        <li>{t('settings.reminders.intakes', { days: shown?.days_ahead ?? 7 })}</li>
        <li>{t('settings.reminders.documents')}</li>
        <li>{t('settings.reminders.invoices')}</li>
      </ul>
      {shown && !shown.mail_configured && (
        <Alert type="warning" showIcon title={t('settings.reminders.noMail')} style={{ marginBottom: 16 }} />
      )}
      {summary && <Alert type="error" showIcon role="alert" title={summary} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        onValuesChange={() => dispatch(appActions.setUnsavedChanges(true))}
        onFinish={async (values: { enabled: boolean; time: string }) => {
          setSummary(null);
          const body = { enabled: Boolean(values.enabled), time: values.time || undefined };
          const result = await run(() => write({ url: '/api/settings/reminders', method: 'PUT', body }));
          if (!result) return; // the password confirmation was cancelled: nothing saved, the edits stay
          if (result.error) {
            const errors = serverFormErrors(result.error, t, FIELDS);
            form.setFields(errors.fields);
            setSummary(errors.summary);
            return;
          }
          dispatch(appActions.setUnsavedChanges(false));
          void message.success(t('resource.saved'));
          void refetch();
        }}
      >
        <Form.Item name="enabled" label={t('settings.reminders.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="time"
          label={t('settings.reminders.time')}
          extra={t('settings.reminders.timeHelp')}
          rules={[zodRule(ZReminderSettingsUpdate, 'time', t)]}
        >
          <Input placeholder="09:00" maxLength={5} style={{ width: 120 }} autoComplete="off" />
        </Form.Item>
        {editable && (
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('resource.save')}
          </Button>
        )}
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }} data-testid="reminders-last-run">
        {last
          ? t('settings.reminders.lastRun', {
              when: formatDateTime(last.finished_at ?? last.started_at),
              sent: last.sent,
              failed: last.failed,
            }) + (last.note ? ` ${t('settings.reminders.lastRunNoMail')}` : '')
          : t('settings.reminders.neverRun')}
      </Typography.Paragraph>
    </Card>
  );
}

import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { appActions } from '../../app/app-slice';
import { isApiError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { errorSummary, fieldErrors } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { usePasswordConfirmation } from './password-confirmation';
import {
  useConfirmTwoFactorMutation,
  useDisableTwoFactorMutation,
  useEnableTwoFactorMutation,
  usePendingTwoFactorSecretMutation,
  useRegenerateRecoveryCodesMutation,
  useTwoFactorStatusQuery,
  type TwoFactorSecret,
} from './profile-api';

function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <div style={{ marginTop: 16 }}>
      <Typography.Paragraph>{t('profile.twoFactor.recoveryHelp')}</Typography.Paragraph>
      <pre
        data-testid="recovery-codes"
        style={{ background: '#f1f5f9', padding: 12, borderRadius: 6, lineHeight: 1.8 }}
      >
        {codes.join('\n')}
      </pre>
    </div>
  );
}

/**
 * Two-factor authentication (quality §4–5): enable → QR code and secret → confirm with a code → the 8
 * recovery codes, shown once and regenerable; disable. Each step asks for the password when the server does.
 */
export function TwoFactorSection({ onEnabled }: { onEnabled?: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  const user = useAppSelector((s) => s.app.user);
  const status = useTwoFactorStatusQuery();
  const [enable, enabling] = useEnableTwoFactorMutation();
  const [pendingSecret] = usePendingTwoFactorSecretMutation();
  const [confirm, confirming] = useConfirmTwoFactorMutation();
  const [regenerate] = useRegenerateRecoveryCodesMutation();
  const [disable] = useDisableTwoFactorMutation();
  const { run, modal } = usePasswordConfirmation();
  const [secret, setSecret] = useState<TwoFactorSecret | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ code: string }>();

  const fail = (e: unknown) => {
    if (isApiError(e) && e.handled) return;
    setError(errorSummary(e, t));
  };
  const setEnabled = (on: boolean) => {
    if (user) dispatch(appActions.setUser({ ...user, two_factor_enabled: on }));
  };

  const start = async (resume: boolean) => {
    setError(null);
    setCodes(null);
    const result = await run(() => (resume ? pendingSecret() : enable()));
    if (!result) return;
    if (result.data) setSecret(result.data);
    else fail(result.error);
  };

  const onConfirm = async ({ code }: { code: string }) => {
    setError(null);
    const result = await run(() => confirm({ code: code.replace(/\s+/g, '') }));
    if (!result) return;
    if (result.data) {
      setCodes(result.data.recovery_codes);
      setSecret(null);
      form.resetFields();
      setEnabled(true);
      message.success(t('profile.twoFactor.enabledNow'));
      onEnabled?.();
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    const fields = fieldErrors(result.error, t);
    if (fields.length > 0) form.setFields(fields as never);
    else fail(result.error);
  };

  const onRegenerate = async () => {
    setError(null);
    const result = await run(() => regenerate());
    if (!result) return;
    if (result.data) setCodes(result.data.recovery_codes);
    else fail(result.error);
  };

  const onDisable = async () => {
    setError(null);
    const result = await run(() => disable());
    if (!result) return;
    if (!result.error) {
      setCodes(null);
      setSecret(null);
      setEnabled(false);
      message.success(t('profile.twoFactor.disabledNow'));
    } else fail(result.error);
  };

  const info = status.data;
  return (
    <Card title={t('profile.twoFactor.title')} data-testid="two-factor-section">
      {modal}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      {info?.enabled ? (
        <>
          <Space wrap>
            <Tag color="green">{t('profile.twoFactor.on')}</Tag>
            <Typography.Text type="secondary">
              {t('profile.twoFactor.codesLeft', { count: info.recovery_codes_left })}
            </Typography.Text>
          </Space>
          {codes && <RecoveryCodes codes={codes} />}
          <Space wrap style={{ marginTop: 16, display: 'flex' }}>
            <Button onClick={() => void onRegenerate()}>{t('profile.twoFactor.regenerate')}</Button>
            <Button danger onClick={() => void onDisable()}>
              {t('profile.twoFactor.disable')}
            </Button>
          </Space>
        </>
      ) : secret ? (
        <>
          <Typography.Paragraph>{t('profile.twoFactor.scanHelp')}</Typography.Paragraph>
          <img
            src={secret.qr_code}
            alt={t('profile.twoFactor.qrAlt')}
            width={180}
            height={180}
            data-testid="two-factor-qr"
          />
          <Typography.Paragraph style={{ marginTop: 8 }}>
            {t('profile.twoFactor.secret')}{' '}
            <Typography.Text code copyable data-testid="two-factor-secret">
              {secret.secret}
            </Typography.Text>
          </Typography.Paragraph>
          <Form
            form={form}
            name="two-factor-confirm"
            layout="inline"
            onFinish={onConfirm}
            requiredMark={false}
          >
            <Form.Item name="code" label={t('profile.twoFactor.code')} rules={[rules.required(t)]}>
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={10} />
            </Form.Item>
            <Button type="primary" htmlType="submit" disabled={confirming.isLoading}>
              {t('profile.twoFactor.confirm')}
            </Button>
          </Form>
        </>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('profile.twoFactor.offHelp')}</Typography.Paragraph>
          {codes && <RecoveryCodes codes={codes} />}
          <Button
            type="primary"
            disabled={enabling.isLoading || status.isLoading}
            onClick={() => void start(Boolean(info?.pending_confirmation))}
          >
            {info?.pending_confirmation ? t('profile.twoFactor.resume') : t('profile.twoFactor.enable')}
          </Button>
        </>
      )}
    </Card>
  );
}

import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { returnPath } from '../../app/navigation';
import { showSubmitError } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { useTwoFactorChallengeMutation } from './auth-api';
import { userSignedIn } from './session';

/** The second sign-in step: an authenticator code, or one of the recovery codes. */
export default function TwoFactorPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [recovery, setRecovery] = useState(false);
  const [form] = Form.useForm<{ code?: string; recovery_code?: string }>();
  const [challenge, { isLoading }] = useTwoFactorChallengeMutation();
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: { code?: string; recovery_code?: string }) => {
    setError(null);
    const result = await challenge(
      recovery
        ? { recovery_code: (values.recovery_code ?? '').trim() }
        : { code: (values.code ?? '').replace(/\s+/g, '') },
    );
    if (result.data) {
      void userSignedIn(dispatch, result.data.user);
      // the page asked for before signing in, if any
      navigate(returnPath(params), { replace: true });
      return;
    }
    showSubmitError(result.error, form, t, setError);
  };

  const toggle = () => {
    setRecovery((r) => !r);
    setError(null);
    form.resetFields();
  };

  return (
    <Card>
      <Typography.Title level={1} className="public-title">
        {t('auth.twoFactor.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {recovery ? t('auth.twoFactor.recoveryHelp') : t('auth.twoFactor.codeHelp')}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        {recovery ? (
          <Form.Item
            name="recovery_code"
            label={t('auth.twoFactor.recoveryCode')}
            rules={[rules.required(t)]}
          >
            <Input autoComplete="one-time-code" autoFocus />
          </Form.Item>
        ) : (
          <Form.Item name="code" label={t('auth.twoFactor.code')} rules={[rules.required(t)]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={10} autoFocus />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block disabled={isLoading}>
          {t('auth.twoFactor.submit')}
        </Button>
      </Form>
      <Button type="link" onClick={toggle} style={{ paddingInline: 0, marginTop: 8 }}>
        {recovery ? t('auth.twoFactor.useCode') : t('auth.twoFactor.useRecovery')}
      </Button>
    </Card>
  );
}

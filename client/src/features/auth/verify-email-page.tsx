import { useEffect, useRef, useState } from 'react';
import { Alert, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useVerifyEmailMutation } from '../profile/profile-api';

/** `/email/verify?id&expires&signature`: the link mailed after an email change (profile) confirms the address. */
export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [verify] = useVerifyEmailMutation();
  const [state, setState] = useState<'pending' | 'done' | 'failed'>('pending');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const id = Number(params.get('id'));
    const expires = Number(params.get('expires'));
    const signature = params.get('signature') ?? '';
    if (!id || !expires || !signature) {
      setState('failed');
      return;
    }
    void verify({ id, expires, signature }).then((result) => setState(result.error ? 'failed' : 'done'));
  }, [params, verify]);

  return (
    <Card>
      <Typography.Title level={1} className="public-title">
        {t('auth.verify.title')}
      </Typography.Title>
      {state === 'pending' && (
        <Typography.Paragraph role="status">{t('auth.verify.progress')}</Typography.Paragraph>
      )}
      {state === 'done' && <Alert type="success" showIcon title={t('auth.verify.done')} role="status" />}
      {state === 'failed' && <Alert type="error" showIcon title={t('auth.verify.failed')} role="alert" />}
      <div style={{ marginTop: 16 }}>
        <Link to="/">{t('auth.backToLogin')}</Link>
      </div>
    </Card>
  );
}

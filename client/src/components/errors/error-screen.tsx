import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export type ErrorKind = '403' | '404' | '500' | 'no-connection';

const STATUS = { '403': '403', '404': '404', '500': '500', 'no-connection': 'warning' } as const;

/** The error screens of spec §2 (permission denied, not found, server error, no connection). */
export function ErrorScreen({ kind }: { kind: ErrorKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={STATUS[kind]}
      title={t(`errorPages.${kind}.title`)}
      subTitle={t(`errorPages.${kind}.text`)}
      extra={[
        <Button key="home" type="primary" onClick={() => navigate('/')}>
          {t('errorPages.home')}
        </Button>,
        ...(kind === 'no-connection' || kind === '500'
          ? [
              <Button key="back" onClick={() => navigate(-1)}>
                {t('errorPages.retry')}
              </Button>,
            ]
          : []),
      ]}
    />
  );
}

export function Forbidden() {
  return <ErrorScreen kind="403" />;
}
export function NotFound() {
  return <ErrorScreen kind="404" />;
}
export function ServerError() {
  return <ErrorScreen kind="500" />;
}
export function NoConnection() {
  return <ErrorScreen kind="no-connection" />;
}

import { useState } from 'react';
import { Alert, App, Button, Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { firstLoadLocale } from '../../components/first-load';
import { isApiError } from '../../app/api';
import { formatDateTime } from '../../i18n/date-time';
import { errorSummary } from '../../components/forms/server-errors';
import { usePasswordConfirmation } from './password-confirmation';
import { useBrowserSessionsQuery, useLogoutOtherSessionsMutation, type BrowserSession } from './profile-api';

/** Browser sessions (quality §9): IP, browser, last active, this device; "log out other browser sessions". */
export function SessionsSection() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const sessions = useBrowserSessionsQuery();
  const [logoutOthers, { isLoading }] = useLogoutOtherSessionsMutation();
  const { run, modal } = usePasswordConfirmation();
  const [error, setError] = useState<string | null>(null);

  const onLogoutOthers = async () => {
    setError(null);
    const result = await run(() => logoutOthers());
    if (!result) return;
    if (result.data) message.success(t('profile.sessions.ended', { count: result.data.ended }));
    else if (!(isApiError(result.error) && result.error.handled)) setError(errorSummary(result.error, t));
  };

  return (
    <Card title={t('profile.sessions.title')} data-testid="sessions-section">
      {modal}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Table<BrowserSession>
        rowKey="id"
        size="small"
        pagination={false}
        locale={firstLoadLocale(sessions.isLoading)}
        dataSource={sessions.data?.items ?? []}
        scroll={{ x: true }}
        columns={[
          {
            title: t('profile.sessions.browser'),
            key: 'browser',
            render: (_v, s) => (
              <>
                {s.browser} · {s.platform}{' '}
                {s.is_current && <Tag color="green">{t('profile.sessions.thisDevice')}</Tag>}
              </>
            ),
          },
          { title: t('profile.sessions.ip'), dataIndex: 'ip', key: 'ip' },
          {
            title: t('profile.sessions.lastActive'),
            dataIndex: 'last_active',
            key: 'last_active',
            render: (v: string | null) => (v ? formatDateTime(v) : '—'),
          },
        ]}
      />
      <Button style={{ marginTop: 16 }} disabled={isLoading} onClick={() => void onLogoutOthers()}>
        {t('profile.sessions.logoutOthers')}
      </Button>
    </Card>
  );
}

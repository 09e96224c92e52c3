import { useState } from 'react';
import { Button, Card, Descriptions, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { beat } from '../../app/heartbeat';
import { useAppSelector } from '../../app/hooks';
import type { AppStore } from '../../app/store';
import { currentLocale } from '../../i18n/i18n';
import { toRouterLocale } from '../../i18n/locale';
import { formatTime } from '../../i18n/date-time';

/**
 * /test (public): a connection self-test for support calls — is the server reachable, is there a valid
 * session, which language and upload limit is in force — with a button that runs the heartbeat now.
 */
export default function TestPage() {
  const { t } = useTranslation();
  const store = useStore() as AppStore;
  const isOnline = useAppSelector((s) => s.app.isOnline);
  const authValid = useAppSelector((s) => s.app.authValid);
  const checked = useAppSelector((s) => s.shell.heartbeatChecked);
  const maxUploadSize = useAppSelector((s) => s.app.maxUploadSize);
  const kind = useAppSelector((s) => s.shell.kind);
  const [running, setRunning] = useState(false);
  const [lastRun, setLastRun] = useState<Date | null>(null);

  const run = async () => {
    setRunning(true);
    await beat(store, kind);
    setLastRun(new Date());
    setRunning(false);
  };

  const yesNo = (value: boolean, yes: string, no: string) => (
    <Tag color={value ? 'green' : 'red'}>{value ? t(yes) : t(no)}</Tag>
  );

  return (
    <Card>
      <Typography.Title level={3}>{t('test.title')}</Typography.Title>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('test.connection')}>
          {checked ? yesNo(isOnline, 'test.online', 'test.offline') : <Tag>{t('test.unknown')}</Tag>}
        </Descriptions.Item>
        <Descriptions.Item label={t('test.session')}>
          {yesNo(authValid, 'test.sessionValid', 'test.sessionInvalid')}
        </Descriptions.Item>
        <Descriptions.Item label={t('test.language')}>
          {t(`language.${currentLocale()}`)} ({toRouterLocale(currentLocale())})
        </Descriptions.Item>
        <Descriptions.Item label={t('test.uploadLimit')}>
          {t('test.megabytes', { count: maxUploadSize })}
        </Descriptions.Item>
        {lastRun && <Descriptions.Item label={t('test.lastRun')}>{formatTime(lastRun)}</Descriptions.Item>}
      </Descriptions>
      <Button type="primary" onClick={run} disabled={running} style={{ marginTop: 16 }}>
        {t('test.run')}
      </Button>
    </Card>
  );
}

import { Alert, Button, Flex, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { appActions } from '../../app/app-slice';
import { useAppDispatch } from '../../app/hooks';
import { Showcase } from './showcase-frame';

export default function AlertsPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  return (
    <Showcase titleKey="showcase.alerts.title" introKey="showcase.alerts.intro">
      <Flex vertical gap={12}>
        {(['success', 'info', 'warning', 'error'] as const).map((type) => (
          <Alert
            key={type}
            type={type}
            showIcon
            title={t(`showcase.alerts.${type}`)}
            description={t('showcase.alerts.description')}
          />
        ))}
        <Space wrap>
          <Button onClick={() => dispatch(appActions.setFlash({ banner: t('showcase.alerts.flashText') }))}>
            {t('showcase.alerts.showFlash')}
          </Button>
          <Button
            danger
            onClick={() =>
              dispatch(
                appActions.setFlash({ banner: t('showcase.alerts.flashError'), bannerStyle: 'danger' }),
              )
            }
          >
            {t('showcase.alerts.showFlashError')}
          </Button>
          <Button
            onClick={() =>
              dispatch(
                appActions.setNotification({ title: t('showcase.alerts.notificationText'), type: 'info' }),
              )
            }
          >
            {t('showcase.alerts.showNotification')}
          </Button>
        </Space>
      </Flex>
    </Showcase>
  );
}

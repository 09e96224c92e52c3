import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Showcase } from './showcase-frame';

export default function TabsPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const selectedTab = useAppSelector((s) => s.app.selectedTab);
  const tabs = ['basic', 'family', 'application', 'attachment'];
  return (
    <Showcase titleKey="showcase.tabs.title" introKey="showcase.tabs.intro">
      <Tabs
        activeKey={String(selectedTab)}
        onChange={(key) => dispatch(appActions.setSelectedTab(Number(key)))}
        items={tabs.map((tab, i) => ({
          key: String(i),
          label: t(`showcase.tabs.${tab}`),
          children: (
            <Typography.Paragraph>
              {t('showcase.tabs.content', { tab: t(`showcase.tabs.${tab}`) })}
            </Typography.Paragraph>
          ),
        }))}
      />
    </Showcase>
  );
}

import { Button, Flex, Space } from 'antd';
import { DownloadOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Showcase } from './showcase-frame';

export default function ButtonsPage() {
  const { t } = useTranslation();
  return (
    <Showcase titleKey="showcase.buttons.title" introKey="showcase.buttons.intro">
      <Flex vertical gap={16}>
        <Space wrap>
          <Button type="primary">{t('showcase.buttons.primary')}</Button>
          <Button>{t('showcase.buttons.default')}</Button>
          <Button type="dashed">{t('showcase.buttons.dashed')}</Button>
          <Button type="text">{t('showcase.buttons.text')}</Button>
          <Button type="link">{t('showcase.buttons.link')}</Button>
        </Space>
        <Space wrap>
          <Button type="primary" icon={<PlusOutlined />}>
            {t('common.create')}
          </Button>
          <Button icon={<SearchOutlined />}>{t('common.search')}</Button>
          <Button icon={<DownloadOutlined />}>{t('common.export')}</Button>
          <Button danger>{t('common.delete')}</Button>
          <Button disabled>{t('showcase.buttons.disabled')}</Button>
        </Space>
        <Space wrap align="center">
          <Button size="small">{t('showcase.buttons.small')}</Button>
          <Button>{t('showcase.buttons.middle')}</Button>
          <Button size="large">{t('showcase.buttons.large')}</Button>
        </Space>
      </Flex>
    </Showcase>
  );
}

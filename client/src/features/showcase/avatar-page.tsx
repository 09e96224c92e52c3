import { Avatar, Flex, Space, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Showcase } from './showcase-frame';

export default function AvatarPage() {
  const { t } = useTranslation();
  return (
    <Showcase titleKey="showcase.avatar.title" introKey="showcase.avatar.intro">
      <Flex vertical gap={16}>
        <Space wrap size="large" align="center">
          <Avatar size={64} icon={<UserOutlined />} />
          <Avatar size="large" style={{ backgroundColor: '#475569' }}>
            {t('showcase.avatar.initials')}
          </Avatar>
          <Avatar style={{ backgroundColor: '#0f766e' }}>{t('showcase.avatar.initials')}</Avatar>
          <Avatar size="small" icon={<UserOutlined />} />
          <Avatar shape="square" size="large" icon={<UserOutlined />} />
        </Space>
        <Typography.Text>{t('showcase.avatar.group')}</Typography.Text>
        <Avatar.Group max={{ count: 3 }}>
          {['#475569', '#0f766e', '#b45309', '#be123c', '#4338ca'].map((color, i) => (
            <Avatar key={color} style={{ backgroundColor: color }}>
              {i + 1}
            </Avatar>
          ))}
        </Avatar.Group>
      </Flex>
    </Showcase>
  );
}

import { Avatar, Badge, Flex, Space, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Showcase, DOCUMENT_STATUSES } from './showcase-frame';

export default function BadgesPage() {
  const { t } = useTranslation();
  return (
    <Showcase titleKey="showcase.badges.title" introKey="showcase.badges.intro">
      <Flex vertical gap={16}>
        <Space size="large">
          <Badge count={5}>
            <Avatar shape="square" icon={<UserOutlined />} />
          </Badge>
          <Badge count={120} overflowCount={99}>
            <Avatar shape="square" icon={<UserOutlined />} />
          </Badge>
          <Badge dot>
            <Avatar shape="square" icon={<UserOutlined />} />
          </Badge>
        </Space>
        <Space wrap>
          <Badge status="success" text={t('showcase.badges.approved')} />
          <Badge status="default" text={t('showcase.badges.notApproved')} />
          <Badge status="error" text={t('showcase.badges.voided')} />
        </Space>
        <Typography.Text>{t('showcase.badges.documentStatus')}</Typography.Text>
        <Space wrap>
          {DOCUMENT_STATUSES.map((s) => (
            <Tag key={s.key} color={s.color}>
              {s.letter} · {t(`showcase.badges.status.${s.key}`)}
            </Tag>
          ))}
        </Space>
      </Flex>
    </Showcase>
  );
}

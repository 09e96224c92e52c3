import { useState } from 'react';
import { DatePicker, Flex, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { Showcase } from './showcase-frame';

export default function InputsPage() {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(true);
  const currencies = [
    { value: 'HKD', label: t('showcase.inputs.hkd') },
    { value: 'KRW', label: t('showcase.inputs.krw') },
  ];
  return (
    <Showcase titleKey="showcase.inputs.title" introKey="showcase.inputs.intro">
      <Flex vertical gap={12} style={{ maxWidth: 420 }}>
        <Input placeholder={t('showcase.inputs.text')} aria-label={t('showcase.inputs.text')} allowClear />
        <Input.Password placeholder={t('auth.password')} aria-label={t('auth.password')} />
        <Input.Search placeholder={t('common.search')} aria-label={t('common.search')} />
        <InputNumber
          style={{ width: '100%' }}
          min={0}
          precision={2}
          placeholder={t('showcase.inputs.amount')}
          aria-label={t('showcase.inputs.amount')}
        />
        <Select
          options={currencies}
          placeholder={t('showcase.inputs.currency')}
          aria-label={t('showcase.inputs.currency')}
          allowClear
        />
        <DatePicker
          style={{ width: '100%' }}
          placeholder={t('showcase.inputs.date')}
          aria-label={t('showcase.inputs.date')}
        />
        <Input.TextArea
          rows={3}
          placeholder={t('showcase.inputs.remark')}
          aria-label={t('showcase.inputs.remark')}
        />
        <Space>
          <Switch checked={enabled} onChange={setEnabled} aria-label={t('showcase.inputs.switch')} />
          <span>{enabled ? t('common.yes') : t('common.no')}</span>
        </Space>
      </Flex>
    </Showcase>
  );
}

import { useState } from 'react';
import { App, Button, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Showcase } from './showcase-frame';

export default function ModalsPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [open, setOpen] = useState(false);
  return (
    <Showcase titleKey="showcase.modals.title" introKey="showcase.modals.intro">
      <Space wrap>
        <Button type="primary" onClick={() => setOpen(true)}>
          {t('showcase.modals.open')}
        </Button>
        <Button
          danger
          onClick={() =>
            modal.confirm({
              title: t('showcase.modals.confirmTitle'),
              content: t('showcase.modals.confirmText'),
              okText: t('common.confirm'),
              cancelText: t('common.cancel'),
              onOk: () => void message.success(t('showcase.modals.confirmed')),
            })
          }
        >
          {t('showcase.modals.confirm')}
        </Button>
      </Space>
      <Modal
        open={open}
        title={t('showcase.modals.modalTitle')}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        onOk={() => setOpen(false)}
        onCancel={() => setOpen(false)}
      >
        <p>{t('showcase.modals.modalText')}</p>
      </Modal>
    </Showcase>
  );
}

import { Alert, App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { rules } from '../../components/forms/rules';
import { Showcase } from './showcase-frame';

interface DemoForm {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
}

export default function FormsPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  const unsaved = useAppSelector((s) => s.app.unsavedChanges);
  const [form] = Form.useForm<DemoForm>();
  return (
    <Showcase titleKey="showcase.forms.title" introKey="showcase.forms.intro">
      {unsaved && (
        <Alert type="info" showIcon title={t('showcase.forms.unsaved')} style={{ marginBottom: 16 }} />
      )}
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 420 }}
        onValuesChange={() => {
          if (!unsaved) dispatch(appActions.setUnsavedChanges(true));
        }}
        onFinish={() => {
          dispatch(appActions.setUnsavedChanges(false));
          void message.success(t('showcase.forms.saved'));
        }}
      >
        <Form.Item name="name" label={t('showcase.forms.name')} rules={[rules.required(t)]}>
          <Input />
        </Form.Item>
        <Form.Item name="email" label={t('auth.email')} rules={[rules.required(t), rules.email(t)]}>
          <Input />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={[rules.required(t), rules.password(t)]}>
          <Input.Password />
        </Form.Item>
        <Form.Item
          name="password_confirmation"
          label={t('auth.register.confirmPassword')}
          dependencies={['password']}
          rules={[rules.required(t), rules.sameAs(t, 'password')]}
        >
          <Input.Password />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('common.save')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              dispatch(appActions.setUnsavedChanges(false));
            }}
          >
            {t('common.reset')}
          </Button>
        </Space>
      </Form>
    </Showcase>
  );
}

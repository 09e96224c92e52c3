import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { firstLoadLocale } from '../../components/first-load';
import { isApiError } from '../../app/api';
import { formatDateTime } from '../../i18n/date-time';
import { errorSummary, showSubmitError } from '../../components/forms/server-errors';
import { rules } from '../../components/forms/rules';
import { usePasswordConfirmation } from '../profile/password-confirmation';
import {
  useApiTokensQuery,
  useCreateApiTokenMutation,
  useRevokeApiTokenMutation,
  useUpdateApiTokenMutation,
  type ApiToken,
} from '../profile/profile-api';
import { useUnsavedForm } from '../profile/use-unsaved-form';
import { AbilityPicker } from './ability-picker';
import { PageHeader } from '../../components/layout/page-header';

const when = (v: string | null, never: string) => (v ? formatDateTime(v) : never);

/** Where the API is described (GET /api/openapi.json: every route a token can call), and how a script calls it. */
function ApiDescriptionCard() {
  const { t } = useTranslation();
  const example = `curl -H "Authorization: Bearer <token>" ${window.location.origin}/api/students?per_page=5`;
  return (
    <Card title={t('apiTokens.describedTitle')} data-testid="api-description">
      <Typography.Paragraph>
        {t('apiTokens.described')}{' '}
        {/* underlined: a link inside a sentence is told from its text by more than colour (axe link-in-text-block) */}
        <Typography.Link href="/api/openapi.json" target="_blank" rel="noopener noreferrer" underline>
          {t('apiTokens.describedLink')}
        </Typography.Link>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        {t('apiTokens.example')}
      </Typography.Paragraph>
      <Typography.Text code copyable>
        {example}
      </Typography.Text>
    </Card>
  );
}

/**
 * /user/api-tokens: personal access tokens. Create with a name and abilities (a subset of the user's own
 * permissions; the token is shown once), list with last use, edit abilities, revoke.
 */
export default function ApiTokensPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tokens = useApiTokensQuery();
  const [create, creating] = useCreateApiTokenMutation();
  const [update, updating] = useUpdateApiTokenMutation();
  const [revoke] = useRevokeApiTokenMutation();
  const { run, modal } = usePasswordConfirmation();
  const [createForm] = Form.useForm<{ name: string; abilities: string[] }>();
  const [editForm] = Form.useForm<{ abilities: string[] }>();
  const [plain, setPlain] = useState<string | null>(null);
  const [editing, setEditing] = useState<ApiToken | null>(null);
  const [error, setError] = useState<string | null>(null);
  const available = tokens.data?.available_abilities ?? [];
  const unsaved = useUnsavedForm();

  const onCreate = async (values: { name: string; abilities?: string[] }) => {
    setError(null);
    const result = await run(() => create({ name: values.name, abilities: values.abilities ?? [] }));
    if (!result) return;
    if (result.data) {
      setPlain(result.data.token);
      createForm.resetFields();
      unsaved.saved();
      return;
    }
    showSubmitError(result.error, createForm, t, setError);
  };

  const onSaveAbilities = async () => {
    if (!editing) return;
    const { abilities } = await editForm.validateFields();
    const result = await update({ id: editing.id, abilities: abilities ?? [] });
    if (result.data) {
      setEditing(null);
      message.success(t('apiTokens.saved'));
    } else if (!(isApiError(result.error) && result.error.handled)) setError(errorSummary(result.error, t));
  };

  const onRevoke = async (token: ApiToken) => {
    const result = await revoke(token.id);
    if (!result.error) message.success(t('apiTokens.revoked'));
    else if (!(isApiError(result.error) && result.error.handled)) setError(errorSummary(result.error, t));
  };

  return (
    <Space orientation="vertical" size="large" style={{ display: 'flex', padding: 24 }}>
      {modal}
      <PageHeader title={t('apiTokens.title')} />
      {error && <Alert type="error" showIcon title={error} role="alert" />}
      <ApiDescriptionCard />
      <Card title={t('apiTokens.create')}>
        <Typography.Paragraph type="secondary">{t('apiTokens.help')}</Typography.Paragraph>
        <Form
          form={createForm}
          name="create-api-token"
          layout="vertical"
          requiredMark={false}
          onFinish={onCreate}
          onValuesChange={unsaved.onValuesChange}
          initialValues={{ abilities: [] }}
        >
          <Form.Item
            name="name"
            label={t('apiTokens.name')}
            rules={[rules.required(t)]}
            style={{ maxWidth: 480 }}
          >
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="abilities" label={t('apiTokens.abilities')}>
            <AbilityPicker available={available} />
          </Form.Item>
          <Button type="primary" htmlType="submit" disabled={creating.isLoading}>
            {t('common.create')}
          </Button>
        </Form>
      </Card>
      <Card title={t('apiTokens.list')}>
        <Table<ApiToken>
          rowKey="id"
          size="small"
          pagination={false}
          locale={firstLoadLocale(tokens.isLoading)}
          dataSource={tokens.data?.items ?? []}
          scroll={{ x: true }}
          columns={[
            { title: t('apiTokens.name'), dataIndex: 'name', key: 'name' },
            {
              title: t('apiTokens.abilities'),
              key: 'abilities',
              render: (_v, token) =>
                token.abilities.length ? (
                  token.abilities.map((a) => <Tag key={a}>{a}</Tag>)
                ) : (
                  <Typography.Text type="secondary">{t('apiTokens.none')}</Typography.Text>
                ),
            },
            {
              title: t('apiTokens.lastUsed'),
              dataIndex: 'last_used_at',
              key: 'last_used_at',
              render: (v: string | null) => when(v, t('apiTokens.never')),
            },
            {
              title: t('apiTokens.created'),
              dataIndex: 'created_at',
              key: 'created_at',
              render: (v: string | null) => when(v, '—'),
            },
            {
              title: '',
              key: 'actions',
              render: (_v, token) => (
                <Space>
                  <Button
                    size="small"
                    onClick={() => {
                      setEditing(token);
                      editForm.setFieldsValue({ abilities: token.abilities });
                    }}
                  >
                    {t('apiTokens.editAbilities')}
                  </Button>
                  <Popconfirm
                    title={t('apiTokens.revokeConfirm')}
                    okText={t('apiTokens.revoke')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => onRevoke(token)}
                  >
                    <Button size="small" danger>
                      {t('apiTokens.revoke')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={plain !== null}
        title={t('apiTokens.createdTitle')}
        footer={[
          <Button key="close" type="primary" onClick={() => setPlain(null)}>
            {t('common.close')}
          </Button>,
        ]}
        onCancel={() => setPlain(null)}
      >
        <Typography.Paragraph>{t('apiTokens.shownOnce')}</Typography.Paragraph>
        <Typography.Paragraph code copyable data-testid="api-token-plain">
          {plain}
        </Typography.Paragraph>
      </Modal>
      <Modal
        open={editing !== null}
        title={t('apiTokens.editTitle', { name: editing?.name ?? '' })}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: updating.isLoading }}
        onOk={() => void onSaveAbilities().catch(() => undefined)}
        onCancel={() => setEditing(null)}
        forceRender
      >
        <Form form={editForm} name="edit-api-token" layout="vertical">
          <Form.Item name="abilities" label={t('apiTokens.abilities')}>
            <AbilityPicker available={available} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}

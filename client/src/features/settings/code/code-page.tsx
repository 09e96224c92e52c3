import { useEffect, useMemo, useState } from 'react';
import { App, Alert, Button, Card, Form, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoaderData, useRevalidator } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import {
  FORMAT_SETTING,
  NUMBER_TOKENS,
  NUMBERED_DOCUMENTS,
  formatProblem,
  type NumberedDocument,
} from '../../../../../shared/schemas/numbering';
import { ZSettings, type Settings } from '../../../../../shared/schemas/settings';
import { appActions } from '../../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import {
  useLazyResourceReadQuery,
  useResourceWriteMutation,
} from '../../../components/resource/resource-api';
import { serverFormErrors, zodRule } from '../../../components/resource/resource-errors';
import { PageHeader } from '../../../components/layout/page-header';

/** The next number a format gives, from the server's preview (`GET /api/settings/numbering/preview`). */
function Preview({ document, format }: { document: NumberedDocument; format: string | undefined }) {
  const { t } = useTranslation();
  const [fetchPreview, { data, isError }] = useLazyResourceReadQuery();
  const [shown, setShown] = useState(format);
  useEffect(() => {
    const timer = setTimeout(() => setShown(format), 300);
    return () => clearTimeout(timer);
  }, [format]);
  const usable = shown !== undefined && formatProblem(shown) === null;
  useEffect(() => {
    if (usable)
      void fetchPreview({
        url: '/api/settings/numbering/preview',
        params: { document, format: shown },
        handleErrors: false,
      });
  }, [usable, document, shown, fetchPreview]);
  const preview = data as { number: string; format: string } | undefined;
  return (
    <Typography.Text data-testid={`preview-${document}`}>
      {t('settings.code.next')}{' '}
      {usable && preview && preview.format === shown && !isError ? (
        <Tag color="blue">{preview.number}</Tag>
      ) : (
        '—'
      )}
    </Typography.Text>
  );
}

/** `/settings/code`: document number formats with their tokens, each with a live preview of the next number. */
export default function CodePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const data = useLoaderData() as Settings;
  const revalidator = useRevalidator();
  const user = useAppSelector((s) => s.app.user);
  const editable = can(user, 'settings.update');
  const [form] = Form.useForm();
  const [write, { isLoading }] = useResourceWriteMutation();
  const [summary, setSummary] = useState<string | null>(null);
  const fields = useMemo(() => NUMBERED_DOCUMENTS.map((d) => FORMAT_SETTING[d]), []);
  const values = Form.useWatch([], form) as Partial<Settings> | undefined;
  useEffect(() => () => void dispatch(appActions.setUnsavedChanges(false)), [dispatch]);

  const save = async (input: Partial<Settings>) => {
    setSummary(null);
    try {
      const body = Object.fromEntries(fields.map((f) => [f, input[f]]));
      await write({ url: '/api/settings', method: 'PUT', body }).unwrap();
      dispatch(appActions.setUnsavedChanges(false));
      void message.success(t('resource.saved'));
      void revalidator.revalidate();
    } catch (error) {
      const result = serverFormErrors(error, t, fields);
      form.setFields(result.fields);
      setSummary(result.summary);
    }
  };

  return (
    <div>
      <PageHeader title={t('settings.code.title')} />
      <Card size="small" style={{ marginBottom: 16, maxWidth: 900 }}>
        <Typography.Paragraph style={{ marginBottom: 4 }}>{t('settings.code.tokens')}</Typography.Paragraph>
        <Space wrap>
          {NUMBER_TOKENS.map((token) => (
            <Tag key={token}>
              <code>{token}</code> {t(`settings.code.token.${token.replace(/[{}:]/g, '')}`)}
            </Tag>
          ))}
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('settings.code.reset')}
        </Typography.Paragraph>
      </Card>
      {summary && <Alert type="error" showIcon role="alert" title={summary} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        initialValues={Object.fromEntries(fields.map((f) => [f, data[f]]))}
        onValuesChange={() => dispatch(appActions.setUnsavedChanges(true))}
        onFinish={save}
        style={{ maxWidth: 900 }}
      >
        {NUMBERED_DOCUMENTS.map((document) => (
          <Form.Item
            key={document}
            name={FORMAT_SETTING[document]}
            label={t(`settings.code.documents.${document}`)}
            rules={[zodRule(ZSettings, FORMAT_SETTING[document], t)]}
            extra={<Preview document={document} format={values?.[FORMAT_SETTING[document]]} />}
          >
            <Input autoComplete="off" />
          </Form.Item>
        ))}
        {editable && (
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('resource.save')}
          </Button>
        )}
      </Form>
    </div>
  );
}

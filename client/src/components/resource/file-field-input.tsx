import { useState } from 'react';
import { DeleteOutlined, FileOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Image, Popconfirm, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { lookupNameField } from '../../../../shared/resources/declaration';
import { declarationByName } from '../../../../shared/resources';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { buildUrl } from '../../http/client';
import { errorSummary } from '../forms/server-errors';
import { uploadAccept, uploadFailureText, uploadRefusal } from '../forms/upload-checks';
import { useFileFieldDeleteMutation, useFileFieldUploadMutation } from './declared-api';
import { useResourceFormContext } from './resource-form-context';

export interface FileFieldInputProps {
  /** the declaration's name (`school`): names the record in the hint of a new one */
  resource: string;
  /** the field (`logo_file_id`): its route's segment is the name without `_file_id` (`logo`) */
  name: string;
  accept: 'image' | 'any';
  /** the stored file's id (the form item's value) */
  value?: number | null;
  record: Record<string, unknown> | null;
  disabled?: boolean;
}

/** The route of a record's file field: `/api/schools/5/logo` for `logo_file_id`. */
export function fileFieldUrl(apiPath: string, id: string | number, name: string): string {
  return `${apiPath}/${id}/${name.replace(/(_file)?_id$/, '')}`;
}

/**
 * A declared `file` field of a record's form (a school's logo): the stored file (an image shown, another file
 * linked), "Upload" — an image (or any allowed file) of at most the upload limit, checked here before it is
 * sent — posting the multipart `file` to the field's own route (`POST /api/schools/5/logo`; a child's at its own
 * path, `POST /api/grade-reports/3/file`), and "Remove", asked
 * first (`DELETE` there). Both answer the record, whose cached reads are dropped: the form shows the new value.
 * A record not saved yet has no route: the control is disabled and says to save first. A user who may not change
 * the record sees the file without the buttons.
 */
export default function FileFieldInput({
  resource,
  name,
  accept,
  value,
  record,
  disabled,
}: FileFieldInputProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const context = useResourceFormContext();
  const maxMb = useAppSelector((s) => s.app.maxUploadSize);
  const [upload, uploading] = useFileFieldUploadMutation();
  const [remove, removing] = useFileFieldDeleteMutation();
  const [error, setError] = useState<string | null>(null);
  const lower = (text: string) => (i18n.language === 'en' ? text.toLocaleLowerCase('en') : text);
  const fieldLabel = lower(t(`resources.${resource}.fields.${name}`));

  if (!context || context.id === null || !record) {
    return (
      <Space orientation="vertical" size={4} data-testid={`file-field-${name}`}>
        <Button icon={<UploadOutlined />} disabled>
          {t('resource.file.upload')}
        </Button>
        <Typography.Text type="secondary" data-testid={`file-field-${name}-save-first`}>
          {t('resource.file.saveFirst', {
            record: lower(t(`resources.${resource}.record`)),
            field: fieldLabel,
          })}
        </Typography.Text>
      </Space>
    );
  }
  // the field's route is at the resource's own path (a grade report's: `/api/grade-reports/3/file`), also when the
  // form shows the record under its parent (`/api/students/5/grade-reports/3`): that read is dropped too
  const own = declarationByName(resource);
  const url = fileFieldUrl(own ? `/api${own.path}` : context.apiPath, context.id, name);
  const shownAt = `${context.apiPath}/${context.id}`;
  const invalidates = url.startsWith(`${shownAt}/`) ? undefined : [shownAt];
  const fileId = value ?? null;
  const fileName = record[lookupNameField(name)];
  const src = fileId === null ? null : buildUrl(`/api/files/${fileId}`, { inline: 1 });

  /** Checks before sending: an allowed type by its name, at most the upload limit. */
  const beforeUpload = (file: File) => {
    const refusal = uploadRefusal(file, maxMb, t, accept === 'image' ? 'image' : 'any');
    setError(refusal);
    return refusal ? Upload.LIST_IGNORE : true;
  };

  const send = async (file: File) => {
    const result = await upload({ url, file, invalidates });
    if (!result.error) {
      void message.success(t('resource.file.uploaded'));
      return;
    }
    if (!(isApiError(result.error) && result.error.handled))
      setError(uploadFailureText(result.error, maxMb, t));
  };

  const clear = async () => {
    setError(null);
    const result = await remove({ url, invalidates });
    if (!result.error) void message.success(t('resource.file.removed'));
    else if (!(isApiError(result.error) && result.error.handled)) setError(errorSummary(result.error, t));
  };

  return (
    <div data-testid={`file-field-${name}`}>
      {error && (
        <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 8, maxWidth: 480 }} />
      )}
      <Space align="center" size="middle" wrap>
        {src && accept === 'image' && (
          <Image
            src={src}
            alt={t(`resources.${resource}.fields.${name}`)}
            width={96}
            height={96}
            style={{ objectFit: 'contain', border: '1px solid rgba(0,0,0,0.06)', borderRadius: 6 }}
            data-testid={`file-field-${name}-image`}
          />
        )}
        {src && accept !== 'image' && (
          <Typography.Link href={buildUrl(`/api/files/${fileId}`, {})} target="_blank">
            <FileOutlined /> {typeof fileName === 'string' && fileName ? fileName : String(fileId)}
          </Typography.Link>
        )}
        {!src && <Typography.Text type="secondary">{t('resource.file.none')}</Typography.Text>}
        {/* a user who may not change the record sees the file, and no button they could not use */}
        {!disabled && (
          <Space wrap>
            <Upload
              accept={uploadAccept(accept === 'image' ? 'image' : 'any')}
              maxCount={1}
              showUploadList={false}
              beforeUpload={beforeUpload}
              customRequest={({ file }) => void send(file as File)}
            >
              <Button icon={<UploadOutlined />} loading={uploading.isLoading}>
                {t(src ? 'resource.file.replace' : 'resource.file.upload')}
              </Button>
            </Upload>
            {src && (
              <Popconfirm
                title={t('resource.file.removeConfirm', { field: fieldLabel })}
                okText={t('resource.file.remove')}
                cancelText={t('resource.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={clear}
              >
                <Button danger icon={<DeleteOutlined />} loading={removing.isLoading}>
                  {t('resource.file.remove')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        )}
      </Space>
      {!disabled && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('resource.file.limit', { max: maxMb })}
        </Typography.Paragraph>
      )}
    </div>
  );
}

import { useState } from 'react';
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Space, Typography, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { UPLOAD_EXTENSIONS } from '../../../../shared/files';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { listCallQuery } from '../../components/resource/resource-query';
import type { ListQueryState } from '../../components/resource/types';
import { FileTable } from './file-table';
import { useFileListQuery, useUploadFileMutation } from './files-api';
import { uploadAccept, uploadFailureText, uploadRefusal } from '../../components/forms/upload-checks';

export interface FileAttachmentsProps {
  /** the owner record's type (`school` …: a key of `files.owners.*`) */
  ownerType: string;
  ownerId: number;
  /** the user may attach files to this record (e.g. schools.update) */
  canAttach: boolean;
}

/** One refused file: its name and why, in the user's language. */
interface Refusal {
  uid: string;
  name: string;
  text: string;
}

/**
 * A record's attachments (a school's attachment tab …): its files, newest first, with preview, download and
 * delete as in the media manager, and — when the user may attach — an upload of one or more files. Each
 * file is checked here first (the upload limit and the allowed extensions, with the server's own messages)
 * and refused without a request; sent ones show as uploading until the server answers, and its refusals
 * ("Storage is full." …) are shown in the user's language. The storage usage is read again after each upload
 * and delete.
 */
export function FileAttachments({ ownerType, ownerId, canAttach }: FileAttachmentsProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const maxMb = useAppSelector((s) => s.app.maxUploadSize);
  const [query, setQuery] = useState<ListQueryState>({});
  const [uploading, setUploading] = useState<UploadFile[]>([]);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [uploadFile] = useUploadFileMutation();
  const { data, isLoading, error } = useFileListQuery(
    listCallQuery(query, {}, { owner_type: ownerType, owner_id: String(ownerId) }),
    { refetchOnMountOrArgChange: true },
  );
  const loadFailed = Boolean(error) && !(isApiError(error) && error.handled);

  const refuse = (uid: string, name: string, text: string) =>
    setRefusals((list) => [...list.filter((r) => r.uid !== uid), { uid, name, text }]);

  /** Checks before sending; a refused file never leaves the browser. */
  const beforeUpload = (file: File & { uid: string }) => {
    const refusal = uploadRefusal(file, maxMb, t);
    if (refusal) {
      refuse(file.uid, file.name, refusal);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const send = async (file: File & { uid: string }) => {
    setUploading((list) => [...list, { uid: file.uid, name: file.name, status: 'uploading' }]);
    const result = await uploadFile({ file, ownerType, ownerId });
    setUploading((list) => list.filter((f) => f.uid !== file.uid));
    if (result.data) {
      void message.success(t('files.uploaded', { name: file.name }));
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    refuse(file.uid, file.name, uploadFailureText(result.error, maxMb, t));
  };

  return (
    <div data-testid={`file-attachments-${ownerType}-${ownerId}`}>
      {canAttach && (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
          <Space wrap align="center">
            <Upload
              accept={uploadAccept()}
              multiple
              fileList={uploading}
              showUploadList={{ showRemoveIcon: false }}
              beforeUpload={(file, batch) => {
                // a new choice of files: the refusals of the last one go
                if (file.uid === batch[0]?.uid) setRefusals([]);
                return beforeUpload(file as File & { uid: string });
              }}
              customRequest={({ file }) => void send(file as File & { uid: string })}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={uploading.length > 0}>
                {t('files.upload')}
              </Button>
            </Upload>
            <Typography.Text type="secondary">
              {t('files.uploadHelp', {
                types: UPLOAD_EXTENSIONS.map((e) => e.toUpperCase()).join(', '),
                max: maxMb,
              })}
            </Typography.Text>
          </Space>
          {refusals.length > 0 && (
            <Alert
              type="error"
              showIcon
              role="alert"
              data-testid="file-upload-refused"
              closable
              onClose={() => setRefusals([])}
              title={
                refusals.length === 1 ? (
                  t('files.refused', { name: refusals[0].name, reason: refusals[0].text })
                ) : (
                  <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                    {refusals.map((r) => (
                      <li key={r.uid}>{t('files.refused', { name: r.name, reason: r.text })}</li>
                    ))}
                  </ul>
                )
              }
            />
          )}
        </Space>
      )}
      {loadFailed && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="files-load-failed"
          title={t('resource.loadFailed')}
          style={{ marginBottom: 16 }}
        />
      )}
      <FileTable
        data={error ? undefined : data}
        firstLoad={isLoading}
        query={query}
        onQueryChange={setQuery}
        withOwner={false}
        emptyText={t('files.noAttachments')}
      />
    </div>
  );
}

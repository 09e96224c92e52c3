import { useEffect, useRef, useState } from 'react';
import { CameraOutlined, DeleteOutlined, FileOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, List, Popconfirm, Space, Tag, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router-dom';
import { UPLOAD_EXTENSIONS } from '../../../../shared/files';
import { isApiError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { uploadAccept, uploadFailureText, uploadRefusal } from '../../components/forms/upload-checks';
import { formatDate, formatDateTime } from '../../components/resource/renderers';
import { buildUrl } from '../../http/client';
import { ChecklistLegend, DocumentCodeTag, isDocumentStatus } from '../students/student-tags';
import {
  documentRows,
  fileBody,
  isLockedError,
  portalErrorText,
  refreshStudent,
  rowsOf,
  usePortalReadQuery,
  usePortalWriteMutation,
} from './portal-api';
import { usePortalLock } from './portal-lock';
import { PortalPage, useRouteData, useSyncSubmission } from './portal-page';
import { touchScreen } from './touch';

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** The states a file may go into (P, U, N) and the one it may be taken out of (U): the server's `can_…` first. */
export function documentMoves(row: Row, locked: boolean): { upload: boolean; remove: boolean } {
  if (locked) return { upload: false, remove: false };
  const status = str(row.status);
  const hasFile = Boolean(row.file_name);
  return {
    upload:
      row.can_upload !== undefined
        ? Boolean(row.can_upload)
        : ['pending', 'uploaded', 'unsubmitted'].includes(status),
    remove: row.can_remove !== undefined ? Boolean(row.can_remove) : status === 'uploaded' && hasFile,
  };
}

/**
 * Documents (`/document`, data `GET /api/document?locale=` in the stored language): each checklist row's state as
 * its letter in its colour (and a legend), its due date and file; a file uploaded to a row (P→U, checked here
 * first: the upload limit and the allowed types; a phone offers its camera too), replaced or removed until staff
 * submit it. The page is read again after every change, and when the language changes.
 */
export default function DocumentsPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const stored = useAppSelector((s) => s.app.student);
  const maxMb = useAppSelector((s) => s.app.maxUploadSize);
  const data = useRouteData();
  useSyncSubmission(data);
  const { locked } = usePortalLock();
  const revalidator = useRevalidator();
  const [write] = usePortalWriteMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const camera = touchScreen();
  // the applications name the checklist's groups
  const applications = usePortalReadQuery({ url: '/api/application' });
  const groups = documentRows(data, rowsOf(applications.data, 'applications'), i18n.language);

  // the names are in the stored language: another language reads the checklist again
  const language = useRef(i18n.language);
  useEffect(() => {
    if (language.current === i18n.language) return;
    language.current = i18n.language;
    void revalidator.revalidate();
  }, [i18n.language, revalidator]);

  const nameOf = (row: Row) => {
    const own = str(row.name);
    if (own) return own;
    const en = str(row.name_en);
    const zh = str(row.name_zh);
    return (i18n.language === 'en' ? en || zh : zh || en) || `#${str(row.id)}`;
  };

  const run = async (row: Row, key: string, request: Parameters<typeof write>[0], done: string) => {
    setError(null);
    setBusy(`${str(row.id)}:${key}`);
    const result = await write(request);
    setBusy(null);
    if (!result.error) {
      void message.success(done);
      void revalidator.revalidate();
      void applications.refetch();
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    const reason =
      key === 'upload' && !isLockedError(result.error)
        ? uploadFailureText(result.error, maxMb, t)
        : portalErrorText(result.error, t);
    setError(
      t('portal.documents.refused', { name: nameOf(row), reason, interpolation: { escapeValue: false } }),
    );
    if (isLockedError(result.error)) void refreshStudent(dispatch, stored);
    void revalidator.revalidate();
  };

  const checked = (file: File) => {
    const refusal = uploadRefusal(file, maxMb, t);
    if (refusal) {
      setError(
        t('portal.documents.refused', {
          name: file.name,
          reason: refusal,
          interpolation: { escapeValue: false },
        }),
      );
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const send = (row: Row, file: File) =>
    run(
      row,
      'upload',
      { url: `/api/document/${str(row.id)}/file`, method: 'POST', body: fileBody(file) },
      t('portal.documents.uploaded', { name: file.name, interpolation: { escapeValue: false } }),
    );

  const picker = (row: Row, replace: boolean, withCamera: boolean) => {
    const label = withCamera
      ? t('portal.documents.takePhoto')
      : t(replace ? 'portal.documents.replace' : 'portal.documents.upload');
    return (
      <Upload
        key={withCamera ? 'camera' : 'file'}
        accept={uploadAccept(withCamera ? 'image' : 'any')}
        {...(withCamera ? { capture: 'environment' as const } : {})}
        showUploadList={false}
        maxCount={1}
        beforeUpload={checked}
        customRequest={({ file }) => void send(row, file as File)}
      >
        <Button
          type={replace || withCamera ? 'default' : 'primary'}
          icon={withCamera ? <CameraOutlined /> : <UploadOutlined />}
          loading={!withCamera && busy === `${str(row.id)}:upload`}
          aria-label={`${label} ${nameOf(row)}`}
          data-action={withCamera ? 'camera' : 'upload'}
        >
          {label}
        </Button>
      </Upload>
    );
  };

  const fileLink = (row: Row) => {
    const name = str(row.file_name);
    if (!name) return <Typography.Text type="secondary">{t('portal.documents.noFile')}</Typography.Text>;
    // the row's own file route: the student's own file only
    const href = buildUrl(str(row.file_url) || `/api/document/${str(row.id)}/file`, { inline: 1 });
    return (
      <Space orientation="vertical" size={0}>
        <Typography.Link href={href} target="_blank" rel="noopener" data-testid="document-file">
          <FileOutlined /> {name}
        </Typography.Link>
        {row.uploaded_at ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('portal.documents.uploadedAt', { date: formatDateTime(str(row.uploaded_at)) })}
          </Typography.Text>
        ) : null}
      </Space>
    );
  };

  return (
    <PortalPage
      title={t('portal.documents.title')}
      intro={
        <Typography.Paragraph type="secondary">
          {t('portal.documents.intro', {
            types: UPLOAD_EXTENSIONS.map((e) => e.toUpperCase()).join(', '),
            max: maxMb,
          })}
        </Typography.Paragraph>
      }
    >
      <ChecklistLegend />
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="documents-error"
          title={error}
          closable
          onClose={() => setError(null)}
          style={{ marginBottom: 12 }}
        />
      )}
      {groups.length === 0 && <Empty description={t('portal.documents.empty')} />}
      {groups.map((group) => (
        <Card
          key={group.key}
          title={<h2 className="portal-card-title">{group.title || t('portal.documents.checklist')}</h2>}
          style={{ marginBottom: 16 }}
          styles={{ body: { padding: 0 } }}
          data-testid="document-group"
        >
          <List
            dataSource={group.rows}
            locale={{ emptyText: t('portal.documents.empty') }}
            renderItem={(row) => {
              const moves = documentMoves(row, locked);
              const name = nameOf(row);
              const due = str(row.due_date);
              return (
                <List.Item data-testid={`document-${str(row.id)}`} style={{ padding: '12px 16px' }}>
                  <Space orientation="vertical" size={6} style={{ width: '100%' }}>
                    <Space size={6} wrap>
                      <DocumentCodeTag status={row.status} />
                      <Typography.Text strong>{name}</Typography.Text>
                      {Boolean(row.is_required) && <Tag>{t('students.checklist.required')}</Tag>}
                    </Space>
                    <Space size={12} wrap>
                      <span data-testid="document-state">
                        {isDocumentStatus(row.status)
                          ? t(`resources.application_document.states.${row.status}`)
                          : str(row.status)}
                      </span>
                      {due && (
                        <Typography.Text type="secondary" data-testid="document-due">
                          {t('portal.documents.due', { date: formatDate(due) })}
                        </Typography.Text>
                      )}
                    </Space>
                    {fileLink(row)}
                    {(moves.upload || moves.remove) && (
                      <Space wrap data-testid={`document-actions-${str(row.id)}`}>
                        {moves.upload && picker(row, Boolean(row.file_name), false)}
                        {moves.upload && camera && picker(row, false, true)}
                        {moves.remove && (
                          <Popconfirm
                            title={t('portal.documents.removeConfirm', {
                              name,
                              interpolation: { escapeValue: false },
                            })}
                            okText={t('portal.documents.remove')}
                            cancelText={t('common.cancel')}
                            okButtonProps={{ danger: true }}
                            onConfirm={() =>
                              run(
                                row,
                                'remove',
                                { url: `/api/document/${str(row.id)}/file`, method: 'DELETE' },
                                t('portal.documents.removed'),
                              )
                            }
                          >
                            <Button
                              danger
                              icon={<DeleteOutlined />}
                              loading={busy === `${str(row.id)}:remove`}
                              aria-label={`${t('portal.documents.remove')} ${name}`}
                              data-action="remove"
                            >
                              {t('portal.documents.remove')}
                            </Button>
                          </Popconfirm>
                        )}
                      </Space>
                    )}
                  </Space>
                </List.Item>
              );
            }}
          />
        </Card>
      ))}
    </PortalPage>
  );
}

import { useState, type ReactNode } from 'react';
import {
  CameraOutlined,
  CheckOutlined,
  DeleteOutlined,
  DownloadOutlined,
  FileOutlined,
  RollbackOutlined,
  StopOutlined,
  UndoOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Popconfirm, Space, Table, Tag, Typography, Upload, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { UPLOAD_EXTENSIONS, fileUrl } from '../../../../shared/files';
import { can } from '../../../../shared/permissions';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { uploadAccept, uploadFailureText, uploadRefusal } from '../../components/forms/upload-checks';
import {
  useFileFieldDeleteMutation,
  useFileFieldUploadMutation,
} from '../../components/resource/declared-api';
import { formatDateTime } from '../../components/resource/renderers';
import { useResourceActionMutation, useResourceListQuery } from '../../components/resource/resource-api';
import { deleteErrorMessage } from '../../components/resource/resource-errors';
import type { ResourceRow } from '../../components/resource/types';
import { buildUrl } from '../../http/client';
import { ChecklistLegend, DocumentCodeTag, isDocumentStatus } from './student-tags';
import { oneLineHeader } from '../../components/resource/table-layout';

/** The staff moves of a checklist row (domain.md's table), in the order their buttons show. */
const MOVES = ['submit', 'unsubmit', 'cancel', 'restore'] as const;
type Move = (typeof MOVES)[number];

/**
 * The moves asked about first: every one, as the portal's reopening is. Each is hard to take back for someone
 * else (marking submitted tells the school's deadline is met; taking back, not needed and needed again change what
 * the student is asked for), so none acts on a single click.
 */
const CONFIRMED: ReadonlySet<Move> = new Set(MOVES);

const MOVE_ICONS: Record<Move, ReactNode> = {
  submit: <CheckOutlined />,
  unsubmit: <RollbackOutlined />,
  cancel: <StopOutlined />,
  restore: <UndoOutlined />,
};

/** The states a file may be added in, and the one it may be removed in (domain.md's table). */
const UPLOADABLE: ReadonlySet<string> = new Set(['pending', 'uploaded', 'unsubmitted']);

/**
 * Whether this user may add or remove a row's file now: as the row's `allowed_actions` say when the server names
 * these (`upload_file`, `remove_file`), else from its state — a file goes into a pending, uploaded or taken-back
 * row, and comes out of an uploaded one only (a submitted file is the school's).
 */
export function fileMoves(row: ResourceRow, editable: boolean): { upload: boolean; remove: boolean } {
  if (!editable || row.refusal) return { upload: false, remove: false };
  const allowed = Array.isArray(row.allowed_actions) ? (row.allowed_actions as string[]) : null;
  if (allowed && (allowed.includes('upload_file') || allowed.includes('remove_file')))
    return { upload: allowed.includes('upload_file'), remove: allowed.includes('remove_file') };
  const status = String(row.status);
  return {
    upload: UPLOADABLE.has(status),
    remove: status === 'uploaded' && row.file_id !== null && row.file_id !== undefined,
  };
}

/** The moves this user may make on a row now: those of its `allowed_actions`. */
export function allowedMoves(row: ResourceRow, editable: boolean): Move[] {
  const allowed = Array.isArray(row.allowed_actions) ? (row.allowed_actions as string[]) : [];
  return editable ? MOVES.filter((move) => allowed.includes(move)) : [];
}

/** A phone or tablet: its camera is offered for a picture of a paper document. */
function touchScreen(): boolean {
  return typeof window !== 'undefined' && Boolean(window.matchMedia?.('(pointer: coarse)').matches);
}

export { ChecklistLegend } from './student-tags';

/**
 * An application's document checklist, under its form (`GET /api/applications/{id}/documents`): each row's state
 * as its one-letter code in its colour with the state's name (and a legend of the codes), the document, its file
 * (opened in the browser or downloaded), and — for whoever may change the student — the file's upload (checked
 * here first: the upload limit and the allowed types; a phone offers its camera too) and removal, and the moves
 * the row's `allowed_actions` allow: submit, and unsubmit, cancel and restore asked first. A refused move (409)
 * says why in the user's language and the checklist is read again. Every change reads the checklist and the
 * student's applications (their documents summary) again.
 */
export default function DocumentChecklist({
  application,
  studentId,
}: {
  application: ResourceRow;
  studentId: string | number;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const user = useAppSelector((s) => s.app.user);
  const maxMb = useAppSelector((s) => s.app.maxUploadSize);
  const path = `/api/applications/${application.id}/documents`;
  // the checklist, the student's applications and this one's record (their documents summary)
  const invalidates = [
    path,
    `/api/students/${studentId}/applications`,
    `/api/students/${studentId}/applications/${application.id}`,
  ];
  const {
    data,
    isLoading,
    error: loadError,
    refetch,
  } = useResourceListQuery({ path, params: { per_page: 100 } }, { refetchOnMountOrArgChange: true });
  const [act] = useResourceActionMutation();
  const [upload] = useFileFieldUploadMutation();
  const [removeFile] = useFileFieldDeleteMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const editable = can(user, 'students.update');
  const camera = touchScreen();

  const nameOf = (row: ResourceRow) => {
    const en = typeof row.name_en === 'string' ? row.name_en : '';
    const zh = typeof row.name_zh === 'string' ? row.name_zh : '';
    return (i18n.language === 'en' ? en || zh : zh || en) || `#${row.id}`;
  };
  const stateName = (status: unknown) =>
    t(`resources.application_document.states.${String(status)}`, { defaultValue: String(status) });

  /** One change of a row at a time; a failure says what and why, and the checklist is read again. */
  const run = async (row: ResourceRow, key: string, change: () => Promise<string>) => {
    setError(null);
    setBusy(`${row.id}:${key}`);
    try {
      void message.success(await change());
    } catch (failure) {
      if (!(isApiError(failure) && failure.handled))
        setError(
          t('students.checklist.refused', {
            name: nameOf(row),
            reason: key === 'upload' ? uploadFailureText(failure, maxMb, t) : deleteErrorMessage(failure, t),
          }),
        );
      void refetch();
    } finally {
      setBusy(null);
    }
  };

  const move = (row: ResourceRow, action: Move) =>
    run(row, action, async () => {
      const moved = await act({
        path: '/api/application-documents',
        id: row.id,
        action,
        invalidates,
      }).unwrap();
      return t('students.checklist.moved', { name: nameOf(row), state: stateName(moved?.status) });
    });

  const send = (row: ResourceRow, file: File) =>
    run(row, 'upload', async () => {
      await upload({ url: `/api/application-documents/${row.id}/file`, file, invalidates }).unwrap();
      return t('students.checklist.uploaded', { name: file.name });
    });

  const clear = (row: ResourceRow) =>
    run(row, 'remove', async () => {
      await removeFile({ url: `/api/application-documents/${row.id}/file`, invalidates }).unwrap();
      return t('students.checklist.fileRemoved');
    });

  /** Checks before sending (the shared upload checks): a refused file never leaves the browser. */
  const checked = (row: ResourceRow, file: File) => {
    const refusal = uploadRefusal(file, maxMb, t);
    if (refusal) {
      setError(t('students.checklist.refused', { name: file.name, reason: refusal }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const uploadControl = (row: ResourceRow, replace: boolean) => {
    const name = nameOf(row);
    const label = t(replace ? 'students.checklist.replace' : 'students.checklist.upload');
    return (
      <>
        <Upload
          accept={uploadAccept()}
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => checked(row, file)}
          customRequest={({ file }) => void send(row, file as File)}
        >
          <Button
            size="small"
            icon={<UploadOutlined />}
            loading={busy === `${row.id}:upload`}
            aria-label={`${label} ${name}`}
          >
            {label}
          </Button>
        </Upload>
        {camera && (
          <Upload
            accept={uploadAccept('image')}
            capture="environment"
            showUploadList={false}
            maxCount={1}
            beforeUpload={(file) => checked(row, file)}
            customRequest={({ file }) => void send(row, file as File)}
          >
            <Button
              size="small"
              icon={<CameraOutlined />}
              aria-label={`${t('students.checklist.takePhoto')} ${name}`}
            >
              {t('students.checklist.takePhoto')}
            </Button>
          </Upload>
        )}
      </>
    );
  };

  const rows = (data?.items ?? []) as ResourceRow[];
  const withActions =
    editable &&
    rows.some((row) => {
      const files = fileMoves(row, editable);
      return files.upload || files.remove || allowedMoves(row, editable).length > 0;
    });

  const columns: NonNullable<TableProps<ResourceRow>['columns']> = [
    {
      key: 'status',
      title: t('students.checklist.status'),
      render: (_v, row) => (
        <Space orientation="vertical" size={0}>
          <Space size={6} wrap={false}>
            <DocumentCodeTag status={row.status} />
            <span data-testid="document-state" style={{ whiteSpace: 'nowrap' }}>
              {isDocumentStatus(row.status) ? stateName(row.status) : ''}
            </span>
          </Space>
          {row.submitted_at ? (
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {t('students.checklist.submittedAt', {
                date: formatDateTime(row.submitted_at as string),
              })}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'document',
      title: t('students.checklist.document'),
      render: (_v, row) => (
        <Space size={4} wrap>
          <Typography.Text>{nameOf(row)}</Typography.Text>
          {Boolean(row.is_required) && <Tag>{t('students.checklist.required')}</Tag>}
          {/* its type, when the name does not say it already */}
          {typeof row.document_type_label === 'string' &&
            row.document_type_label &&
            row.document_type_label !== nameOf(row) && (
              <Typography.Text type="secondary">({row.document_type_label})</Typography.Text>
            )}
        </Space>
      ),
    },
    {
      key: 'file',
      title: t('students.checklist.file'),
      render: (_v, row) => {
        const id = Number(row.file_id);
        if (!row.file_id || !Number.isFinite(id))
          return <Typography.Text type="secondary">{t('students.checklist.noFile')}</Typography.Text>;
        const name = typeof row.file_name === 'string' && row.file_name ? row.file_name : String(id);
        return (
          <Space orientation="vertical" size={0}>
            <Space size={4} wrap={false}>
              <Typography.Link
                href={buildUrl(fileUrl(id), { inline: 1 })}
                target="_blank"
                rel="noopener"
                data-testid="document-file"
                title={t('students.checklist.preview')}
              >
                <FileOutlined /> {name}
              </Typography.Link>
              <Button
                size="small"
                type="text"
                icon={<DownloadOutlined />}
                href={fileUrl(id)}
                download={name}
                aria-label={`${t('students.checklist.download')} ${name}`}
                title={t('students.checklist.download')}
              />
            </Space>
            {row.uploaded_at ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('students.checklist.uploadedAt', { date: formatDateTime(row.uploaded_at as string) })}
              </Typography.Text>
            ) : null}
          </Space>
        );
      },
    },
  ];
  if (withActions)
    columns.push({
      key: 'actions',
      title: t('students.checklist.actions'),
      onHeaderCell: oneLineHeader,
      render: (_v, row) => {
        const name = nameOf(row);
        const files = fileMoves(row, editable);
        return (
          <Space size="small" wrap data-testid={`document-actions-${row.id}`}>
            {files.upload && uploadControl(row, Boolean(row.file_id))}
            {files.remove && row.file_id ? (
              <Popconfirm
                title={t('students.checklist.removeFileConfirm', {
                  name,
                  interpolation: { escapeValue: false },
                })}
                okText={t('students.checklist.removeFile')}
                cancelText={t('students.checklist.no')}
                okButtonProps={{ danger: true }}
                onConfirm={() => clear(row)}
              >
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  loading={busy === `${row.id}:remove`}
                  aria-label={`${t('students.checklist.removeFile')} ${name}`}
                >
                  {t('students.checklist.removeFile')}
                </Button>
              </Popconfirm>
            ) : null}
            {allowedMoves(row, editable).map((action) => {
              const label = t(`resources.application_document.actions.${action}`);
              const button = (
                <Button
                  key={action}
                  size="small"
                  type={action === 'submit' ? 'primary' : 'default'}
                  icon={MOVE_ICONS[action]}
                  loading={busy === `${row.id}:${action}`}
                  data-action={action}
                  aria-label={`${label} ${name}`}
                  onClick={CONFIRMED.has(action) ? undefined : () => void move(row, action)}
                >
                  {label}
                </Button>
              );
              return CONFIRMED.has(action) ? (
                <Popconfirm
                  key={action}
                  title={t(`students.checklist.confirm.${action}`, {
                    name,
                    interpolation: { escapeValue: false },
                  })}
                  okText={label}
                  cancelText={t('students.checklist.no')}
                  okButtonProps={{ danger: action === 'cancel' }}
                  onConfirm={() => move(row, action)}
                >
                  {button}
                </Popconfirm>
              ) : (
                button
              );
            })}
          </Space>
        );
      },
    });

  return (
    <section data-testid="document-checklist" style={{ marginTop: 32 }}>
      <Typography.Title level={4}>{t('students.checklist.title')}</Typography.Title>
      <ChecklistLegend />
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="checklist-error"
          title={error}
          closable
          onClose={() => setError(null)}
          style={{ marginBottom: 12 }}
        />
      )}
      {Boolean(loadError) && !(isApiError(loadError) && loadError.handled) && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('resource.loadFailed')}
          style={{ marginBottom: 12 }}
        />
      )}
      {withActions && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('students.checklist.uploadHelp', {
            types: UPLOAD_EXTENSIONS.map((e) => e.toUpperCase()).join(', '),
            max: maxMb,
          })}
        </Typography.Paragraph>
      )}
      <Table<ResourceRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: isLoading ? (
            <span data-testid="checklist-first-load" />
          ) : (
            <span data-testid="checklist-empty">{t('students.checklist.empty')}</span>
          ),
        }}
      />
    </section>
  );
}

import type { ReactNode } from 'react';
import {
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FileTextOutlined,
  FileWordOutlined,
  FileZipOutlined,
} from '@ant-design/icons';
import { Button, Popconfirm, Space, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router-dom';
import type { FileItem, FileKind, FileUse } from '../../../../shared/files';
import { sortOrderOf } from '../../components/resource/resource-query';
import { formatDateTime } from '../../i18n/date-time';
import { formatFileSize } from './files-api';
import { ACTIONS_COLUMN, oneLineHeader } from '../../components/resource/table-layout';

/**
 * The row pieces of a file list, shared by the media manager and an owner's attachments (one way to show a
 * file): its name with an icon by kind, its owner, kind, size, branch, uploader and time (Hong Kong), and the
 * actions preview, download and delete — delete confirmed, or disabled with the reason when the file is in
 * use or the user may not delete it.
 */

/** The owner types the media manager filters by (labels `files.owners.<type>`). */
export const FILE_OWNER_TYPES = [
  'school',
  'school_logo',
  'user',
  'student',
  'application',
  'application_document',
  'grade_report',
] as const;

/** The columns the server sorts by (`sort=original_name`, `-size_bytes` …; newest first by default). */
export const FILE_SORTS = ['original_name', 'size_bytes', 'created_at'] as const;

/** The columns' title keys; every column but the actions may be hidden (the toolbar's column settings). */
const COLUMN_TITLES = {
  original_name: 'files.columns.name',
  owner: 'files.columns.owner',
  kind: 'files.columns.kind',
  size_bytes: 'files.columns.size',
  branch: 'files.columns.branch',
  uploaded_by: 'files.columns.uploadedBy',
  created_at: 'files.columns.uploadedAt',
} as const;

/** The columns a user may hide, with their titles (the toolbar's column settings). */
export function fileColumnChoices(t: TFunction, withOwner: boolean): { key: string; title: string }[] {
  return Object.entries(COLUMN_TITLES)
    .filter(([key]) => withOwner || key !== 'owner')
    .map(([key, titleKey]) => ({ key, title: t(titleKey) }));
}

/** A file's icon by kind (the type detected from its content). */
export function FileKindIcon({ file }: { file: Pick<FileItem, 'kind' | 'mime_type'> }) {
  const icons: Record<FileKind, ReactNode> = {
    image: <FileImageOutlined />,
    pdf: <FilePdfOutlined />,
    document: <FileWordOutlined />,
    spreadsheet: <FileExcelOutlined />,
    other:
      file.mime_type === 'application/zip' ? (
        <FileZipOutlined />
      ) : file.mime_type.startsWith('text/') ? (
        <FileTextOutlined />
      ) : (
        <FileOutlined />
      ),
  };
  return (
    <span data-testid={`file-icon-${file.kind}`} aria-hidden>
      {icons[file.kind] ?? <FileOutlined />}
    </span>
  );
}

/** What uses a file, in words: "the logo of Korea University". */
export function fileUseText(use: FileUse, t: TFunction): string {
  const label = use.label ?? t('files.uses.unnamed');
  return t(`files.uses.${use.kind}`, { label, defaultValue: t('files.uses.other', { label }) });
}

/** Why a file cannot be deleted now, or null when it can. */
export function deleteRefusal(file: FileItem, t: TFunction): string | null {
  if (file.in_use) return t('files.inUse', { use: fileUseText(file.in_use, t) });
  if (!file.can_delete) return t('files.cannotDelete');
  return null;
}

export interface FileActionsProps {
  file: FileItem;
  onPreview: (file: FileItem) => void;
  onDelete: (file: FileItem) => void | Promise<void>;
  t: TFunction;
}

/** Preview (images and PDFs), download, delete. */
export function FileActions({ file, onPreview, onDelete, t }: FileActionsProps) {
  const name = file.original_name;
  const refusal = deleteRefusal(file, t);
  return (
    <Space size="small" wrap={false}>
      {/* images and PDFs only; others are downloaded (the button stays, disabled, so the columns line up) */}
      <Button
        size="small"
        icon={<EyeOutlined />}
        aria-label={`${t('files.preview')} ${name}`}
        disabled={!file.preview_url}
        title={file.preview_url ? undefined : t('files.noPreview')}
        onClick={() => onPreview(file)}
      >
        {t('files.preview')}
      </Button>
      <Button
        size="small"
        icon={<DownloadOutlined />}
        href={file.url}
        download={name}
        aria-label={`${t('files.download')} ${name}`}
      >
        {t('files.download')}
      </Button>
      {refusal === null ? (
        <Popconfirm
          title={t('files.deleteConfirm', { name })}
          okText={t('files.delete')}
          cancelText={t('resource.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => onDelete(file)}
        >
          <Button size="small" danger icon={<DeleteOutlined />} aria-label={`${t('files.delete')} ${name}`}>
            {t('files.delete')}
          </Button>
        </Popconfirm>
      ) : (
        // a disabled button has no pointer or focus events of its own: its wrapper carries the tooltip
        <Tooltip title={refusal} trigger={['hover', 'focus']}>
          <span
            tabIndex={0}
            data-testid="file-delete-refused"
            data-reason={refusal}
            aria-label={refusal}
            style={{ display: 'inline-block' }}
          >
            <Button
              size="small"
              danger
              disabled
              icon={<DeleteOutlined />}
              aria-label={`${t('files.delete')} ${name}`}
              style={{ pointerEvents: 'none' }}
            >
              {t('files.delete')}
            </Button>
          </span>
        </Tooltip>
      )}
    </Space>
  );
}

export interface FileColumnsOptions {
  t: TFunction;
  /** the list's `sort` query (`-created_at` …) */
  sort: string | undefined;
  /** the media manager shows whose file it is; an owner's attachments do not */
  withOwner: boolean;
  /** columns the user hid (the toolbar's column settings) */
  hidden?: readonly string[];
  onPreview: (file: FileItem) => void;
  onDelete: (file: FileItem) => void | Promise<void>;
}

/** The table columns of a file list; `key`s are the server's sort names where sortable. */
export function fileColumns({
  t,
  sort,
  withOwner,
  hidden = [],
  onPreview,
  onDelete,
}: FileColumnsOptions): TableColumnsType<FileItem> {
  const sortable = (key: (typeof FILE_SORTS)[number]) => ({
    sorter: true,
    sortOrder: sortOrderOf(sort, key),
  });
  const dash = (value: string | null) => value ?? '—';
  const columns: TableColumnsType<FileItem> = [
    {
      key: 'original_name',
      title: t(COLUMN_TITLES.original_name),
      ...sortable('original_name'),
      render: (_v, file) => (
        <Space size="small" data-testid="file-name">
          <FileKindIcon file={file} />
          <Typography.Text style={{ maxWidth: 360 }} ellipsis={{ tooltip: file.original_name }}>
            {file.original_name}
          </Typography.Text>
        </Space>
      ),
    },
  ];
  if (withOwner) {
    columns.push({
      key: 'owner',
      title: t(COLUMN_TITLES.owner),
      render: (_v, file) => {
        const type = t(`files.owners.${file.owner_type}`, { defaultValue: file.owner_type });
        const label = file.owner_label ?? t('files.ownerGone');
        return (
          <Space size={4} orientation="vertical" data-testid="file-owner">
            <Typography.Text type="secondary">{type}</Typography.Text>
            {file.owner_url && file.owner_label ? <Link to={file.owner_url}>{label}</Link> : label}
          </Space>
        );
      },
    });
  }
  columns.push(
    {
      key: 'kind',
      title: t(COLUMN_TITLES.kind),
      render: (_v, file) => t(`files.kinds.${file.kind}`),
    },
    {
      key: 'size_bytes',
      title: t(COLUMN_TITLES.size_bytes),
      align: 'right',
      ...sortable('size_bytes'),
      render: (_v, file) => <span style={{ whiteSpace: 'nowrap' }}>{formatFileSize(file.size_bytes)}</span>,
    },
    { key: 'branch', title: t(COLUMN_TITLES.branch), render: (_v, file) => dash(file.branch_name) },
    {
      key: 'uploaded_by',
      title: t(COLUMN_TITLES.uploaded_by),
      render: (_v, file) => dash(file.uploaded_by_name),
    },
    {
      key: 'created_at',
      title: t(COLUMN_TITLES.created_at),
      ...sortable('created_at'),
      render: (_v, file) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(file.created_at)}</span>,
    },
    {
      key: 'actions',
      title: t('resource.actions'),
      ...ACTIONS_COLUMN,
      render: (_v, file) => <FileActions file={file} onPreview={onPreview} onDelete={onDelete} t={t} />,
    },
  );
  return columns
    .filter((column) => !hidden.includes(String(column.key)))
    .map((column) => (column.onHeaderCell ? column : { ...column, onHeaderCell: oneLineHeader }));
}

import { useRef, useState, type ReactNode } from 'react';
import { Alert, App, Empty, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '../../../../shared/files';
import type { ListResponse } from '../../../../shared/list';
import { isApiError } from '../../app/api';
import { DEFAULT_TABLE_SETTINGS, type TableSettings } from '../../components/resource/resource-toolbar';
import { deleteErrorMessage } from '../../components/resource/resource-errors';
import {
  formatTotal,
  nextListQuery,
  PAGE_SIZE,
  PAGE_SIZES,
  sortQuery,
} from '../../components/resource/resource-query';
import type { ListQueryState } from '../../components/resource/types';
import { fileColumns } from './file-columns';
import { FilePreviewModal } from './file-preview';
import { useDeleteFileMutation } from './files-api';

export interface FileTableProps {
  /** the last answer of `GET /api/files` (its rows stay while the next one loads) */
  data: ListResponse<FileItem> | undefined;
  /** no answer yet: the table is blank rather than "no files" */
  firstLoad: boolean;
  /** the list's query (sort, page, per_page …): controlled */
  query: ListQueryState;
  onQueryChange: (next: ListQueryState) => void;
  /** the media manager shows whose file it is */
  withOwner: boolean;
  /** the empty state's words (no files at all, or none matching the filters) */
  emptyText: ReactNode;
  /** hidden columns and density (the toolbar's settings) */
  settings?: TableSettings;
}

/**
 * One page of files with paging and sorting (the query's `page`, `per_page`, `sort`), the preview modal and
 * the delete with its confirmation; a refused delete (409: the file came into use) is said above the table in
 * the user's language. Shared by the media manager and an owner's attachments.
 */
export function FileTable({
  data,
  firstLoad,
  query,
  onQueryChange,
  withOwner,
  emptyText,
  settings = DEFAULT_TABLE_SETTINGS,
}: FileTableProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [removeFile] = useDeleteFileMutation();
  const [preview, setPreview] = useState<FileItem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // antd's table keeps the handlers of an earlier render for sorting: read the query from here
  const latestQuery = useRef(query);
  latestQuery.current = query;

  const remove = async (file: FileItem) => {
    setNotice(null);
    const result = await removeFile(file.id);
    if (!result.error) {
      void message.success(t('files.deleted', { name: file.original_name }));
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    setNotice(deleteErrorMessage(result.error, t));
  };

  const change = (values: Record<string, string | number | null | undefined>) => {
    setNotice(null);
    onQueryChange(nextListQuery(latestQuery.current, values));
  };
  const size = Number(query.per_page) || PAGE_SIZE;

  return (
    <>
      {notice && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="file-notice"
          title={notice}
          closable
          onClose={() => setNotice(null)}
          style={{ marginBottom: 16 }}
        />
      )}
      <Table<FileItem>
        rowKey="id"
        size={settings.density}
        columns={fileColumns({
          t,
          sort: query.sort,
          withOwner,
          hidden: settings.hidden,
          onPreview: setPreview,
          onDelete: remove,
        })}
        dataSource={data?.items ?? []}
        locale={{
          emptyText: firstLoad ? (
            <span data-testid="files-first-load" />
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={<span data-testid="files-empty">{emptyText}</span>}
            />
          ),
        }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: data?.page ?? (Number(query.page) || 1),
          pageSize: data?.per_page ?? size,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) =>
            t('resource.toolbar.total', { total: formatTotal(total, data?.total_capped, i18n.language) }),
          hideOnSinglePage: false,
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            change({ sort: sortQuery(s?.columnKey as string | undefined, s?.order) });
          } else if (extra.action === 'paginate') {
            const nextSize = pagination.pageSize ?? size;
            if (nextSize !== size) change({ per_page: nextSize, page: null });
            else change({ page: pagination.current ?? 1 });
          }
        }}
      />
      <FilePreviewModal file={preview} onClose={() => setPreview(null)} />
    </>
  );
}

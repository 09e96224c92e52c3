import { useMemo, useRef, useState, type DragEvent, type HTMLAttributes, type ReactNode } from 'react';
import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tooltip,
  Typography,
  type TableProps,
} from 'antd';
import { useTranslation } from 'react-i18next';
import {
  Link,
  useLoaderData,
  useLocation,
  useNavigation,
  useParams,
  useRevalidator,
  useSearchParams,
} from 'react-router-dom';
import type { ListResponse } from '../../../../shared/list';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import type { RouteData } from '../../app/routes/route-data';
import { RecentRecordsButton, useRememberVisit } from './recent-records-button';
import { isInsufficientRights, recordAllows, refusalNote } from './record-access';
import { allIds, reorderIds } from './reorder';
import { deleteErrorMessage } from './resource-errors';
import { useLazyResourceReadQuery, useResourceWriteMutation } from './resource-api';
import { exportUrl, nextListQuery, PAGE_SIZE, sortOrderOf, sortQuery } from './resource-query';
import { resolvePath, type ListQueryState, type ResourceConfig, type ResourceRow } from './types';

type ListData<T> = RouteData & { items?: T[]; total?: number; page?: number; per_page?: number };

/** What the signed-in user may do with a resource's records. */
export function useResourcePermissions(config: Pick<ResourceConfig, 'module' | 'readOnly'>) {
  const user = useAppSelector((s) => s.app.user);
  const may = (action: string) => !config.readOnly && can(user, `${config.module}.${action}`);
  return { canCreate: may('create'), canUpdate: may('update'), canDelete: may('delete') };
}

/**
 * The generic list screen (architecture.md "Write CRUD once"): the route's data call gives one page of
 * `GET api?page&per_page=20&q&sort&…filters`; searching, filtering, sorting and paging change the URL's query,
 * which runs the data call again. Row actions follow the user's permissions and each record's
 * `allowed_actions` (a record out of the user's reach opens read-only, its delete disabled with the reason);
 * export links carry the current filter, search and sort with `format=xlsx|csv` and the screen's language
 * (`lang`, the file's headers). A delete the server refuses for lack of rights is explained in a message, and
 * the list is read again.
 */
export function ResourceListPage<T extends ResourceRow>({ config }: { config: ResourceConfig<T> }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const data = useLoaderData() as ListData<T>;
  const params = useParams();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [search, setSearch] = useSearchParams();
  const [write] = useResourceWriteMutation();
  const [readList] = useLazyResourceReadQuery();
  const [notice, setNotice] = useState<string | null>(null);
  const { canCreate, canUpdate, canDelete } = useResourcePermissions(config);

  const query: ListQueryState = useMemo(() => Object.fromEntries(search), [search]);
  // antd's table keeps the handlers of an earlier render for sorting: read the query from here.
  const latestSearch = useRef(search);
  latestSearch.current = search;
  const apiPath = resolvePath(config.apiPath, params);
  const routePath = resolvePath(config.routePath, params);
  const title = t(config.titleKey, config.titleValues?.(params, t));
  const loading =
    revalidator.state === 'loading' ||
    (navigation.state === 'loading' && navigation.location?.pathname === location.pathname);
  useRememberVisit(location.pathname, title, 'route');

  const reload = () => void revalidator.revalidate();
  const change = (values: Record<string, string | number | null | undefined>) => {
    setNotice(null);
    setSearch(nextListQuery(Object.fromEntries(latestSearch.current), values));
  };

  const remove = async (row: T) => {
    setNotice(null);
    try {
      await write({ url: `${apiPath}/${row.id}`, method: 'DELETE' }).unwrap();
      void message.success(t('resource.deleted'));
      reload();
    } catch (error) {
      const text = deleteErrorMessage(error, t, config.referencedHintKey);
      if (isInsufficientRights(error)) {
        // the record went out of the user's reach since the list was read: say why, show it as it is now
        void message.error({ content: <span data-testid="resource-refusal">{text}</span>, duration: 8 });
        reload();
      } else setNotice(text);
    }
  };

  const [dragged, setDragged] = useState<number | null>(null);
  const reorderable = Boolean(config.reorder) && canUpdate && !query.q && !query.sort;
  const drop = async (targetId: number) => {
    if (dragged === null || dragged === targetId) return;
    const moved = dragged;
    setDragged(null);
    try {
      // the server takes the whole list in its new order: a page or a filtered view is placed within it
      const whole = await allIds(
        (page) =>
          readList({ url: apiPath, params: { page, per_page: 100 } }).unwrap() as Promise<ListResponse<T>>,
      );
      const order = reorderIds(whole, moved, targetId);
      await write({ url: config.reorder!.url(params), method: 'PUT', body: { ids: order } }).unwrap();
      void message.success(t('resource.reordered'));
      reload();
    } catch (error) {
      setNotice(deleteErrorMessage(error, t));
    }
  };

  const rows = useMemo(() => {
    const items = data.items ?? [];
    if (!config.childrenOf) return items;
    const withChildren = (row: T): T => {
      const children = config.childrenOf?.(row);
      return (children?.length ? { ...row, children: children.map(withChildren) } : row) as T;
    };
    return items.map(withChildren);
  }, [data.items, config]);

  const columns: NonNullable<TableProps<T>['columns']> = config.columns.map((column) => ({
    key: column.key,
    dataIndex: column.key,
    title: t(column.titleKey),
    width: column.width,
    sorter: column.sortable ? true : undefined,
    sortOrder: column.sortable ? sortOrderOf(query.sort, column.key) : undefined,
    render: column.render
      ? (_value: unknown, row: T) => column.render?.(row, { t, language: i18n.language })
      : undefined,
  }));
  if (!config.readOnly || config.rowActions) {
    columns.push({
      key: 'actions',
      title: t('resource.actions'),
      width: 1,
      render: (_value: unknown, row: T) => {
        const name = config.recordTitle(row, i18n.language);
        const updatable = canUpdate && recordAllows(row, 'update');
        const holdsDelete = canDelete && (config.canDelete?.(row) ?? true);
        const deletable = holdsDelete && recordAllows(row, 'delete');
        return (
          <Space size="small" wrap={false}>
            {config.rowActions?.(row, { reload, t })}
            {!config.readOnly && (
              <Link
                to={`${routePath}/${row.id}`}
                aria-label={`${t(updatable ? 'resource.edit' : 'resource.view')} ${name}`}
              >
                <Button size="small" icon={updatable ? <EditOutlined /> : <EyeOutlined />}>
                  {t(updatable ? 'resource.edit' : 'resource.view')}
                </Button>
              </Link>
            )}
            {deletable && (
              <Popconfirm
                title={t('resource.deleteConfirm', { name })}
                okText={t('resource.delete')}
                cancelText={t('resource.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove(row)}
              >
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`${t('resource.delete')} ${name}`}
                >
                  {t('resource.delete')}
                </Button>
              </Popconfirm>
            )}
            {holdsDelete && !deletable && (
              // the permission is held, this record is out of reach: the button says why instead of failing
              // (a disabled button has no pointer or focus events of its own: its wrapper carries the tooltip)
              <Tooltip title={refusalNote(row, t)} trigger={['hover', 'focus']}>
                <span tabIndex={0} data-testid="resource-delete-refused" style={{ display: 'inline-block' }}>
                  <Button
                    size="small"
                    danger
                    disabled
                    icon={<DeleteOutlined />}
                    aria-label={`${t('resource.delete')} ${name}`}
                    style={{ pointerEvents: 'none' }}
                  >
                    {t('resource.delete')}
                  </Button>
                </span>
              </Tooltip>
            )}
          </Space>
        );
      },
    });
  }

  const filters: ReactNode[] = (config.filters ?? []).map((filter) => {
    const value = query[filter.name] ?? filter.defaultValue?.();
    const label = t(filter.labelKey);
    if (filter.type === 'select') {
      return (
        <Select
          key={filter.name}
          aria-label={label}
          data-testid={`filter-${filter.name}`}
          placeholder={label}
          allowClear={!filter.defaultValue}
          style={{ minWidth: 140 }}
          value={value}
          onChange={(v: string | undefined) => change({ [filter.name]: v })}
          options={(filter.options ?? []).map((o) => ({
            value: o.value,
            label: o.labelKey ? t(o.labelKey) : (o.label ?? o.value),
          }))}
        />
      );
    }
    return (
      <Input
        key={filter.name}
        aria-label={label}
        placeholder={label}
        type={filter.type === 'date' ? 'date' : filter.type === 'number' ? 'number' : 'text'}
        defaultValue={value}
        style={{ width: filter.type === 'date' ? 160 : 140 }}
        onBlur={(e) => change({ [filter.name]: e.target.value })}
        onPressEnter={(e) => change({ [filter.name]: (e.target as HTMLInputElement).value })}
      />
    );
  });

  return (
    <div className="resource-list" data-testid={`resource-list-${config.name}`}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Space wrap>
          <RecentRecordsButton />
          {config.toolbar?.({ reload, query, params })}
          {config.exportable && (
            <>
              <Button
                icon={<DownloadOutlined />}
                href={exportUrl(apiPath, query, 'xlsx', i18n.language)}
                download
              >
                {t('resource.exportXlsx')}
              </Button>
              <Button
                icon={<DownloadOutlined />}
                href={exportUrl(apiPath, query, 'csv', i18n.language)}
                download
              >
                {t('resource.exportCsv')}
              </Button>
            </>
          )}
          {canCreate && config.form && (
            <Link to={`${routePath}/create`}>
              <Button type="primary" icon={<PlusOutlined />} data-testid="resource-create">
                {t('resource.create')}
              </Button>
            </Link>
          )}
        </Space>
      </Space>
      {(config.searchable || filters.length > 0) && (
        <Space wrap style={{ marginBottom: 16 }}>
          {config.searchable && (
            <Input.Search
              key={`q:${query.q ?? ''}`}
              aria-label={t('resource.search')}
              placeholder={t('resource.search')}
              defaultValue={query.q}
              allowClear
              enterButton
              style={{ width: 280 }}
              onSearch={(q) => change({ q })}
            />
          )}
          {filters}
        </Space>
      )}
      {notice && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="resource-notice"
          title={notice}
          closable
          onClose={() => setNotice(null)}
          style={{ marginBottom: 16 }}
        />
      )}
      {reorderable && <Typography.Paragraph type="secondary">{t('resource.dragHint')}</Typography.Paragraph>}
      {config.listBody ? (
        config.listBody({ rows, reload, canUpdate })
      ) : (
        <Table<T>
          rowKey="id"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          scroll={{ x: 'max-content' }}
          onRow={
            reorderable
              ? (row) =>
                  ({
                    draggable: true,
                    'data-row-id': row.id,
                    style: { cursor: 'move' },
                    onDragStart: () => setDragged(row.id),
                    onDragOver: (e: DragEvent) => e.preventDefault(),
                    onDrop: (e: DragEvent) => {
                      e.preventDefault();
                      void drop(row.id);
                    },
                  }) as HTMLAttributes<HTMLElement>
              : undefined
          }
          pagination={{
            current: data.page ?? 1,
            pageSize: data.per_page ?? PAGE_SIZE,
            total: data.total ?? rows.length,
            showSizeChanger: false,
            hideOnSinglePage: false,
          }}
          onChange={(pagination, _filters, sorter, extra) => {
            if (extra.action === 'sort') {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              change({ sort: sortQuery(s?.columnKey as string | undefined, s?.order) });
            } else if (extra.action === 'paginate') {
              change({ page: pagination.current ?? 1 });
            }
          }}
        />
      )}
    </div>
  );
}

/** A screen's default export: `export default resourceListScreen(holidayConfig)`. */
export function resourceListScreen<T extends ResourceRow>(config: ResourceConfig<T>) {
  return function ResourceListScreen() {
    return <ResourceListPage config={config} />;
  };
}

import { useMemo, useRef, useState, type DragEvent, type HTMLAttributes, type ReactNode } from 'react';
import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tooltip,
  Typography,
  type TableProps,
} from 'antd';
import { ACTIONS_COLUMN, oneLineHeader } from './table-layout';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { ListResponse } from '../../../../shared/list';
import { isApiError } from '../../app/api';
import { isInsufficientRights, recordAllows, refusalNote } from './record-access';
import { allIds, reorderIds } from './reorder';
import {
  useLazyResourceReadQuery,
  useResourceDeleteMutation,
  useResourceListQuery,
  useResourceWriteMutation,
} from './resource-api';
import { deleteErrorMessage } from './resource-errors';
import { SearchBox, useTypedQueryValue } from './search-box';
import {
  exportUrl,
  formatTotal,
  listCallQuery,
  nextListQuery,
  PAGE_SIZE,
  PAGE_SIZES,
  refusedQuery,
  resetListQuery,
  sortOrderOf,
  sortQuery,
} from './resource-query';
import { ResourceToolbar, useTableSettings } from './resource-toolbar';
import { useResourcePermissions } from './resource-permissions';

export { useResourcePermissions };
import { DateFilter } from './date-filter';
import { firstLoadLocale } from '../first-load';
import { ImportButton } from './import-modal';
import { resolvePath, type ListQueryState, type ResourceConfig, type ResourceRow } from './types';
import { ButtonLink } from '../layout/button-link';
import { PageTotalsSummary } from './page-totals';
import { MoveButton } from './move-button';

export interface ResourceTableProps<T extends ResourceRow> {
  config: ResourceConfig<T>;
  /** the list's query (search, filters, sort, page, per_page): controlled */
  query: ListQueryState;
  onQueryChange: (next: ListQueryState) => void;
  /** the collection, when not the config's (a child list: `/api/schools/5/subjects`) */
  apiPath?: string;
  /** parameters sent with every call and export, not part of the query (a parent's id …) */
  fixedParams?: ListQueryState;
  /** where the records open (`${routePath}/${id}`, `${routePath}/create`), when not the config's */
  routePath?: string;
  /** the toolbar's left side (the page's title); none when embedded */
  title?: ReactNode;
  /** more buttons at the start of the toolbar's right side */
  extra?: ReactNode;
}

/**
 * The generic list (architecture.md "Write CRUD once"), embeddable anywhere: one page of
 * `GET api?page&per_page&q&sort&…filters` through RTK Query (tagged by the API path, so a save elsewhere
 * reads it again); the query is the caller's (the list page binds it to the URL, a record's tab keeps it in
 * state). Toolbar: the list's buttons (create, export XLSX/CSV of the current filter in the screen's
 * language), reset filters, refresh, density and column settings (remembered per user and list); the
 * pagination says the total and changes the page size. Row actions follow the user's permissions and each
 * record's `allowed_actions`. Loading shows on the app's top progress bar only (rows of the last answer stay
 * until the next one arrives).
 */
export function ResourceTable<T extends ResourceRow>({
  config,
  query,
  onQueryChange,
  apiPath: apiPathProp,
  fixedParams,
  routePath: routePathProp,
  title,
  extra,
}: ResourceTableProps<T>) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const params = useParams();
  const [removeRecord] = useResourceDeleteMutation();
  const [write] = useResourceWriteMutation();
  const [readList] = useLazyResourceReadQuery();
  const [notice, setNotice] = useState<string | null>(null);
  const [settings, setSettings] = useTableSettings(config.name);
  const { canCreate, canUpdate, canDelete } = useResourcePermissions(config);

  const apiPath = apiPathProp ?? resolvePath(config.apiPath, params);
  // where the records open (a record page with tabs: `/schools/basic/5`)
  const routePath = routePathProp ?? resolvePath(config.recordPath ?? config.routePath, params);
  // antd's table keeps the handlers of an earlier render for sorting: read the query from here.
  const latestQuery = useRef(query);
  latestQuery.current = query;

  const defaults = useMemo(() => {
    const out: ListQueryState = {};
    for (const filter of config.filters ?? []) {
      const value = filter.defaultValue?.();
      if (value) out[filter.name] = value;
    }
    return out;
  }, [config.filters]);
  const callQuery = listCallQuery(query, defaults, fixedParams);
  const { data, isLoading, isFetching, error, refetch } = useResourceListQuery(
    { path: apiPath, params: callQuery },
    { refetchOnMountOrArgChange: true },
  );
  // a query the server refuses is said beside its control (the last rows stay on show); any other failure above
  const refused = refusedQuery(error, t);
  const loadFailed = Boolean(error) && !refused && !(isApiError(error) && error.handled);
  const controls = new Set([
    ...(config.searchable ? ['q'] : []),
    ...(config.filters ?? []).map((f) => f.name),
  ]);
  const otherRefusals = Object.entries(refused ?? {})
    .filter(([name]) => !controls.has(name))
    .map(([, text]) => text);
  const beside = (name: string, control: ReactNode) =>
    refused?.[name] ? (
      <Form.Item
        key={name}
        validateStatus="error"
        help={
          <span role="alert" data-testid={`query-refused-${name}`}>
            {refused[name]}
          </span>
        }
        style={{ marginBottom: 0 }}
      >
        {control}
      </Form.Item>
    ) : (
      control
    );

  const reload = () => void refetch();
  const change = (values: Record<string, string | number | null | undefined>) => {
    setNotice(null);
    // a filter narrowed by one just changed (a district by its area) no longer holds
    const narrowed: Record<string, null> = {};
    for (const filter of config.filters ?? [])
      if (filter.narrowedBy && filter.narrowedBy in values && !(filter.name in values))
        narrowed[filter.name] = null;
    onQueryChange(nextListQuery(latestQuery.current, { ...values, ...narrowed }));
  };

  const remove = async (row: T) => {
    setNotice(null);
    try {
      // the list is read again by its tag
      await removeRecord({ path: apiPath, id: row.id }).unwrap();
      void message.success(t('resource.deleted'));
    } catch (failure) {
      const text = deleteErrorMessage(failure, t, config.referencedHintKey);
      if (isInsufficientRights(failure)) {
        // the record went out of the user's reach since the list was read: say why, show it as it is now
        void message.error({ content: <span data-testid="resource-refusal">{text}</span>, duration: 8 });
        reload();
      } else setNotice(text);
    }
  };

  // a move reads again the list and the record it is listed under
  const parentPath = apiPath.split('/').filter(Boolean);
  const moveInvalidates = [
    apiPath,
    ...(parentPath.length >= 4 ? [`/${parentPath.slice(0, -1).join('/')}`] : []),
  ];

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
          readList({ url: apiPath, params: { ...fixedParams, page, per_page: 100 } }).unwrap() as Promise<
            ListResponse<T>
          >,
      );
      const order = reorderIds(whole, moved, targetId);
      await write({ url: config.reorder!.url(params), method: 'PUT', body: { ids: order } }).unwrap();
      void message.success(t('resource.reordered'));
      reload();
    } catch (failure) {
      setNotice(deleteErrorMessage(failure, t));
    }
  };

  const rows = useMemo(() => {
    const items = (data?.items ?? []) as T[];
    if (!config.childrenOf) return items;
    const withChildren = (row: T): T => {
      const children = config.childrenOf?.(row);
      return (children?.length ? { ...row, children: children.map(withChildren) } : row) as T;
    };
    return items.map(withChildren);
  }, [data?.items, config]);

  const shown = config.columns.filter((column) => !settings.hidden.includes(column.key));
  const columns: NonNullable<TableProps<T>['columns']> = shown.map((column) => ({
    key: column.key,
    dataIndex: column.key,
    title: t(column.titleKey),
    width: column.width,
    onHeaderCell: oneLineHeader,
    sorter: column.sortable ? true : undefined,
    sortOrder: column.sortable ? sortOrderOf(query.sort, column.key) : undefined,
    render: column.render
      ? (_value: unknown, row: T) => column.render?.(row, { t, language: i18n.language })
      : undefined,
  }));
  if (!config.readOnly || config.rowActions || config.moves) {
    columns.push({
      key: 'actions',
      title: t('resource.actions'),
      ...ACTIONS_COLUMN,
      render: (_value: unknown, row: T) => {
        const name = config.recordTitle(row, i18n.language);
        const updatable = canUpdate && recordAllows(row, 'update');
        const holdsDelete = canDelete && (config.canDelete?.(row) ?? true);
        const deletable = holdsDelete && recordAllows(row, 'delete');
        return (
          <Space size="small" wrap={false}>
            {config.rowActions?.(row, { reload, t })}
            {config.moves?.actions
              .filter((action) => recordAllows(row, action) && Array.isArray(row.allowed_actions))
              .map((action) => (
                <MoveButton
                  key={action}
                  resource={config.name}
                  apiPath={config.moves!.apiPath}
                  id={row.id}
                  action={action}
                  declared={config.moves!.declared?.[action]}
                  recordName={name}
                  invalidates={moveInvalidates}
                  onFailed={(text) => {
                    setNotice(text);
                    reload();
                  }}
                />
              ))}
            {!config.readOnly && (
              // one element, a link shaped as a button (never a button inside a link)
              <ButtonLink
                to={`${routePath}/${row.id}`}
                size="small"
                icon={updatable ? <EditOutlined /> : <EyeOutlined />}
                aria-label={`${t(updatable ? 'resource.edit' : 'resource.view')} ${name}`}
              >
                {t(updatable ? 'resource.edit' : 'resource.view')}
              </ButtonLink>
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

  const filterControls: ReactNode[] = (config.filters ?? []).map((filter) => {
    const value = query[filter.name] ?? filter.defaultValue?.();
    // the two ends of a declared date range say which end they are ("Date: from", "Date: to")
    const label = filter.rangeEnd
      ? t(filter.rangeEnd === 'from' ? 'common.rangeFrom' : 'common.rangeTo', { label: t(filter.labelKey) })
      : t(filter.labelKey);
    if (filter.type === 'custom' && filter.render) {
      return (
        <span key={filter.name} data-testid={`filter-${filter.name}`}>
          {filter.render({ value, label, query, onChange: (v) => change({ [filter.name]: v }) })}
        </span>
      );
    }
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
    if (filter.type === 'date')
      return (
        <span key={filter.name} data-testid={`filter-${filter.name}`}>
          <DateFilter
            name={filter.name}
            label={label}
            value={value}
            query={query}
            onChange={(v) => change({ [filter.name]: v })}
          />
        </span>
      );
    return (
      <FilterInput
        key={filter.name}
        label={label}
        type={filter.type === 'number' ? 'number' : 'text'}
        value={value}
        onCommit={(text) => change({ [filter.name]: text })}
      />
    );
  });

  const filters = filterControls.map((control, i) => beside(config.filters![i].name, control));

  const exportQuery = { ...defaults, ...query, ...fixedParams };
  const actions = (
    <>
      {extra}
      {config.toolbar?.({ reload, query, params })}
      {config.importable && !config.readOnly && (
        <ImportButton apiPath={apiPath} module={config.module} onImported={() => reload()} />
      )}
      {config.exportable && (
        <>
          <Button
            icon={<DownloadOutlined />}
            href={exportUrl(apiPath, exportQuery, 'xlsx', i18n.language)}
            download
          >
            {t('resource.exportXlsx')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            href={exportUrl(apiPath, exportQuery, 'csv', i18n.language)}
            download
          >
            {t('resource.exportCsv')}
          </Button>
        </>
      )}
      {canCreate && config.form && (
        <ButtonLink
          to={(!routePathProp && config.createPath) || `${routePath}/create`}
          type="primary"
          icon={<PlusOutlined />}
          data-testid="resource-create"
        >
          {t('resource.create')}
        </ButtonLink>
      )}
    </>
  );
  const filtered = Object.keys(resetListQuery(query)).length !== Object.keys(query).length;
  const size = Number(query.per_page) || PAGE_SIZE;

  return (
    <div className="resource-list" data-testid={`resource-list-${config.name}`} aria-busy={isFetching}>
      <ResourceToolbar
        title={title}
        actions={actions}
        columns={config.columns.map((c) => ({ key: c.key, title: t(c.titleKey) }))}
        settings={settings}
        onSettingsChange={setSettings}
        onRefresh={reload}
        onReset={() => {
          setNotice(null);
          onQueryChange(resetListQuery(latestQuery.current));
        }}
        filtered={filtered}
      />
      {(config.searchable || filters.length > 0) && (
        <Space wrap align="start" style={{ marginBottom: 16 }}>
          {config.searchable &&
            beside(
              'q',
              <SearchBox value={query.q} label={t('resource.search')} onSearch={(q) => change({ q })} />,
            )}
          {filters}
        </Space>
      )}
      {loadFailed && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="resource-load-failed"
          title={t('resource.loadFailed')}
          style={{ marginBottom: 16 }}
        />
      )}
      {otherRefusals.length > 0 && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="resource-query-refused"
          title={otherRefusals.join(' ')}
          style={{ marginBottom: 16 }}
        />
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
          size={settings.density}
          // no spinner: the top progress bar shows a slow answer; until the first one, a skeleton of rows
          columns={columns}
          dataSource={rows}
          locale={firstLoadLocale(isLoading)}
          // the header stays in view as a long page scrolls
          sticky
          scroll={{ x: 'max-content' }}
          summary={
            config.pageTotals
              ? () => (
                  <PageTotalsSummary
                    rows={rows}
                    columns={columns.map((c) => String(c.key))}
                    fields={config.pageTotals!.fields}
                    currencyField={config.pageTotals!.currency}
                  />
                )
              : undefined
          }
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
            current: data?.page ?? (Number(query.page) || 1),
            pageSize: data?.per_page ?? size,
            total: data?.total ?? rows.length,
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
      )}
    </div>
  );
}

/** A typed filter (committed on Enter or on leaving it); what is typed is kept as `useTypedQueryValue` says. */
function FilterInput({
  label,
  type,
  value,
  onCommit,
}: {
  label: string;
  type: 'number' | 'text';
  value: string | undefined;
  onCommit: (text: string) => void;
}) {
  const { text, setText, sent } = useTypedQueryValue(value);
  const commit = (next: string) => {
    sent(next);
    onCommit(next);
  };
  return (
    <Input
      aria-label={label}
      placeholder={label}
      type={type}
      value={text}
      style={{ width: 140 }}
      onChange={(e) => setText(e.target.value)}
      onBlur={(e) => commit(e.target.value)}
      onPressEnter={(e) => commit((e.target as HTMLInputElement).value)}
    />
  );
}

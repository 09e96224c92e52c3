import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { generatePath, matchPath, useLocation, useNavigate, useParams } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import { PageHeader } from '../layout/page-header';
import { useScreenTitle } from '../layout/use-document-title';
import { useRememberVisit } from './recent-records-button';
import { useResourceRecordQuery } from './resource-api';
import { ResourceForm } from './resource-form-page';
import type { ResourceTableProps } from './resource-table';
import { resolvePath, type ListQueryState, type ResourceConfig, type ResourceRow } from './types';

/** What a tab's content gets besides the record. */
export interface RecordTabContext {
  /** the record's id, from the path */
  id: string;
  /** the tab shown */
  tab: string;
  /** the resource's collection (`/api/schools`): a child list is `${apiPath}/${id}/subjects` */
  apiPath: string;
  /** the resource's list screen */
  routePath: string;
  /** this tab's own path (`/schools/admission/5`) */
  tabPath: string;
  /**
   * the path after the record's id, when there is one: a tab opening records of its own
   * (`/schools/admission/5/create`, `/schools/admission/5/12`: `create`, `12`; a tab listing several children,
   * `/students/family/5/member/12`: `member/12`)
   */
  sub?: string;
  /** read the record again */
  reload: () => void;
}

/** One tab of a record page: a path segment (`/schools/{key}/:id`) and what it shows. */
export interface RecordTab<T extends ResourceRow = ResourceRow> {
  key: string;
  /** the tab's path segment when not its key (spec `/students/invoice/:id` for the tab `order`) */
  segment?: string;
  labelKey: string;
  /** the tab's content, from the record as `GET api/{id}?tab={key}` answers it */
  render: (record: T, ctx: RecordTabContext) => ReactNode;
  /** a permission the tab needs beyond viewing the record (the tab is left out without it) */
  permission?: string;
}

export interface ResourceRecordPageProps<T extends ResourceRow> {
  /** the resource: its API path, list screen, title and module */
  config: ResourceConfig<T>;
  /** the tabs' path before the tab segment, e.g. `/schools` (a pattern: `/settings/option/:key` works) */
  base: string;
  tabs: RecordTab<T>[];
  /** the record's actions beside its title (state moves, print, e-mail), from the shown tab's answer */
  actions?: (record: T, ctx: RecordTabContext) => ReactNode;
}

/** The path of a record's tab: `${base}/${tab}/${id}` (the base's own params filled from `params`). */
export function recordTabPath(base: string, tab: string, params: Record<string, string | undefined>): string {
  return generatePath(`${base}/${tab}/:id` as string, params as { id: string });
}

/**
 * A record's page whose tabs are path segments (`/schools/basic/5`, `/schools/subject/5`): switching tabs
 * is a navigation (back and forward move between tabs, a tab can be linked to); each tab reads the record
 * as `GET api/{id}?tab={key}` through RTK Query, so a save anywhere that touches the record shows here.
 * A tab is the record's form (`formTab`), an embedded list of a child resource (`childTableTab`), or
 * anything its `render` returns. Until a tab's answer arrives its content is blank; the top progress bar
 * shows a slow one.
 */
export function ResourceRecordPage<T extends ResourceRow>({
  config,
  base,
  tabs,
  actions,
}: ResourceRecordPageProps<T>) {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.app.user);
  const id = params.id ?? '';
  const visible = tabs.filter((tab) => !tab.permission || can(user, tab.permission));
  // a tab's path, or one under it (a record the tab opens: `/schools/admission/5/12`)
  const segmentOf = (tab: RecordTab<T>) => tab.segment ?? tab.key;
  const active =
    visible.find((tab) =>
      matchPath({ path: `${base}/${segmentOf(tab)}/:id`, end: false }, location.pathname),
    ) ?? visible[0];
  const sub =
    (active
      ? matchPath({ path: `${base}/${segmentOf(active)}/:id/*`, end: true }, location.pathname)?.params['*']
      : undefined) || undefined;
  const apiPath = resolvePath(config.apiPath, params);
  const routePath = resolvePath(config.routePath, params);
  const { data, currentData, refetch } = useResourceRecordQuery(
    { path: apiPath, id, tab: active?.key },
    { refetchOnMountOrArgChange: true, skip: !id || !active },
  );
  const record = (data ?? null) as T | null;
  const listTitle = t(config.titleKey, config.titleValues?.(params, t));
  useScreenTitle(listTitle);
  const recordName = record ? config.recordTitle(record, i18n.language) : null;
  useRememberVisit(
    location.pathname,
    record && recordName
      ? (lt, lng) =>
          `${lt(config.titleKey, config.titleValues?.(params, lt))} · ${config.recordTitle(record, lng)}`
      : null,
    'record',
  );

  const ctx: RecordTabContext = {
    id,
    tab: active?.key ?? '',
    apiPath,
    routePath,
    tabPath: active ? recordTabPath(base, segmentOf(active), params) : routePath,
    ...(sub ? { sub } : {}),
    reload: () => void refetch(),
  };
  return (
    <div className="resource-record" data-testid={`resource-record-${config.name}`}>
      <PageHeader
        title={recordName ?? '\u00a0'}
        extra={actions && currentData ? actions(currentData as T, ctx) : undefined}
        crumbs={[
          { title: listTitle, to: routePath },
          {
            title: recordName ?? '',
            // away from its first tab (a record a tab opened), the record's name leads back to it
            to:
              recordName && visible[0] && (sub || active !== visible[0])
                ? recordTabPath(base, segmentOf(visible[0]), params)
                : undefined,
          },
        ]}
      />
      <Tabs
        // a student's ten tabs side by side at 1280 px in English: antd's 32 px between tabs pushed the last ones
        // into an overflow menu, whose button sits inside the tab list (axe: aria-required-children, critical)
        tabBarGutter={20}
        activeKey={active?.key}
        onChange={(key) => {
          const tab = visible.find((v) => v.key === key);
          navigate(recordTabPath(base, tab ? segmentOf(tab) : key, params));
        }}
        items={visible.map((tab) => ({
          key: tab.key,
          label: t(tab.labelKey),
          // only the tab shown is rendered, from its own answer
          children: tab.key === active?.key && currentData ? tab.render(currentData as T, ctx) : null,
        }))}
      />
    </div>
  );
}

/** The record's form as a tab (the first, `basic`, by the spec's routes): a save stays on the record. */
export function formTab<T extends ResourceRow>(
  config: ResourceConfig<T>,
  tab: { key?: string; labelKey?: string } = {},
): RecordTab<T> {
  return {
    key: tab.key ?? 'basic',
    labelKey: tab.labelKey ?? 'resource.details',
    render: (record, ctx) => <RecordFormTab config={config} record={record} ctx={ctx} />,
  };
}

function RecordFormTab<T extends ResourceRow>({
  config,
  record,
  ctx,
}: {
  config: ResourceConfig<T>;
  record: T;
  ctx: RecordTabContext;
}) {
  const navigate = useNavigate();
  return (
    <ResourceForm
      config={config}
      data={record}
      id={ctx.id}
      apiPath={ctx.apiPath}
      routePath={ctx.routePath}
      // the record is read again by its tag: the form shows what was saved
      onSaved={() => undefined}
      onDeleted={() => navigate(ctx.routePath)}
      onRefused={ctx.reload}
    />
  );
}

/** A list of a child resource as a tab: `GET ${apiPath}/${id}/${child}`, its query kept in the tab. */
export function childTableTab<C extends ResourceRow, T extends ResourceRow = ResourceRow>(o: {
  key: string;
  labelKey: string;
  /** the child resource's config (columns, form, module) */
  config: ResourceConfig<C>;
  /** the child collection's segment under the record (`subjects` → `/api/schools/5/subjects`) */
  child: string;
  /** where the child records open, when not the child config's */
  routePath?: (ctx: RecordTabContext) => string;
  permission?: string;
}): RecordTab<T> {
  return {
    key: o.key,
    labelKey: o.labelKey,
    permission: o.permission,
    render: (_record, ctx) => (
      <EmbeddedResourceTable
        config={o.config}
        apiPath={`${ctx.apiPath}/${ctx.id}/${o.child}`}
        routePath={o.routePath?.(ctx)}
      />
    ),
  };
}

/**
 * The generic list, loaded when a tab shows one: a record page opens on its form, and its list tabs (their
 * toolbar, import and export) come with the first of them.
 */
const LazyResourceTable = lazy(async () => ({
  default: (await import('./resource-table')).ResourceTable as ComponentType<ResourceTableProps<ResourceRow>>,
}));

/** A `ResourceTable` whose query lives in the component (a record's tab, a dialog): not in the URL. */
export function EmbeddedResourceTable<T extends ResourceRow>({
  config,
  apiPath,
  routePath,
  fixedParams,
  initialQuery = {},
}: {
  config: ResourceConfig<T>;
  apiPath?: string;
  routePath?: string;
  fixedParams?: ListQueryState;
  initialQuery?: ListQueryState;
}) {
  const [query, setQuery] = useState<ListQueryState>(initialQuery);
  return (
    <Suspense fallback={null}>
      <LazyResourceTable
        config={config as unknown as ResourceConfig}
        query={query}
        onQueryChange={setQuery}
        apiPath={apiPath}
        routePath={routePath}
        fixedParams={fixedParams}
      />
    </Suspense>
  );
}

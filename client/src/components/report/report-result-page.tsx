import { useMemo, type ReactNode } from 'react';
import { EditOutlined } from '@ant-design/icons';
import { Alert, Descriptions, Select, Table, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import {
  REPORT_EXPORT_PERMISSION,
  reportKeys,
  viewColumns,
  viewOf,
  type ReportDefinition,
} from '../../../../shared/reports/definition';
import { useAppSelector } from '../../app/hooks';
import { isApiError } from '../../app/api';
import { formatDateTime } from '../../i18n/date-time';
import { firstLoadLocale } from '../first-load';
import { ButtonLink } from '../layout/button-link';
import { PageHeader } from '../layout/page-header';
import { useScreenTitle } from '../layout/use-document-title';
import { useRememberVisit } from '../resource/recent-records-button';
import { formatMoney, numberLocale } from '../resource/renderers';
import {
  formatTotal,
  nextListQuery,
  PAGE_SIZE,
  PAGE_SIZES,
  refusedQuery,
  sortOrderOf,
  sortQuery,
} from '../resource/resource-query';
import { ResourceToolbar, useTableSettings } from '../resource/resource-toolbar';
import { ExportButtons } from './export-buttons';
import { useReportResultQuery, type ReportAnswer } from './report-api';
import { criteriaOnly, criteriaPath, reportFileUrl, reportQueryOf } from './report-query';

type Row = Record<string, unknown>;

const DETAIL = 'detail';

/** A cell of a column as its type reads: money with its currency, a count with separators, a link to its record. */
function cellOf(def: ReportDefinition, column: string, row: Row, language: string): ReactNode {
  const declared = def.columns[column];
  const value = row[column];
  if (value === null || value === undefined || value === '') return '';
  let text: string;
  switch (declared.type) {
    case 'money':
      text = formatMoney(Number(value), row[declared.currency ?? ''] as string | null, language);
      break;
    case 'integer':
      text = new Intl.NumberFormat(numberLocale(language)).format(Number(value));
      break;
    case 'datetime':
      text = formatDateTime(String(value));
      break;
    default:
      text = String(value);
  }
  const to = declared.link ? row[declared.link] : null;
  return typeof to === 'string' && to ? <Link to={to}>{text}</Link> : text;
}

/** A total row's cell: a totalled column's sum (money in the row's currency), else nothing. */
function totalCell(
  def: ReportDefinition,
  column: string,
  total: ReportAnswer['totals'][number],
  language: string,
) {
  const declared = def.columns[column];
  const value = total[column];
  if (value === undefined || value === null) return '';
  if (declared.type === 'money') return formatMoney(Number(value), total.currency, language);
  return new Intl.NumberFormat(numberLocale(language)).format(Number(value));
}

/**
 * A report's result screen (`${route}-result`): the criteria are its address (bookmarked or shared, it runs again;
 * paging and sort are in it too), summarised under the title with "Change criteria" back to the criteria screen;
 * a ProTable-like list of the rows — the lists' toolbar (density, columns, refresh), their paging and sort — with a
 * total row per currency under them; the grouping can be changed in place; files of every row with their progress
 * and a cancel (`reports.export`).
 */
export function ReportResultPage({ def }: { def: ReportDefinition }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const user = useAppSelector((s) => s.app.user);
  const [search, setSearch] = useSearchParams();
  const query = useMemo(() => reportQueryOf(def, search), [def, search]);
  const criteria = criteriaOnly(def, query);
  const view = viewOf(def, query.group_by);
  const columns = viewColumns(def, view);
  const title = t(reportKeys.title(def));
  useScreenTitle(`${title} – ${t('report.result')}`);
  useRememberVisit(
    `${location.pathname}${location.search}`,
    (lt) => `${lt(reportKeys.title(def))} – ${lt('report.result')}`,
    'route',
  );
  const [settings, setSettings] = useTableSettings(`report-${def.name}-${view}`);
  const { data, error, isLoading, isFetching, refetch } = useReportResultQuery(
    { path: `/api${def.api}`, params: query },
    { refetchOnMountOrArgChange: true },
  );
  const refused = refusedQuery(error, t);
  const failed = Boolean(error) && !refused && !(isApiError(error) && error.handled);
  const change = (values: Record<string, string | number | null | undefined>) =>
    setSearch(nextListQuery(query, values));
  const sortable = new Set(view === DETAIL ? (def.sortable ?? []) : columns);
  const shown = columns.filter((c) => !settings.hidden.includes(c));
  const language = i18n.language;

  const tableColumns: NonNullable<TableProps<Row>['columns']> = shown.map((column) => ({
    key: column,
    dataIndex: column,
    title: t(reportKeys.column(def, column)),
    align: ['integer', 'money'].includes(def.columns[column].type) ? ('right' as const) : undefined,
    sorter: sortable.has(column) ? true : undefined,
    sortOrder: sortable.has(column) ? sortOrderOf(query.sort, column) : undefined,
    render: (_value: unknown, row: Row) => cellOf(def, column, row, language),
  }));

  // the criteria as read: each range's days (a preset resolved), each record and option by its name
  const summary: { key: string; label: string; children: ReactNode }[] = [];
  for (const [name, criterion] of Object.entries(def.criteria)) {
    const label = t(reportKeys.criterion(def, name));
    if (criterion.type === 'dateRange') {
      const range = data?.ranges[name];
      if (!range || (!range.from && !range.to)) continue;
      const preset = range.preset
        ? t('report.presetNamed', { preset: t(reportKeys.preset(range.preset)) })
        : '';
      summary.push({ key: name, label, children: `${range.from ?? '…'} – ${range.to ?? '…'}${preset}` });
    } else if (data?.names[name]) summary.push({ key: name, label, children: data.names[name] });
  }

  const groupChoices = [
    ...(def.detail ? [{ value: DETAIL, label: t('report.detail') }] : []),
    ...Object.keys(def.groupings ?? {}).map((g) => ({ value: g, label: t(reportKeys.grouping(def, g)) })),
  ];
  const groupPicker =
    groupChoices.length > 1 ? (
      <Select
        aria-label={t('report.groupBy')}
        data-testid="report-group-by"
        style={{ minWidth: 200 }}
        value={view}
        onChange={(value: string) => change({ group_by: value === DETAIL ? null : value, sort: null })}
        options={groupChoices}
      />
    ) : null;

  const size = Number(query.per_page) || PAGE_SIZE;
  const totals = data?.totals ?? [];
  return (
    <div data-testid={`report-result-${def.name}`}>
      <PageHeader
        title={title}
        crumbs={[
          { title: t('menu.reports') },
          { title, to: criteriaPath(def, criteria) },
          { title: t('report.result') },
        ]}
        extra={
          <>
            <ButtonLink to={criteriaPath(def, criteria)} icon={<EditOutlined />} data-testid="report-change">
              {t('report.changeCriteria')}
            </ButtonLink>
            {can(user, REPORT_EXPORT_PERMISSION) && (
              <ExportButtons
                url={(format) => reportFileUrl(def, query, format, language)}
                formats={['xlsx', 'csv', 'pdf']}
              />
            )}
          </>
        }
      >
        {summary.length > 0 && (
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2, xl: 3 }}
            items={summary.map((item) => ({ ...item, label: t('common.labelColon', { label: item.label }) }))}
            // the colon is the language's (：in Chinese), not antd's
            colon={false}
            data-testid="report-criteria-summary"
          />
        )}
      </PageHeader>
      {refused && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="report-refused"
          style={{ marginBottom: 16 }}
          title={t('report.refused')}
          description={Object.values(refused).join(' ')}
        />
      )}
      {failed && (
        <Alert
          type="error"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          title={t('report.loadFailed')}
        />
      )}
      <div className="resource-list" aria-busy={isFetching}>
        <ResourceToolbar
          title={groupPicker}
          columns={columns.map((c) => ({ key: c, title: t(reportKeys.column(def, c)) }))}
          settings={settings}
          onSettingsChange={setSettings}
          onRefresh={() => void refetch()}
          onReset={() => setSearch(criteria)}
          filtered={Boolean(query.sort || query.page || query.per_page)}
        />
        <Table<Row>
          rowKey={(row) => JSON.stringify(columns.map((c) => row[c])) + String(row.id ?? '')}
          size={settings.density}
          columns={tableColumns}
          dataSource={data?.items ?? []}
          locale={
            firstLoadLocale(isLoading) ?? {
              // antd's placeholder row greys its text to #bfbfbf (1.8:1): the sentence is read, so it reads (7:1)
              emptyText: <span style={{ color: '#595959' }}>{t('report.empty')}</span>,
            }
          }
          sticky
          scroll={{ x: 'max-content' }}
          summary={() =>
            totals.length > 0 && (data?.items.length ?? 0) > 0 ? (
              <Table.Summary>
                {totals.map((total) => (
                  <Table.Summary.Row key={String(total.currency)} data-testid="report-total">
                    {shown.map((column, i) => (
                      <Table.Summary.Cell
                        key={column}
                        index={i}
                        align={['integer', 'money'].includes(def.columns[column].type) ? 'right' : undefined}
                      >
                        <Typography.Text strong>
                          {def.columns[column].total
                            ? totalCell(def, column, total, language)
                            : i === 0
                              ? total.currency
                                ? t('report.totalIn', { currency: total.currency })
                                : t('report.total')
                              : ''}
                        </Typography.Text>
                      </Table.Summary.Cell>
                    ))}
                  </Table.Summary.Row>
                ))}
              </Table.Summary>
            ) : null
          }
          pagination={{
            current: data?.page ?? (Number(query.page) || 1),
            pageSize: data?.per_page ?? size,
            total: data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (total) => t('resource.toolbar.total', { total: formatTotal(total, false, language) }),
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
      </div>
    </div>
  );
}

/** A report's result screen as a route's default export. */
export function reportResultScreen(def: ReportDefinition) {
  return function ReportResultScreen() {
    return <ReportResultPage def={def} />;
  };
}

import { useMemo, useRef } from 'react';
import { Alert, DatePicker, Select, Space } from 'antd';
import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FILE_KINDS } from '../../../../shared/files';
import { isApiError } from '../../app/api';
import { fieldErrors } from '../../components/forms/server-errors';
import { listCallQuery, nextListQuery, resetListQuery } from '../../components/resource/resource-query';
import { ResourceToolbar, useTableSettings } from '../../components/resource/resource-toolbar';
import { SearchBox } from '../../components/resource/search-box';
import type { ListQueryState } from '../../components/resource/types';
import { fileColumnChoices, FILE_OWNER_TYPES } from './file-columns';
import { FileTable } from './file-table';
import { useFileListQuery } from './files-api';
import { StorageUsageBar } from './storage-usage-bar';

/** The query keys that narrow the list (the empty state says "none match" when one is set). */
const FILTERS = ['q', 'owner_type', 'kind', 'created_from', 'created_to', 'uploaded_by'] as const;

/** The label a refused filter is named by, beside its message. */
const FILTER_LABELS: Record<string, string> = {
  q: 'resource.search',
  owner_type: 'files.filters.ownerType',
  kind: 'files.filters.kind',
  created_from: 'files.filters.createdFrom',
  created_to: 'files.filters.createdTo',
  uploaded_by: 'files.filters.uploadedBy',
  sort: 'files.filters.sort',
  page: 'files.filters.page',
  per_page: 'files.filters.perPage',
};

/** A `YYYY-MM-DD` of the query as the date picker's value (nothing for an empty or unreadable one). */
function dateValue(text: string | undefined): Dayjs | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const value = dayjs(text);
  // dayjs rolls an impossible date over (2026-13-45 → 2027-02-14): show none rather than another date
  return value.isValid() && value.format('YYYY-MM-DD') === text ? value : null;
}

/** The filters the server refused (422), in the user's language: "Uploaded from: Must be a date (YYYY-MM-DD)." */
export function filterErrorText(error: unknown, t: TFunction): string | null {
  if (!isApiError(error) || error.status !== 422) return null;
  const fields = fieldErrors(error, t);
  if (fields.length === 0) return null;
  return fields
    .map(({ name, errors }) =>
      t('common.labelled', {
        label: FILTER_LABELS[name] ? t(FILTER_LABELS[name]) : name,
        value: errors.join(' '),
      }),
    )
    .join(' ');
}

/**
 * /media, the media manager (files.view): every file the user may see, newest first, with the storage used
 * against the quota above. Search by name, filter by owner type, kind and upload date (Hong Kong dates), sort
 * by name, size or time and page — all in the URL's query string, so the list is a link. Each file can be
 * previewed (images, PDFs), downloaded and deleted when nothing uses it. A filter the server refuses is said
 * beside the filters; the page stays.
 */
export default function MediaManagerPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const query: ListQueryState = useMemo(() => Object.fromEntries(search), [search]);
  const latestQuery = useRef(query);
  latestQuery.current = query;
  const [settings, setSettings] = useTableSettings('files');
  const { data, isLoading, isFetching, error, refetch } = useFileListQuery(listCallQuery(query), {
    refetchOnMountOrArgChange: true,
  });

  const change = (values: Record<string, string | number | null | undefined>) =>
    setSearch(nextListQuery(latestQuery.current, values));
  const filtered = FILTERS.some((key) => query[key]);
  const refused = filterErrorText(error, t);
  const loadFailed = Boolean(error) && !refused && !(isApiError(error) && error.handled);

  return (
    <div className="resource-list" data-testid="media-manager" aria-busy={isFetching}>
      <ResourceToolbar
        title={t('files.media.title')}
        columns={fileColumnChoices(t, true)}
        settings={settings}
        onSettingsChange={setSettings}
        onRefresh={() => void refetch()}
        onReset={() => setSearch(resetListQuery(latestQuery.current))}
        filtered={Object.keys(resetListQuery(query)).length !== Object.keys(query).length}
      />
      <StorageUsageBar />
      <Space wrap align="start" style={{ marginBottom: 16 }}>
        <SearchBox value={query.q} label={t('files.filters.search')} onSearch={(q) => change({ q })} />
        <Select
          aria-label={t('files.filters.ownerType')}
          data-testid="filter-owner_type"
          placeholder={t('files.filters.ownerType')}
          allowClear
          style={{ minWidth: 180 }}
          value={query.owner_type}
          onChange={(value: string | undefined) => change({ owner_type: value })}
          options={FILE_OWNER_TYPES.map((type) => ({ value: type, label: t(`files.owners.${type}`) }))}
        />
        <Select
          aria-label={t('files.filters.kind')}
          data-testid="filter-kind"
          placeholder={t('files.filters.kind')}
          allowClear
          style={{ minWidth: 140 }}
          value={query.kind}
          onChange={(value: string | undefined) => change({ kind: value })}
          options={FILE_KINDS.map((kind) => ({ value: kind, label: t(`files.kinds.${kind}`) }))}
        />
        <DatePicker.RangePicker
          data-testid="filter-created"
          aria-label={t('files.filters.created')}
          format="YYYY-MM-DD"
          allowEmpty={[true, true]}
          placeholder={[t('files.filters.createdFrom'), t('files.filters.createdTo')]}
          value={[dateValue(query.created_from), dateValue(query.created_to)]}
          onChange={(_dates, texts) =>
            change({ created_from: texts?.[0] ?? null, created_to: texts?.[1] ?? null })
          }
        />
        {refused && (
          <Alert type="error" showIcon role="alert" data-testid="files-filter-error" title={refused} />
        )}
      </Space>
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
        onQueryChange={(next) => setSearch(next)}
        withOwner
        settings={settings}
        emptyText={t(filtered ? 'files.emptyFiltered' : 'files.empty')}
      />
    </div>
  );
}

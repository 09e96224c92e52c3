import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearchParams } from 'react-router-dom';
import { useScreenTitle } from '../layout/use-document-title';
import { RecentRecordsButton, useRememberVisit } from './recent-records-button';
import { ResourceTable } from './resource-table';
import type { ListQueryState, ResourceConfig, ResourceRow } from './types';

export { useResourcePermissions } from './resource-table';

/**
 * The generic list screen: a `ResourceTable` whose query is the URL's query string, so searching,
 * filtering, sorting and paging are links (back and forward work, a list can be shared); a config's
 * `defaultQuery` is written into it when it names none of that query's keys. The screen is remembered in the
 * user's recent list.
 */
export function ResourceListPage<T extends ResourceRow>({ config }: { config: ResourceConfig<T> }) {
  const { t } = useTranslation();
  const params = useParams();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  // the list's default query where the address names none of its keys: asked for at once, and written into the
  // address (a reload keeps it)
  const defaults = config.defaultQuery;
  const missing = useMemo(() => {
    const wanted = defaults?.();
    return wanted && !Object.keys(wanted).some((key) => search.has(key)) ? wanted : null;
  }, [defaults, search]);
  const query: ListQueryState = useMemo(
    () => ({ ...missing, ...Object.fromEntries(search) }),
    [missing, search],
  );
  useEffect(() => {
    if (missing) setSearch({ ...missing, ...Object.fromEntries(search) }, { replace: true });
  }, [missing, search, setSearch]);
  const title = t(config.titleKey, config.titleValues?.(params, t));
  // the tab's title with the values only this screen knows (the option list's name)
  useScreenTitle(title);
  useRememberVisit(location.pathname, (lt) => lt(config.titleKey, config.titleValues?.(params, lt)), 'route');
  return (
    <ResourceTable
      config={config}
      query={query}
      onQueryChange={(next) => setSearch(next)}
      title={title}
      extra={<RecentRecordsButton />}
    />
  );
}

/** A screen's default export: `export default resourceListScreen(holidayConfig)`. */
export function resourceListScreen<T extends ResourceRow>(config: ResourceConfig<T>) {
  return function ResourceListScreen() {
    return <ResourceListPage config={config} />;
  };
}

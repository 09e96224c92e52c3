import { Skeleton, type TableProps } from 'antd';

/**
 * Loading as the spec wants it (§9: the top progress bar, no spinner): a table never takes antd's `loading`
 * (its spinner would flash on every read). Until its first answer it shows a skeleton of rows instead of blank
 * space or "No data"; later reads keep the last rows on show while the progress bar runs.
 *
 *   <Table locale={firstLoadLocale(query.isLoading)} … />
 */
export function firstLoadLocale(isLoading: boolean): TableProps['locale'] {
  return isLoading ? { emptyText: <FirstLoadSkeleton /> } : undefined;
}

/** Rows still to come: a skeleton where a screen has nothing yet to show. */
export function FirstLoadSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div data-testid="resource-first-load">
      <Skeleton active title={false} paragraph={{ rows }} />
    </div>
  );
}

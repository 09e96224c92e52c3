import { api } from '../../app/api';
import type { ResolvedRange } from '../../../../shared/reports/criteria';
import type { ReportQueryState } from './report-query';

/** `GET /api{report}`: a page of rows, their number, the totals per currency and the criteria as read. */
export interface ReportAnswer {
  items: Record<string, unknown>[];
  total: number;
  page: number;
  per_page: number;
  totals: ({ currency: string | null } & Record<string, unknown>)[];
  group_by: string | null;
  ranges: Record<string, ResolvedRange>;
  names: Record<string, string>;
}

/** A report's result, read again whenever its address changes (no cache: a report is asked for its figures now). */
export const reportApi = api.injectEndpoints({
  endpoints: (build) => ({
    reportResult: build.query<ReportAnswer, { path: string; params: ReportQueryState }>({
      query: ({ path, params }) => ({ url: path, params }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useReportResultQuery } = reportApi;

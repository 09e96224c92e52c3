import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type { ErrorBody } from '../../../shared/errors';
import { http, HttpError, type HttpOptions, type QueryParams } from '../http/client';

export interface HttpArgs {
  url: string;
  method?: HttpOptions['method'];
  params?: QueryParams;
  body?: unknown;
  handleErrors?: boolean;
}

export interface ApiError {
  status: number | null;
  data: ErrorBody | null;
  /** The app already acted on it (§8 navigation); screens should not show anything more. */
  handled: boolean;
}

/** RTK Query's base query: a thin adapter over the one HTTP client. */
export const httpBaseQuery: BaseQueryFn<HttpArgs | string, unknown, ApiError> = async (args, { signal }) => {
  const request = typeof args === 'string' ? { url: args } : args;
  try {
    const data = await http(request.url, { ...request, signal });
    // RTK Query takes `undefined` data for a broken base query: a 204 (no content) is `null`
    return { data: data === undefined ? null : data };
  } catch (error) {
    if (error instanceof HttpError)
      return { error: { status: error.status, data: error.body, handled: error.handled } };
    throw error;
  }
};

/** The single RTK Query API; feature areas inject their endpoints into it. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: httpBaseQuery,
  /**
   * `StorageUsage`: the storage usage (features/files); whatever stores or deletes a file invalidates it.
   * `Resource`: a resource's list or record, its id the API path (`/api/companies`, `/api/companies/5`;
   * components/resource/resource-api.ts): a write invalidates the paths it touches.
   */
  tagTypes: ['StorageUsage', 'Resource', 'Files'],
  endpoints: (build) => ({
    /** The generic data call of a route (spec §2, §7), used by the route loaders. */
    routeData: build.query<unknown, { url: string; params?: QueryParams }>({
      query: ({ url, params }) => ({ url, params }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export function isApiError(error: unknown): error is ApiError {
  return !!error && typeof error === 'object' && 'handled' in error && 'status' in error;
}

import type { Params } from 'react-router-dom';
import type { QueryParams, QueryValue } from '../../http/client';
import type { RouteDataCall } from './types';

/** The data a route's screen receives: the route params, its query and the merged response. */
export type RouteData = Record<string, unknown> & { params: Params; query: Record<string, string> };

/** Merge a data call's response into the route data; an array response is stored as `items` (spec §7). */
export function mergeRouteData(base: RouteData, response: unknown): RouteData {
  if (Array.isArray(response)) return { ...base, items: response };
  if (response && typeof response === 'object') return { ...base, ...(response as Record<string, unknown>) };
  return base;
}

export function resolveDataUrl(call: RouteDataCall, params: Params): string {
  return typeof call.url === 'function' ? call.url(params) : call.url;
}

/** The call's own query (fixed values or computed defaults) with the route's query string appended on top. */
export function dataQuery(call: RouteDataCall, params: Params, search: URLSearchParams): QueryParams {
  const base = typeof call.query === 'function' ? call.query(params) : (call.query ?? {});
  const query: Record<string, QueryValue> = { ...base };
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    query[key] = values.length > 1 ? values : values[0];
  }
  return query;
}

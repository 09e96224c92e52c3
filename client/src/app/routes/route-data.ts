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

/** The largest id a record can have (the database's INT). */
const MAX_ID = 2_147_483_647;

/** A route parameter naming a record: `id`, `childId`, `product_id`. */
const ID_PARAM = /^(id|[a-z]+Id|[a-z]+_id)$/;

/**
 * Whether the address names a record no id can name (`/settings/users/abc`, `/schools/basic/0`): a route parameter
 * naming a record that is not a whole number from 1 to INT's largest. Such an address is not found, whichever
 * screen reads it (a route's data call or the screen's own).
 */
export function hasMalformedId(params: Params): boolean {
  return Object.entries(params).some(
    ([name, value]) =>
      ID_PARAM.test(name) &&
      value !== undefined &&
      !(/^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_ID),
  );
}

import type { TFunction } from 'i18next';
import { isApiError } from '../../app/api';
import { buildUrl } from '../../http/client';
import { fieldErrors } from '../forms/server-errors';
import type { ListQueryState } from './types';

/** List page size (spec: 20 a page). */
export const PAGE_SIZE = 20;

/** The page sizes the toolbar offers (the server takes up to 100). */
export const PAGE_SIZES = [10, 20, 50, 100];

/** Keys of a list query that are not filters: paging and sort. */
const PAGING = new Set(['page', 'per_page']);

/**
 * The next list query after a change: empty values dropped; a new search, filter or sort goes back to page
 * one; page 1 is not written (the server's default).
 */
export function nextListQuery(
  current: ListQueryState,
  change: Record<string, string | number | null | undefined>,
): ListQueryState {
  const out: ListQueryState = { ...current };
  let resetPage = false;
  for (const [key, value] of Object.entries(change)) {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (key !== 'page' && (out[key] ?? '') !== text) resetPage = true;
    if (text) out[key] = text;
    else delete out[key];
  }
  if (resetPage && !('page' in change)) delete out.page;
  if (out.page === '1') delete out.page;
  if (out.per_page === String(PAGE_SIZE)) delete out.per_page;
  return out;
}

/**
 * The list call's query: the fixed parameters (a parent id …), the filters' defaults where the query has
 * none, the query itself and the page size (20 unless the query says otherwise).
 */
export function listCallQuery(
  query: ListQueryState,
  defaults: ListQueryState = {},
  fixed: ListQueryState = {},
): ListQueryState {
  return { per_page: String(PAGE_SIZE), ...defaults, ...query, ...fixed };
}

/** The query after "reset filters": no search, filter or sort; the page size stays. */
export function resetListQuery(query: ListQueryState): ListQueryState {
  return query.per_page ? { per_page: query.per_page } : {};
}

/** The total as the toolbar says it: `1,234`, or `10,000+` when the server stopped counting there. */
export function formatTotal(total: number, capped: boolean | undefined, language: string): string {
  const locale = language.replace('_', '-');
  let text: string;
  try {
    text = new Intl.NumberFormat(locale).format(total);
  } catch {
    text = String(total);
  }
  return capped ? `${text}+` : text;
}

/**
 * Export link of the current filter, search and sort (every row, not one page): `?format=xlsx|csv`, with
 * `lang`, the screen's language, in which the file's columns are headed.
 */
export function exportUrl(
  apiPath: string,
  query: ListQueryState,
  format: 'xlsx' | 'csv',
  language?: string,
): string {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (!PAGING.has(key)) params[key] = value;
  return buildUrl(apiPath, { ...params, format, ...(language ? { lang: language } : {}) });
}

/** antd's sort order for a column from the `sort` query (`name` / `-name`). */
export function sortOrderOf(sort: string | undefined, key: string): 'ascend' | 'descend' | null {
  if (!sort) return null;
  if (sort === key) return 'ascend';
  if (sort === `-${key}`) return 'descend';
  return null;
}

/** The `sort` query for antd's sorter. */
export function sortQuery(
  key: string | undefined,
  order: 'ascend' | 'descend' | null | undefined,
): string | null {
  if (!key || !order) return null;
  return order === 'descend' ? `-${key}` : key;
}

/**
 * A list call the server refused for its query (422: a search of 300 characters, a date filter holding text):
 * each refused parameter's message in the user's language, shown beside its control while the list stays on
 * show. Null for any other failure (no connection, a server error: the list could not be read).
 */
export function refusedQuery(error: unknown, t: TFunction): Record<string, string> | null {
  if (!isApiError(error) || error.handled || error.status !== 422) return null;
  const fields = fieldErrors(error, t);
  if (fields.length === 0) return null;
  return Object.fromEntries(fields.map((f) => [f.name, f.errors.join(' ')]));
}

import type { ListResponse } from '../../../../shared/list';
import { api, type HttpArgs } from '../../app/api';
import type { QueryParams } from '../../http/client';
import type { ResourceRow } from './types';

/** One page of a list, as `GET /api/{resource}` answers; `total_capped`: the count stopped at `total`. */
export type ResourceListAnswer<T extends ResourceRow = ResourceRow> = ListResponse<T> & {
  total_capped?: boolean;
};

export interface ResourceTag {
  type: 'Resource';
  id: string;
}

/** The tag of a list or a record: its API path without the query (`/api/companies`, `/api/companies/5`). */
export function resourceTag(path: string): ResourceTag {
  return { type: 'Resource', id: path.split('?')[0].replace(/\/+$/, '') };
}

/**
 * What a write to `url` invalidates: every path it lies under (`PUT /api/schools/5/subjects/3` → the
 * subject, the school's subjects, the school, the schools), so the lists and records showing the written
 * record are read again, wherever they are on screen (an embedded list in another tab, too).
 */
export function writeTags(url: string, extra: readonly string[] = []): ResourceTag[] {
  const segments = url.split('?')[0].split('/').filter(Boolean);
  const tags: ResourceTag[] = [];
  // from `/api/x` down: `/api` alone names no resource
  for (let n = 2; n <= segments.length; n += 1) tags.push(resourceTag(`/${segments.slice(0, n).join('/')}`));
  return [...tags, ...extra.map(resourceTag)];
}

/**
 * The tags a list provides: its own path and, for a child list (`/api/schools/5/subjects`), its parent's
 * record (`/api/schools/5`): a parent saved with its children shows its children again.
 */
export function listTags(path: string): ResourceTag[] {
  const tags = [resourceTag(path)];
  const segments = path.split('?')[0].split('/').filter(Boolean);
  if (segments.length >= 4) tags.push(resourceTag(`/${segments.slice(0, -1).join('/')}`));
  return tags;
}

export interface ListArgs {
  /** the collection, e.g. `/api/companies` or `/api/schools/5/subjects` */
  path: string;
  params?: QueryParams;
}
export interface RecordArgs {
  path: string;
  id: number | string;
  /** the record page's tab (`GET /api/{resource}/{id}?tab=…`) */
  tab?: string;
  params?: QueryParams;
}
/** `invalidates`: paths of other resources whose lists show this one (their tags are dropped too). */
export interface CreateArgs {
  path: string;
  body: unknown;
  invalidates?: string[];
  /**
   * the submission's key (`Idempotency-Key`, decision 0016): sent again with the same body, the server answers the
   * first result and creates nothing (a retry after a lost answer makes one receipt, not two)
   */
  idempotencyKey?: string;
}
export interface UpdateArgs {
  path: string;
  id: number | string;
  body: unknown;
  method?: 'PUT' | 'PATCH';
  invalidates?: string[];
}
export interface DeleteArgs {
  path: string;
  id: number | string;
  invalidates?: string[];
}
export interface ActionArgs {
  path: string;
  id: number | string;
  /** `POST /api/{resource}/{id}/{action}` */
  action: string;
  body?: unknown;
  invalidates?: string[];
}

/** The extra tags of a failed write: none (a refused write changed nothing). */
const onSuccess =
  <A>(tags: (args: A) => ResourceTag[]) =>
  (_result: unknown, error: unknown, args: A) =>
    error ? [] : tags(args);

/**
 * The data calls of every resource through RTK Query, typed, with tags per API path: lists provide their
 * path, records theirs, and a write invalidates the paths it touches (see `writeTags`). The generic write
 * and read (`resourceWrite`, `resourceRead`) serve the screens' own calls (imports, settings, previews); a
 * generic write invalidates by its URL as well.
 */
export const resourceApi = api.injectEndpoints({
  endpoints: (build) => ({
    resourceWrite: build.mutation<unknown, HttpArgs>({
      query: (args) => args,
      invalidatesTags: onSuccess((args: HttpArgs) => writeTags(args.url)),
    }),
    resourceRead: build.query<unknown, HttpArgs>({ query: (args) => args, keepUnusedDataFor: 0 }),

    resourceList: build.query<ResourceListAnswer, ListArgs>({
      query: ({ path, params }) => ({ url: path, params }),
      providesTags: (_result, _error, { path }) => listTags(path),
    }),
    resourceRecord: build.query<ResourceRow, RecordArgs>({
      query: ({ path, id, tab, params }) => ({
        url: `${path}/${id}`,
        params: tab ? { ...params, tab } : params,
      }),
      providesTags: (_result, _error, { path, id }) => [resourceTag(`${path}/${id}`)],
    }),
    resourceCreate: build.mutation<ResourceRow, CreateArgs>({
      query: ({ path, body, idempotencyKey }) => ({
        url: path,
        method: 'POST',
        body,
        ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
      }),
      invalidatesTags: onSuccess((a: CreateArgs) => writeTags(a.path, a.invalidates)),
    }),
    resourceUpdate: build.mutation<ResourceRow, UpdateArgs>({
      query: ({ path, id, body, method }) => ({ url: `${path}/${id}`, method: method ?? 'PUT', body }),
      invalidatesTags: onSuccess((a: UpdateArgs) => writeTags(`${a.path}/${a.id}`, a.invalidates)),
    }),
    resourceDelete: build.mutation<null, DeleteArgs>({
      query: ({ path, id }) => ({ url: `${path}/${id}`, method: 'DELETE' }),
      invalidatesTags: onSuccess((a: DeleteArgs) => writeTags(`${a.path}/${a.id}`, a.invalidates)),
    }),
    resourceAction: build.mutation<ResourceRow, ActionArgs>({
      query: ({ path, id, action, body }) => ({
        url: `${path}/${id}/${action}`,
        method: 'POST',
        body: body ?? {},
      }),
      invalidatesTags: onSuccess((a: ActionArgs) => writeTags(`${a.path}/${a.id}`, a.invalidates)),
    }),
  }),
});

export const {
  useResourceWriteMutation,
  useResourceReadQuery,
  useLazyResourceReadQuery,
  useResourceListQuery,
  useLazyResourceListQuery,
  useResourceRecordQuery,
  useResourceCreateMutation,
  useResourceUpdateMutation,
  useResourceDeleteMutation,
  useResourceActionMutation,
} = resourceApi;

import { api } from '../../app/api';
import type { ListResponse } from '../../../../shared/list';
import type { OptionItem } from '../../../../shared/schemas/options';
import { writeTags } from './resource-api';
import type { ResourceRow } from './types';

/** One choice of a lookup: `GET /api{path}/lookup?q=` answers these, labelled in the caller's language. */
export interface LookupChoice {
  id: number;
  label: string;
}

/**
 * The read calls the declared screens share: an option list's values (read once per list and kept a few
 * minutes, so every cell and select of a screen asks once, until a write to the list drops it) and a lookup's choices for a typed text. Neither
 * navigates on a refusal: a user who may not read the option lists still sees the stored values.
 */
export const declaredApi = api.injectEndpoints({
  endpoints: (build) => ({
    optionList: build.query<OptionItem[], { list: string; activeOnly: boolean }>({
      query: ({ list, activeOnly }) => ({
        url: `/api/options/${list}`,
        params: { per_page: 100, ...(activeOnly ? { is_active: 'true' } : {}) },
        handleErrors: false,
      }),
      transformResponse: (response: ListResponse<OptionItem>) => response?.items ?? [],
      // a write to the list (`/api/options/{list}/…`) drops it (the `Resource` tags of resource-api.ts)
      providesTags: (_r, _e, { list }) => [{ type: 'Resource' as const, id: `/api/options/${list}` }],
      keepUnusedDataFor: 300,
    }),
    /** `params`: the list's filters narrowing the choices (`parent_id`: the districts of one area) */
    lookupChoices: build.query<LookupChoice[], { path: string; q: string; params?: Record<string, string> }>({
      query: ({ path, q, params }) => ({
        url: `/api${path}/lookup`,
        params: { ...params, q },
        handleErrors: false,
      }),
      transformResponse: (response: LookupChoice[] | { items?: LookupChoice[] }) =>
        Array.isArray(response) ? response : (response?.items ?? []),
      providesTags: (_r, _e, { path }) => [{ type: 'Resource' as const, id: `/api${path}` }],
      keepUnusedDataFor: 30,
    }),
    /**
     * A record's file field (a school's logo): `POST /api{path}/{id}/{segment}` with the multipart `file` (the one
     * HTTP client sends a FormData body as it is), answering the record; the record and its lists are read again
     * by their tags, and the storage usage too (stored or refused); `invalidates`: paths of other lists showing
     * the record (a checklist row's file: its application's checklist)
     */
    fileFieldUpload: build.mutation<ResourceRow, { url: string; file: File; invalidates?: string[] }>({
      query: ({ url, file }) => {
        const body = new FormData();
        body.append('file', file, file.name);
        return { url, method: 'POST', body };
      },
      invalidatesTags: (_r, error, { url, invalidates }) =>
        error ? ['StorageUsage'] : [...writeTags(url, invalidates), 'StorageUsage', 'Files'],
    }),
    /** `DELETE` there: the file removed, the record answered */
    fileFieldDelete: build.mutation<ResourceRow, { url: string; invalidates?: string[] }>({
      query: ({ url }) => ({ url, method: 'DELETE' }),
      invalidatesTags: (_r, error, { url, invalidates }) =>
        error ? [] : [...writeTags(url, invalidates), 'StorageUsage', 'Files'],
    }),
  }),
});

export const {
  useOptionListQuery,
  useLookupChoicesQuery,
  useFileFieldUploadMutation,
  useFileFieldDeleteMutation,
} = declaredApi;

import type { ListResponse } from '../../../../shared/list';
import { api } from '../../app/api';
import { resourceTag } from '../../components/resource/resource-api';

/**
 * The students' own read: the colour of each student category, by id, for the category tags of the students
 * list (a student row names its category; its colour is the category's). Read once and kept a few minutes; a write
 * to the categories drops it (their `Resource` tag). A user who may not read the categories still sees the
 * names, uncoloured: no navigation on a refusal.
 */
export const studentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    studentCategoryColours: build.query<Record<number, string>, void>({
      query: () => ({ url: '/api/student-categories', params: { per_page: 100 }, handleErrors: false }),
      transformResponse: (response: ListResponse<{ id: number; color?: string | null }>) =>
        Object.fromEntries(
          (response?.items ?? [])
            .filter((c) => typeof c.color === 'string' && c.color)
            .map((c) => [c.id, c.color as string]),
        ),
      providesTags: [resourceTag('/api/student-categories')],
      keepUnusedDataFor: 300,
    }),
  }),
});

export const { useStudentCategoryColoursQuery } = studentsApi;

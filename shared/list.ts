import { z } from 'zod';

/** The list contract of every `GET /api/{resource}` (api.md "Shape"). */
export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().trim().max(200).optional(),
  sort: z
    .string()
    .regex(/^-?[a-z_][a-z0-9_]*$/)
    .optional(),
});
export type ListQuery = z.infer<typeof ZListQuery>;

export interface ListResponse<T> {
  items: T[];
  /** the rows of the filter; at most 10,000 when `total_capped` */
  total: number;
  /** there are more than `total` rows (the count stops there: show "10,000+") */
  total_capped?: boolean;
  page: number;
  per_page: number;
}

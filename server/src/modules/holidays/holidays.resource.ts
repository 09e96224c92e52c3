import { z } from 'zod';
import { deriveSchemas } from '../../../../shared/resources/derive';
import { holidays } from '../../../../shared/resources/holidays';
import { currentYear } from '../../lib/clock';
import type { ResourceDefinition } from '../../resources/resource';

/**
 * The rules of holidays beyond their declaration (shared/resources/holidays.ts): listed by year, the current
 * year when none is asked for.
 */
export const holidayRules: Partial<ResourceDefinition> = {
  schemas: {
    ...deriveSchemas(holidays),
    filters: z.object({
      year: z.coerce
        .number()
        .int()
        .min(1900)
        .max(2999)
        .default(() => currentYear()),
    }),
  },
  applyFilters(qb, filters) {
    qb.whereBetween('holidays.date', [`${filters.year}-01-01`, `${filters.year}-12-31`]);
  },
  createForm: async () => ({ defaults: { year: currentYear() } }),
};

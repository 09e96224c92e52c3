import { z } from 'zod';
import { zName } from './common';

/** Rich text (HTML); the server keeps only an allow-list of tags and attributes. */
const zRichText = z.string().max(200_000);

/** Order terms and refund terms: bilingual printed terms, one default of each kind. */
export const ZTermsCreate = z.strictObject({
  title_en: zName,
  title_zh: zName,
  content_en: zRichText,
  content_zh: zRichText,
  is_default: z.boolean().optional(),
  is_active: z.boolean().optional(),
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
});
export const ZTermsUpdate = ZTermsCreate.partial();
export type TermsCreate = z.infer<typeof ZTermsCreate>;

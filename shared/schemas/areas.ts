import { z } from 'zod';
import { zId, zName, zOptionalText } from './common';

/** An area (parent_id null) or one of its districts (parent_id = the area). */
export const ZAreaCreate = z.strictObject({
  parent_id: zId.nullable().optional(),
  name_en: zName,
  name_zh: zName,
  name_ko: zOptionalText(200),
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
});
export const ZAreaUpdate = ZAreaCreate.partial();
export type AreaCreate = z.infer<typeof ZAreaCreate>;

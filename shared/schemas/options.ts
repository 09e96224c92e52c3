import { z } from 'zod';

import { deriveSchemas } from '../resources/derive';
import { OPTION_KEYS, options, type OptionKey } from '../resources/options';

export { OPTION_KEYS, type OptionKey } from '../resources/options';

export function isOptionKey(key: string): key is OptionKey {
  return (OPTION_KEYS as readonly string[]).includes(key);
}

/** One entry of a list: derived from the declaration (shared/resources/options.ts). */
const derived = deriveSchemas(options);
export const ZOptionCreate = derived.create;
export const ZOptionUpdate = derived.update;
export type OptionCreate = z.infer<typeof ZOptionCreate>;

/** `PUT /api/options/{key}/order`: every id of the list, in the new order. */
export const ZOptionOrder = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(1000),
});

export interface OptionItem {
  id: number;
  key: OptionKey;
  value: string;
  label_en: string;
  label_zh: string;
  sort_order: number;
  is_active: boolean;
  /** how many records use the value: when > 0 it cannot be deleted, only deactivated */
  in_use: number;
}

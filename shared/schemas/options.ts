import { z } from 'zod';
import { zName } from './common';

/** The editable option lists (domain.md "Reference data"), each at `/api/options/{key}`. */
export const OPTION_KEYS = [
  'nationality',
  'gender',
  'relationship',
  'education_level',
  'korean_level',
  'topik_level',
  'visa_type',
  'school_type',
  'degree_level',
  'term',
  'document_type',
  'payment_method',
  'unit',
  'event_type',
  'currency',
  'student_status',
] as const;
export type OptionKey = (typeof OPTION_KEYS)[number];

export function isOptionKey(key: string): key is OptionKey {
  return (OPTION_KEYS as readonly string[]).includes(key);
}

/** A stable code, stored in the records that use it (students.gender …): 40 characters at most. */
export const zOptionValue = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$/,
    'Use up to 40 letters, digits, "-", "_", "." or "+", starting with a letter or digit.',
  );

export const ZOptionCreate = z.strictObject({
  value: zOptionValue,
  label_en: zName,
  label_zh: zName,
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
  is_active: z.boolean().optional(),
});
export const ZOptionUpdate = ZOptionCreate.partial();
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

import { z } from 'zod';
import { zEmail } from './auth';
import { zId, zName, zOptionalText } from './common';

export const ZBranchCreate = z.strictObject({
  company_id: zId,
  /** short, used in document numbers (e.g. MK) */
  code: z
    .string()
    .trim()
    .toUpperCase()
    .min(1, 'This field is required.')
    .max(10)
    .regex(/^[A-Z0-9]+$/, 'Letters and digits only.'),
  name_en: zName,
  name_zh: zName,
  address: zOptionalText(500),
  phone: zOptionalText(50),
  email: zEmail.nullable().optional(),
  is_active: z.boolean().optional(),
});
export const ZBranchUpdate = ZBranchCreate.partial();
export type BranchCreate = z.infer<typeof ZBranchCreate>;

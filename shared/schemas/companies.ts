import { z } from 'zod';
import { zEmail } from './auth';
import { zName, zOptionalText } from './common';

export const ZCompanyCreate = z.strictObject({
  code: z.string().trim().min(1, 'This field is required.').max(20),
  name_en: zName,
  name_zh: zName,
  address_en: zOptionalText(500),
  address_zh: zOptionalText(500),
  phone: zOptionalText(50),
  email: zEmail.nullable().optional(),
  website: zOptionalText(191),
  business_registration_no: zOptionalText(50),
  bank_details: zOptionalText(5000),
  invoice_footer: zOptionalText(5000),
  is_active: z.boolean().optional(),
});
export const ZCompanyUpdate = ZCompanyCreate.partial();
export type CompanyCreate = z.infer<typeof ZCompanyCreate>;

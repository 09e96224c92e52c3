import type { z } from 'zod';
import { companies } from '../resources/companies';
import { deriveSchemas } from '../resources/derive';

/** Derived from the declaration (shared/resources/companies.ts). */
const derived = deriveSchemas(companies);
export const ZCompanyCreate = derived.create;
export const ZCompanyUpdate = derived.update;
export type CompanyCreate = z.infer<typeof ZCompanyCreate>;

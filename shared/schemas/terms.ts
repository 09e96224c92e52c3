import type { z } from 'zod';
import { deriveSchemas } from '../resources/derive';
import { orderTerms } from '../resources/terms';

/** Order terms and refund terms (one shape): derived from shared/resources/terms.ts. */
const derived = deriveSchemas(orderTerms);
export const ZTermsCreate = derived.create;
export const ZTermsUpdate = derived.update;
export type TermsCreate = z.infer<typeof ZTermsCreate>;

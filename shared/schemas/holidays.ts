import type { z } from 'zod';
import type { InputOf } from '../resources/declaration';
import { deriveSchemas } from '../resources/derive';
import { holidays } from '../resources/holidays';

export type HolidayCreate = InputOf<typeof holidays>;

/** Derived from the declaration (shared/resources/holidays.ts), typed as it parses. */
const derived = deriveSchemas(holidays);
export const ZHolidayCreate = derived.create as z.ZodType<HolidayCreate> & typeof derived.create;
export const ZHolidayUpdate = derived.update;

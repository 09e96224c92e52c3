import { z } from 'zod';

export const zName = z.string().trim().min(1, 'This field is required.').max(200);
export const zOptionalText = (max: number) => z.string().trim().max(max).nullable().optional();
/** `YYYY-MM-DD`, a real calendar date */
export const zDate = z.iso.date({ error: 'Must be a date (YYYY-MM-DD).' });
export const zId = z.number().int().positive();

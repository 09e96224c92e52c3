import { z } from 'zod';
import { zDate, zName } from './common';

export const ZHolidayCreate = z.strictObject({
  date: zDate,
  name_en: zName,
  name_zh: zName,
});
export const ZHolidayUpdate = ZHolidayCreate.partial();
export type HolidayCreate = z.infer<typeof ZHolidayCreate>;

import { z } from 'zod';
import { DEFAULT_FORMATS, zNumberFormat } from './numbering';

/**
 * The settings this screen edits (`/settings/code` and the general settings): document number formats,
 * storage quota, storage suspension (`true` refuses every upload), upload limit and default currency. SMTP
 * lives with the mail settings.
 */
export const ZSettings = z.strictObject({
  quotation_no_format: zNumberFormat,
  order_no_format: zNumberFormat,
  receipt_no_format: zNumberFormat,
  refund_no_format: zNumberFormat,
  student_no_format: zNumberFormat,
  storage_quota_mb: z.number().int().min(1).max(10_000_000),
  storage_suspended: z.boolean(),
  max_upload_mb: z.number().int().min(1).max(100),
  default_currency: z.string().regex(/^[A-Z]{3}$/, 'Must be a three-letter currency code (ISO 4217).'),
});
export const ZSettingsUpdate = ZSettings.partial();
export type Settings = z.infer<typeof ZSettings>;
export type SettingsUpdate = z.infer<typeof ZSettingsUpdate>;
export type SettingKey = keyof Settings;

export const SETTING_DEFAULTS: Settings = {
  quotation_no_format: DEFAULT_FORMATS.quotation,
  order_no_format: DEFAULT_FORMATS.order,
  receipt_no_format: DEFAULT_FORMATS.receipt,
  refund_no_format: DEFAULT_FORMATS.refund,
  student_no_format: DEFAULT_FORMATS.student,
  storage_quota_mb: 10_240,
  storage_suspended: false,
  max_upload_mb: 5,
  default_currency: 'HKD',
};

export const NUMERIC_SETTINGS: readonly SettingKey[] = ['storage_quota_mb', 'max_upload_mb'];
/** stored as `true` / `false` */
export const BOOLEAN_SETTINGS: readonly SettingKey[] = ['storage_suspended'];

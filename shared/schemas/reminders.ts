import { z } from 'zod';

/** The reminders' settings (Settings → Mail, admins only): on or off, and the Hong Kong time of the daily run. */
export const REMINDER_SETTING_KEYS = ['reminders_enabled', 'reminders_time'] as const;

/** `HH:mm`, 24-hour, Hong Kong time. */
export const zTimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a time of day (HH:mm).');

export const ZReminderSettingsUpdate = z.strictObject({
  enabled: z.boolean().optional(),
  time: zTimeOfDay.optional(),
});
export type ReminderSettingsUpdate = z.infer<typeof ZReminderSettingsUpdate>;

/** Off until an admin turns them on: nothing is mailed to students or staff unasked. */
export const REMINDER_DEFAULTS = { enabled: false, time: '09:00' } as const;

/** How many days ahead an intake's deadline is reminded of (and documents still pending before it). */
export const REMINDER_DAYS_AHEAD = 7;

/** What `GET /api/settings/reminders` answers. */
export interface ReminderSettings {
  enabled: boolean;
  time: string;
  time_zone: 'Asia/Hong_Kong';
  days_ahead: number;
  /** whether mail can go out at all (SMTP host and sender set, in the settings or the environment) */
  mail_configured: boolean;
  last_run: {
    due_at: string;
    started_at: string;
    finished_at: string | null;
    sent: number;
    skipped: number;
    failed: number;
    note: string | null;
  } | null;
}

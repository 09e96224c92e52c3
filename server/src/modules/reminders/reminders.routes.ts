import { ADMINS_ONLY } from '../../../../shared/permissions';
import { ZReminderSettingsUpdate, type ReminderSettingsUpdate } from '../../../../shared/schemas/reminders';
import type { ModuleDeps } from '../module';
import { registerSettingsSection } from '../settings/settings.routes';
import { createRemindersService, updateReminderSettings, type RemindersService } from './reminders.service';

/**
 * `GET|PUT /api/settings/reminders`: the mail reminders on or off and their daily time (Hong Kong), with the last
 * run. Admins only, with a recent password confirmation, like the other mail settings (they mail students and
 * staff). Answers the service, which main.ts schedules.
 */
export function registerRemindersModule(deps: ModuleDeps): RemindersService {
  const { api, db, config, mail, settingsGuard } = deps;
  const reminders = createRemindersService({ db, config, mail });
  registerSettingsSection(api, {
    path: '/settings/reminders',
    permission: ADMINS_ONLY,
    body: ZReminderSettingsUpdate,
    read: reminders.read,
    update: async (input: ReminderSettingsUpdate, ctx) => {
      await updateReminderSettings(db, settingsGuard, input, ctx);
      return reminders.read();
    },
  });
  return reminders;
}

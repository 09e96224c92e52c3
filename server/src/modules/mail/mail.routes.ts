import { FIELD_MESSAGES } from '../../../../shared/messages';
import { ZSmtpSettings, ZSmtpTest } from '../../../../shared/schemas/profile';
import type { AccountsServices } from '../accounts.module';
import type { ModuleDeps } from '../module';
import { staffOf } from '../profile/own-account';
import { registerSettingsSection } from '../settings/settings.routes';
import { renderMail } from './mail-templates';

/** The SMTP settings (the password encrypted, never sent back) and the "send test email" action. */
export function registerMailRoutes(deps: ModuleDeps, { mail }: AccountsServices): void {
  const { api, throttle } = deps;
  registerSettingsSection(api, {
    path: '/settings/smtp',
    body: ZSmtpSettings,
    read: () => mail.show(),
    update: (input, ctx) => mail.save(input, ctx),
  });
  api.add({
    method: 'post',
    path: '/settings/smtp/test',
    access: 'staff',
    permission: 'settings.update',
    before: [
      throttle({ name: 'smtp-test', limit: 10, windowMs: 60_000, key: (req) => `user:${staffOf(req).id}` }),
    ],
    schemas: { body: ZSmtpTest },
    handler: async (req, res) => {
      await mail.send({ to: req.parsed.body.to, ...renderMail('testMail', staffOf(req).language, {}) });
      res.json({ message: FIELD_MESSAGES.testMailSent });
    },
  });
}

import { FIELD_MESSAGES } from '../../../../shared/messages';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import { ZSmtpSettings, ZSmtpTest } from '../../../../shared/schemas/profile';
import type { ModuleDeps } from '../module';
import { staffOf } from '../profile/own-account';
import { registerSettingsSection } from '../settings/settings.routes';
import { renderMail } from './mail-templates';
import type { SmtpInput } from './mail.service';

/**
 * The SMTP settings (the password encrypted, never sent back) and the "send test email" action: admins only,
 * since whoever sets the mail server reads every password reset link (access rules).
 */
export function registerMailRoutes(deps: ModuleDeps): void {
  const { api, throttle, mail, settingsGuard } = deps;
  registerSettingsSection(api, {
    path: '/settings/smtp',
    permission: ADMINS_ONLY,
    body: ZSmtpSettings,
    read: () => mail.show(),
    update: async (input: SmtpInput, ctx) => {
      await settingsGuard.change(ctx, async (trx, touched) => touched(await mail.save(trx, input, ctx)));
      return mail.show();
    },
  });
  api.add({
    method: 'post',
    path: '/settings/smtp/test',
    access: 'staff',
    permission: ADMINS_ONLY,
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

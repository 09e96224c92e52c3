import { hashPassword } from '../../lib/passwords';
import type { Knex } from 'knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { toDbDateTime } from '../../lib/clock';
import { auditService } from '../audit/audit.service';
import { isRegistrationEnabled, loadFeatures } from '../users/account-settings';
import { usersRepository } from '../users/users.repository';

export const REGISTERED = 'Thank you for registering. An administrator will activate your account.';

/** Self-registration (off unless the `registration_enabled` setting is `true`): an inactive account, no role. */
export function createRegistrationService(db: Knex) {
  return {
    async enabled(): Promise<boolean> {
      return isRegistrationEnabled(db);
    },

    async register(
      input: { name: string; email: string; password: string; terms?: boolean },
      ctx: RequestContext,
    ): Promise<{ message: string }> {
      const features = await loadFeatures(db);
      if (features.hasTermsAndPrivacyPolicyFeature && input.terms !== true) {
        throw AppError.field('validation', 'terms', 'termsRequired');
      }
      if (await usersRepository.findByEmail(db, input.email)) throw AppError.field('duplicate', 'email');
      const hash = await hashPassword(input.password);
      await db.transaction(async (trx) => {
        const id = await usersRepository.insert(trx, {
          name: input.name,
          email: input.email,
          password_hash: hash,
          is_active: false,
          is_admin: false,
          language: 'zh_HK',
          terms_accepted_at: input.terms ? toDbDateTime() : null,
        });
        await auditService.record(trx, ctx, {
          action: 'register',
          entity: 'user',
          entityId: id,
          before: null,
          after: { name: input.name, email: input.email, is_active: false },
        });
      });
      return { message: REGISTERED };
    },
  };
}

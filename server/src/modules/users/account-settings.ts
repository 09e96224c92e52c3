import type { RequestHandler } from 'express';
import {
  DEFAULT_FEATURES,
  FEATURE_FLAGS,
  type FeatureFlag,
  type Features,
} from '../../../../shared/features';
import type { Knex } from 'knex';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { auditService } from '../audit/audit.service';
import type { SettingsGuard } from '../settings/protected-settings';
import { settingsRepository } from '../settings/settings.repository';

/** Settings keys of this module (the settings table). */
export const SETTING_KEYS = {
  requireTwoFactor: 'require_two_factor',
  registrationEnabled: 'registration_enabled',
  /** `feature_<flag>` = `false` switches a spec feature flag off; anything else (or nothing) leaves it on */
  feature: (flag: FeatureFlag) => `feature_${flag}`,
} as const;

/** The spec's feature flags as the settings make them (all on by default). */
export async function loadFeatures(db: Trx): Promise<Features> {
  const values = await settingsRepository.getMany(db, FEATURE_FLAGS.map(SETTING_KEYS.feature));
  const features = { ...DEFAULT_FEATURES };
  for (const flag of FEATURE_FLAGS) {
    if (values[SETTING_KEYS.feature(flag)] === 'false') features[flag] = false;
  }
  return features;
}

export async function isTwoFactorRequired(db: Trx): Promise<boolean> {
  const values = await settingsRepository.getMany(db, [SETTING_KEYS.requireTwoFactor]);
  return values[SETTING_KEYS.requireTwoFactor] === 'true';
}

export async function isRegistrationEnabled(db: Trx): Promise<boolean> {
  const values = await settingsRepository.getMany(db, [SETTING_KEYS.registrationEnabled]);
  return values[SETTING_KEYS.registrationEnabled] === 'true';
}

/** A route of a switched-off feature does not exist: 404. */
export function requireFeature(db: Trx, flag: FeatureFlag): RequestHandler {
  return async (_req, _res, next) => {
    if (!(await loadFeatures(db))[flag]) throw new AppError('not_found');
    next();
  };
}

export type AccountSettings = {
  require_two_factor: boolean;
  registration_enabled: boolean;
  features: Features;
};

export type AccountSettingsUpdate = Partial<Omit<AccountSettings, 'features'>> & {
  features?: Partial<Features>;
};

async function readAccountSettings(db: Trx): Promise<AccountSettings> {
  return {
    require_two_factor: await isTwoFactorRequired(db),
    registration_enabled: await isRegistrationEnabled(db),
    features: await loadFeatures(db),
  };
}

/**
 * The admins' account settings: the 2FA requirement, registration and the feature flags. All of them are
 * protected settings (protected-settings.ts): an admin, a recent password confirmation, a notice to every admin.
 */
export function createAccountSettingsService(db: Knex, guard: SettingsGuard) {
  return {
    read: () => readAccountSettings(db),

    /** Saves what is given in one transaction, with one audit row of what changed. */
    async update(input: AccountSettingsUpdate, ctx: RequestContext): Promise<AccountSettings> {
      return guard.change(ctx, async (trx, touched) => {
        const before = await readAccountSettings(trx);
        // [setting key, new value, value in force before]
        const writes: [string, boolean, boolean][] = [];
        if (input.require_two_factor !== undefined) {
          writes.push([SETTING_KEYS.requireTwoFactor, input.require_two_factor, before.require_two_factor]);
        }
        if (input.registration_enabled !== undefined) {
          writes.push([
            SETTING_KEYS.registrationEnabled,
            input.registration_enabled,
            before.registration_enabled,
          ]);
        }
        for (const [flag, on] of Object.entries(input.features ?? {})) {
          const feature = flag as FeatureFlag;
          writes.push([SETTING_KEYS.feature(feature), Boolean(on), before.features[feature]]);
        }
        const changed = writes.filter(([, on, was]) => on !== was);
        touched(changed.map(([key]) => key));
        for (const [key, on] of changed) await settingsRepository.set(trx, key, String(on), ctx.actor.id);
        const after = await readAccountSettings(trx);
        // required but impossible to set up: every account without 2FA would be locked out
        if (after.require_two_factor && !after.features.canManageTwoFactorAuthentication) {
          throw AppError.field(
            'business_rule',
            input.require_two_factor ? 'require_two_factor' : 'features.canManageTwoFactorAuthentication',
            'twoFactorRequiredNeedsFeature',
          );
        }
        await auditService.record(trx, ctx, { action: 'update', entity: 'settings', before, after });
        return after;
      });
    },
  };
}

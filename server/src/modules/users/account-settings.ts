import type { RequestHandler } from 'express';
import {
  DEFAULT_FEATURES,
  FEATURE_FLAGS,
  type FeatureFlag,
  type Features,
} from '../../../../shared/features';
import type { Trx } from '../../db/knex';
import { AppError } from '../../lib/app-error';
import { accountSettingsRepository } from './account-settings.repository';

/** Settings keys of this module (the settings table). */
export const SETTING_KEYS = {
  requireTwoFactor: 'require_two_factor',
  registrationEnabled: 'registration_enabled',
  /** `feature_<flag>` = `false` switches a spec feature flag off; anything else (or nothing) leaves it on */
  feature: (flag: FeatureFlag) => `feature_${flag}`,
} as const;

/** The spec's feature flags as the settings make them (all on by default). */
export async function loadFeatures(db: Trx): Promise<Features> {
  const values = await accountSettingsRepository.getMany(db, FEATURE_FLAGS.map(SETTING_KEYS.feature));
  const features = { ...DEFAULT_FEATURES };
  for (const flag of FEATURE_FLAGS) {
    if (values[SETTING_KEYS.feature(flag)] === 'false') features[flag] = false;
  }
  return features;
}

export async function isTwoFactorRequired(db: Trx): Promise<boolean> {
  const values = await accountSettingsRepository.getMany(db, [SETTING_KEYS.requireTwoFactor]);
  return values[SETTING_KEYS.requireTwoFactor] === 'true';
}

export async function isRegistrationEnabled(db: Trx): Promise<boolean> {
  const values = await accountSettingsRepository.getMany(db, [SETTING_KEYS.registrationEnabled]);
  return values[SETTING_KEYS.registrationEnabled] === 'true';
}

/** A route of a switched-off feature does not exist: 404. */
export function requireFeature(db: Trx, flag: FeatureFlag): RequestHandler {
  return async (_req, _res, next) => {
    if (!(await loadFeatures(db))[flag]) throw new AppError('not_found');
    next();
  };
}

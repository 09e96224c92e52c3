/** The spec's feature flags (product-spec §1, §3), all on by default; the server sends them with the session. */
export const FEATURE_FLAGS = [
  'canCreateTeams',
  'canManageTwoFactorAuthentication',
  'canUpdatePassword',
  'canUpdateProfileInformation',
  'hasEmailVerification',
  'hasAccountDeletionFeatures',
  'hasApiFeatures',
  'hasTeamFeatures',
  'hasTermsAndPrivacyPolicyFeature',
  'managesProfilePhotos',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export type Features = Record<FeatureFlag, boolean>;

export const DEFAULT_FEATURES: Features = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as Features;

export const LOCALES = ['en', 'zh_HK'] as const;
export type Locale = (typeof LOCALES)[number];

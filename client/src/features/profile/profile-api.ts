import { api } from '../../app/api';
import type { User } from '../../app/types';

/** The signed-in user's own account as `GET /api/user/profile` answers it. */
export interface Profile {
  id: number;
  name: string;
  email: string;
  language: 'en' | 'zh_HK';
  email_verified_at: string | null;
  is_admin: boolean;
  role: { id: number; name: string } | null;
  branch: { id: number; code: string; name_en: string; name_zh: string } | null;
  permissions: string[];
  two_factor_enabled: boolean;
  two_factor_pending_confirmation: boolean;
}

export interface TwoFactorStatus {
  enabled: boolean;
  pending_confirmation: boolean;
  recovery_codes_left: number;
}
export interface TwoFactorSecret {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}
export interface BrowserSession {
  id: number;
  ip: string | null;
  browser: string;
  platform: string;
  is_desktop: boolean;
  last_active: string | null;
  is_current: boolean;
}
/** `POST /api/user/profile-photo`'s answer. */
export interface ProfilePhotoUpload {
  file: { id: number; original_name: string; mime_type: string; size_bytes: number };
  profile_photo_url: string;
}
export interface ApiToken {
  id: number;
  name: string;
  abilities: string[];
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string | null;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Profile', 'TwoFactor', 'Sessions', 'ApiTokens'] });

/** The account calls of the profile and API-token screens, and the password reset from the mailed link. */
export const accountApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    sessionUser: build.query<
      { user: User; features?: Record<string, boolean>; two_factor_setup_required?: boolean },
      void
    >({ query: () => '/api/user', keepUnusedDataFor: 0, providesTags: ['Profile'] }),
    profile: build.query<{ user: Profile; features: Record<string, boolean> }, void>({
      query: () => '/api/user/profile',
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<
      { user: Profile; verification: 'sent' | 'smtp_not_configured' | 'email_failed' | null },
      /** `current_password` is required when the email address changes (where password reset links go) */
      { name?: string; email?: string; language?: 'en' | 'zh_HK'; current_password?: string }
    >({
      query: (body) => ({ url: '/api/user/profile', method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
    updatePassword: build.mutation<
      /** `tokens_revoked`: how many of the account's API tokens were revoked with the change */
      { message: string; tokens_revoked?: number },
      {
        current_password: string;
        password: string;
        password_confirmation: string;
        /** also revoke the account's API tokens (the server's default: yes) */
        revoke_tokens?: boolean;
      }
    >({
      query: (body) => ({ url: '/api/user/password', method: 'PUT', body }),
      invalidatesTags: ['Sessions'],
    }),
    confirmPassword: build.mutation<{ confirmed: boolean }, { password: string }>({
      query: (body) => ({ url: '/api/user/confirm-password', method: 'POST', body }),
    }),
    sendVerification: build.mutation<{ message: string }, void>({
      query: () => ({ url: '/api/user/email/verification-notification', method: 'POST' }),
    }),
    twoFactorStatus: build.query<TwoFactorStatus, void>({
      query: () => '/api/user/two-factor-authentication',
      providesTags: ['TwoFactor'],
    }),
    enableTwoFactor: build.mutation<TwoFactorSecret, void>({
      query: () => ({ url: '/api/user/two-factor-authentication', method: 'POST' }),
      invalidatesTags: ['TwoFactor'],
    }),
    pendingTwoFactorSecret: build.mutation<TwoFactorSecret, void>({
      query: () => ({ url: '/api/user/two-factor-qr-code' }),
    }),
    confirmTwoFactor: build.mutation<{ recovery_codes: string[] }, { code: string }>({
      query: (body) => ({ url: '/api/user/confirmed-two-factor-authentication', method: 'POST', body }),
      invalidatesTags: ['TwoFactor', 'Profile'],
    }),
    regenerateRecoveryCodes: build.mutation<{ recovery_codes: string[] }, void>({
      query: () => ({ url: '/api/user/two-factor-recovery-codes', method: 'POST' }),
      invalidatesTags: ['TwoFactor'],
    }),
    disableTwoFactor: build.mutation<void, void>({
      query: () => ({ url: '/api/user/two-factor-authentication', method: 'DELETE' }),
      invalidatesTags: ['TwoFactor', 'Profile'],
    }),
    browserSessions: build.query<{ items: BrowserSession[] }, void>({
      query: () => '/api/user/sessions',
      providesTags: ['Sessions'],
    }),
    logoutOtherSessions: build.mutation<{ ended: number }, void>({
      query: () => ({ url: '/api/user/sessions/logout-others', method: 'POST' }),
      invalidatesTags: ['Sessions'],
    }),
    deleteAccount: build.mutation<void, void>({ query: () => ({ url: '/api/user', method: 'DELETE' }) }),
    apiTokens: build.query<{ items: ApiToken[]; available_abilities: string[] }, void>({
      query: () => '/api/user/api-tokens',
      providesTags: ['ApiTokens'],
    }),
    createApiToken: build.mutation<{ token: string; item: ApiToken }, { name: string; abilities: string[] }>({
      query: (body) => ({ url: '/api/user/api-tokens', method: 'POST', body }),
      invalidatesTags: ['ApiTokens'],
    }),
    updateApiToken: build.mutation<ApiToken, { id: number; name?: string; abilities: string[] }>({
      query: ({ id, ...body }) => ({ url: `/api/user/api-tokens/${id}`, method: 'PUT', body }),
      invalidatesTags: ['ApiTokens'],
    }),
    revokeApiToken: build.mutation<void, number>({
      query: (id) => ({ url: `/api/user/api-tokens/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ApiTokens'],
    }),
    resetPassword: build.mutation<
      { message: string },
      { token: string; email: string; password: string; password_confirmation: string }
    >({ query: (body) => ({ url: '/api/reset-password', method: 'POST', body }) }),
    verifyEmail: build.mutation<{ message?: string }, { id: number; expires: number; signature: string }>({
      query: (body) => ({ url: '/api/email/verify', method: 'POST', body }),
    }),
    /** multipart, field `file` (the one HTTP client sends a FormData body as it is) */
    uploadProfilePhoto: build.mutation<ProfilePhotoUpload, File>({
      query: (file) => {
        const body = new FormData();
        body.append('file', file, file.name);
        return { url: '/api/user/profile-photo', method: 'POST', body };
      },
      // stored or refused (storage full, suspended): the storage banner reads the usage again
      invalidatesTags: ['StorageUsage'],
    }),
    deleteProfilePhoto: build.mutation<void, void>({
      query: () => ({ url: '/api/user/profile-photo', method: 'DELETE' }),
      invalidatesTags: ['StorageUsage'],
    }),
  }),
});

export const {
  useProfileQuery,
  useUpdateProfileMutation,
  useUpdatePasswordMutation,
  useConfirmPasswordMutation,
  useSendVerificationMutation,
  useTwoFactorStatusQuery,
  useEnableTwoFactorMutation,
  usePendingTwoFactorSecretMutation,
  useConfirmTwoFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useDisableTwoFactorMutation,
  useBrowserSessionsQuery,
  useLogoutOtherSessionsMutation,
  useDeleteAccountMutation,
  useApiTokensQuery,
  useCreateApiTokenMutation,
  useUpdateApiTokenMutation,
  useRevokeApiTokenMutation,
  useResetPasswordMutation,
  useSessionUserQuery,
  useVerifyEmailMutation,
  useUploadProfilePhotoMutation,
  useDeleteProfilePhotoMutation,
} = accountApi;

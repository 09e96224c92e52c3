import type { ErrorBody } from '../../../shared/errors';

/** What the app does with a failed response (spec §8, error catalogue). */
export type ErrorAction =
  { type: 'navigate'; to: string; replace: boolean; signOut: boolean } | { type: 'caller' };

/**
 * The spec's response handling, as a pure function of the status (`null` = no response at all):
 * no response → /error-no-connection; 404 → /error-404; 401 → /login, or /login?timeout=1 when the body
 * carries the timeout flag; 403 → the page is replaced by /error-403; 500 → /error-500; anything else
 * is the caller's to handle. A 403 saying that the account must set up 2FA first goes to the profile, where that
 * setup is. A 403 `insufficient_rights` (the route is the caller's, this record or this grant is not: an account
 * stronger than the caller's, a setting only admins change) keeps the page: the screen explains the refusal
 * where the user acted; so does a 403 `https_required` (sign-in over plain HTTP while the cookies are Secure). A portal student who must change the password staff set goes to the password change.
 */
export function mapHttpError(
  status: number | null,
  body: Partial<ErrorBody> | null | undefined,
): ErrorAction {
  if (status === null)
    return { type: 'navigate', to: '/error-no-connection', replace: false, signOut: false };
  switch (status) {
    case 401:
      return {
        type: 'navigate',
        to: body?.timeout === true ? '/login?timeout=1' : '/login',
        replace: false,
        signOut: true,
      };
    case 403:
      // admins require 2FA and this account has none yet: only its profile's 2FA setup is open (quality §6)
      if (body?.code === 'two_factor_required')
        return { type: 'navigate', to: '/user/profile', replace: true, signOut: false };
      if (body?.code === 'insufficient_rights') return { type: 'caller' };
      // sign-in over plain HTTP while the cookies are Secure: the sign-in page says that HTTPS is needed
      if (body?.code === 'https_required') return { type: 'caller' };
      // a portal student whose password staff set: only the password change is open until it is changed
      if (body?.message_key === 'portalMustChangePassword')
        return { type: 'navigate', to: '/password/change', replace: true, signOut: false };
      return { type: 'navigate', to: '/error-403', replace: true, signOut: false };
    case 404:
      return { type: 'navigate', to: '/error-404', replace: false, signOut: false };
    case 500:
      return { type: 'navigate', to: '/error-500', replace: false, signOut: false };
    default:
      return { type: 'caller' };
  }
}

import type { MessageKey, MessageParams, MessageRef } from './messages';

/** Error codes shared by server and client. The server maps each to one HTTP status (api.md). */
export const ERROR_CODES = {
  validation: 422,
  duplicate: 422,
  business_rule: 422,
  invalid_credentials: 422,
  unauthenticated: 401,
  session_timeout: 401,
  forbidden: 403,
  /**
   * the caller may use the route, but not on this record or with this grant (an account or role stronger than
   * its own, a setting only admins change): the screen keeps the page and explains the refusal
   */
  insufficient_rights: 403,
  /** require-2FA is on and this account has not confirmed 2FA: only its profile's 2FA setup is open */
  two_factor_required: 403,
  /** a sensitive action needs `POST /api/user/confirm-password` first (the last one is too old) */
  password_confirmation_required: 423,
  csrf: 403,
  /**
   * sign-in (and its CSRF token) over plain HTTP while the cookies are Secure (production without
   * COOKIE_SECURE=false): the browser would keep no cookie, so the server says HTTPS is needed instead
   */
  https_required: 403,
  not_found: 404,
  referenced: 409,
  /** no SMTP host or sender in the settings nor the environment */
  smtp_not_configured: 422,
  /** the SMTP server refused or could not be reached */
  email_failed: 502,
  conflict: 409,
  /** an `Idempotency-Key` sent again with another request (another body or path) */
  idempotency_key_reused: 422,
  /** an `Idempotency-Key` whose first request is still running after the repeat waited for it */
  idempotency_in_progress: 409,
  payload_too_large: 413,
  /** a request body in a charset or content encoding the server does not read */
  unsupported_media_type: 415,
  throttled: 429,
  /** a list, count or export query ran past the statement timeout and was stopped */
  query_timeout: 503,
  /** the client went away before the answer: its query was killed (nobody reads this; nginx's 499) */
  request_cancelled: 499,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The spec's messages, used verbatim (product-spec §8). */
export const MESSAGES = {
  credentials: 'These credentials do not match our records.',
  portalCredentials: 'Login or password is incorrect',
  userNotFound: 'User not found',
  sessionExpired: 'Your session has expired, please log in again.',
  smtpMissing: 'Please confirm whether the SMTP settings are completed',
  storageFull: 'Storage is full.',
  emailFailed: 'Email failed',
  duplicate: 'This Data is already exist.',
  invalidEmail: 'Invalid email address',
  unauthenticated: 'Unauthenticated.',
  forbidden: 'This action is unauthorized.',
  csrf: 'CSRF token mismatch.',
  notFound: 'Not Found',
  throttled: 'Too many attempts. Please try again later.',
  validation: 'The given data was invalid.',
  referenced: 'This record is still in use and cannot be deleted.',
  server: 'Server Error',
} as const;

/**
 * Body of every error response. `message` and `errors` are English, for API users and logs; clients show
 * `message_key` and `error_keys` (keys of the one catalog, shared/messages.ts `CATALOG`) in their own language.
 */
export interface ErrorBody {
  message: string;
  code?: ErrorCode;
  /** the catalogued message of `message` */
  message_key?: MessageKey;
  /** its placeholder values, when it has any (a value may be a nested `{ key, params }`) */
  message_params?: MessageParams;
  /** field → English messages */
  errors?: Record<string, string[]>;
  /** field → the same messages, in the same order, by key */
  error_keys?: Record<string, MessageRef[]>;
  references?: Record<string, number>;
  timeout?: boolean;
}

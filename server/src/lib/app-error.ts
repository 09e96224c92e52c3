import { ERROR_CODES, MESSAGES, type ErrorBody, type ErrorCode } from '../../../shared/errors';
import { FIELD_MESSAGES } from '../../../shared/messages';

export type FieldErrors = Record<string, string[]>;

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  validation: MESSAGES.validation,
  duplicate: MESSAGES.duplicate,
  business_rule: MESSAGES.validation,
  invalid_credentials: MESSAGES.credentials,
  unauthenticated: MESSAGES.unauthenticated,
  session_timeout: MESSAGES.sessionExpired,
  forbidden: MESSAGES.forbidden,
  insufficient_rights: FIELD_MESSAGES.insufficientRights,
  two_factor_required: 'Two-factor authentication must be enabled for this account.',
  password_confirmation_required: 'Please confirm your password.',
  csrf: MESSAGES.csrf,
  not_found: MESSAGES.notFound,
  referenced: MESSAGES.referenced,
  smtp_not_configured: MESSAGES.smtpMissing,
  email_failed: MESSAGES.emailFailed,
  conflict: 'This action is not allowed in the record’s current state.',
  payload_too_large: 'The file is too large.',
  unsupported_media_type: FIELD_MESSAGES.unsupportedBody,
  throttled: MESSAGES.throttled,
  internal: MESSAGES.server,
};

/** The one error type services throw. The error middleware maps `code` to a status and body (api.md). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldErrors;
  readonly references?: Record<string, number>;
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    message?: string,
    extra: { errors?: FieldErrors; references?: Record<string, number>; retryAfterSeconds?: number } = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.errors = extra.errors;
    this.references = extra.references;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { message: this.message, code: this.code };
    if (this.errors) body.errors = this.errors;
    if (this.references) body.references = this.references;
    if (this.code === 'session_timeout') body.timeout = true;
    return body;
  }

  /** A 422 on one field, the message repeated as the field's error. */
  static field(
    code: 'validation' | 'duplicate' | 'business_rule' | 'invalid_credentials' | 'insufficient_rights',
    field: string,
    message?: string,
  ) {
    const text = message ?? DEFAULT_MESSAGES[code];
    return new AppError(code, text, { errors: { [field]: [text] } });
  }
}

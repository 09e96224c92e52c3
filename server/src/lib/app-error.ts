import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../../../shared/errors';
import { messageEnglish, type MessageKey, type MessageRef } from '../../../shared/messages';

/** Field → English messages, as error bodies carry them in `errors`. */
export type FieldErrors = Record<string, string[]>;
/** Field → catalogued messages (key + placeholders), what AppError holds and bodies carry in `error_keys`. */
export type FieldMessages = Record<string, MessageRef[]>;

/** A message of the catalog: `msg('tooLong', { max: 200 })` (shared/messages.ts), or a bare key. */
export type MessageArg = MessageRef | MessageKey;

/** The message of each code when a throw names none: a key of the catalog (shared/messages.ts). */
const DEFAULT_MESSAGES: Record<ErrorCode, MessageKey> = {
  validation: 'validation',
  duplicate: 'duplicate',
  business_rule: 'validation',
  invalid_credentials: 'credentials',
  unauthenticated: 'unauthenticated',
  session_timeout: 'sessionExpired',
  forbidden: 'forbidden',
  insufficient_rights: 'insufficientRights',
  two_factor_required: 'twoFactorRequired',
  password_confirmation_required: 'confirmPassword',
  csrf: 'csrf',
  https_required: 'httpsRequired',
  not_found: 'notFound',
  referenced: 'referenced',
  smtp_not_configured: 'smtpMissing',
  email_failed: 'emailFailed',
  conflict: 'stateNotAllowed',
  idempotency_key_reused: 'idempotencyKeyReused',
  idempotency_in_progress: 'idempotencyInProgress',
  payload_too_large: 'fileTooLarge',
  unsupported_media_type: 'unsupportedBody',
  throttled: 'throttled',
  query_timeout: 'queryTimeout',
  request_cancelled: 'requestCancelled',
  internal: 'server',
};

/** A message argument as a plain reference (no English text, no empty params). */
export function messageRef(message: MessageArg): MessageRef {
  if (typeof message === 'string') return { key: message };
  return message.params && Object.keys(message.params).length
    ? { key: message.key, params: message.params }
    : { key: message.key };
}

/**
 * An object keyed by what a client sent: no prototype, so that a field named `__proto__`, `constructor` or
 * `toString` is a field like any other (it is JSON-serialised as one) instead of reaching Object.prototype.
 */
export function fieldMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * The one error type services throw. It carries a catalogued message (key + placeholders), never free text:
 * `new AppError('validation', msg('tooLong', { max: 200 }))`, `AppError.field('validation', 'name', 'required')`.
 * The error middleware maps `code` to a status and the body (api.md): English `message` and `errors` for API
 * users and logs, `message_key`/`message_params` and `error_keys` for clients to show in their language.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly messageRef: MessageRef;
  /** field errors by key, in order */
  readonly fieldMessages?: FieldMessages;
  readonly references?: Record<string, number>;
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    message?: MessageArg,
    extra: { errors?: FieldMessages; references?: Record<string, number>; retryAfterSeconds?: number } = {},
  ) {
    const ref = messageRef(message ?? DEFAULT_MESSAGES[code]);
    super(messageEnglish(ref));
    this.name = 'AppError';
    this.code = code;
    this.messageRef = ref;
    this.fieldMessages = extra.errors;
    this.references = extra.references;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }

  /** The field errors in English (`errors` of the body). */
  get errors(): FieldErrors | undefined {
    if (!this.fieldMessages) return undefined;
    const out = fieldMap<string[]>();
    for (const [field, refs] of Object.entries(this.fieldMessages)) out[field] = refs.map(messageEnglish);
    return out;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { message: this.message, code: this.code, message_key: this.messageRef.key };
    if (this.messageRef.params) body.message_params = this.messageRef.params;
    if (this.fieldMessages) {
      body.errors = this.errors;
      const keys = fieldMap<MessageRef[]>();
      for (const [field, refs] of Object.entries(this.fieldMessages)) keys[field] = refs.map(messageRef);
      body.error_keys = keys;
    }
    if (this.references) body.references = this.references;
    if (this.code === 'session_timeout') body.timeout = true;
    return body;
  }

  /** A 422 on one field, the message repeated as the field's error. */
  static field(
    code: 'validation' | 'duplicate' | 'business_rule' | 'invalid_credentials' | 'insufficient_rights',
    field: string,
    message?: MessageArg,
  ) {
    const ref = messageRef(message ?? DEFAULT_MESSAGES[code]);
    const errors = fieldMap<MessageRef[]>();
    errors[field] = [ref];
    return new AppError(code, ref, { errors });
  }
}

import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import type { ErrorBody } from '../../../../shared/errors';
import { isMessageKey, type MessageRef } from '../../../../shared/messages';
import { isApiError } from '../../app/api';

/**
 * A catalogued message (`{ key, params }`, as the server sends it in `message_key`/`message_params` and
 * `error_keys`) in the user's language: `serverMessages.<key>` with its placeholders filled, a nested message
 * translated in turn. The client never reads the server's English; a key it does not know (a newer server) is
 * the generic error.
 */
export function messageText(ref: MessageRef, t: TFunction): string {
  if (!isMessageKey(ref.key)) return t('errors.generic');
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(ref.params ?? {}))
    params[name] = typeof value === 'object' && value !== null ? messageText(value, t) : value;
  return t(`serverMessages.${ref.key}`, { ...params, interpolation: { escapeValue: false } });
}

/** The message of an error body, by its key (null when the body names none). */
export function bodyMessageRef(body: Partial<ErrorBody> | null | undefined): MessageRef | null {
  if (!body?.message_key) return null;
  return body.message_params
    ? { key: body.message_key, params: body.message_params }
    : { key: body.message_key };
}

/** The message a form shows for a failed submit, from the error code where there is one. */
export function errorSummary(error: unknown, t: TFunction, options: { portal?: boolean } = {}): string {
  if (!isApiError(error)) return t('errors.generic');
  if (error.status === null) return t('errors.noConnection');
  switch (error.data?.code) {
    case 'invalid_credentials':
      return t(options.portal ? 'serverMessages.portalCredentials' : 'serverMessages.credentials');
    case 'throttled':
      return t('serverMessages.throttled');
    case 'validation':
      return t('serverMessages.validation');
    case 'duplicate':
      return t('serverMessages.duplicate');
    default: {
      const ref = bodyMessageRef(error.data);
      return ref ? messageText(ref, t) : t('errors.generic');
    }
  }
}

/** Field errors of a 422 answer, for antd `form.setFields`: from `error_keys`, in the user's language. */
export function fieldErrors(
  error: unknown,
  t: TFunction,
  options: { portal?: boolean } = {},
): { name: string; errors: string[] }[] {
  if (!isApiError(error) || !error.data?.error_keys) return [];
  return Object.entries(error.data.error_keys).map(([name, refs]) => ({
    name,
    errors: refs.map((ref) =>
      error.data?.code === 'invalid_credentials' ? errorSummary(error, t, options) : messageText(ref, t),
    ),
  }));
}

/**
 * A failed submit shown on its form: nothing when the app already acted on it (§8 navigation), the field
 * errors on their fields, else the summary handed to `showSummary`.
 */
export function showSubmitError(
  error: unknown,
  form: Pick<FormInstance, 'setFields'>,
  t: TFunction,
  showSummary: (text: string) => void,
  options: { portal?: boolean } = {},
): void {
  if (isApiError(error) && error.handled) return;
  const fields = fieldErrors(error, t, options);
  if (fields.length > 0) form.setFields(fields as never);
  else showSummary(errorSummary(error, t, options));
}

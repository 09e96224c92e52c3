import type { TFunction } from 'i18next';
import { MESSAGES } from '../../../../shared/errors';
import { isApiError } from '../../app/api';

const MESSAGE_KEYS = new Map<string, string>(Object.entries(MESSAGES).map(([key, text]) => [text, key]));

/** A message the server sent (in English) in the user's language when it is one of the known ones. */
export function translateServerMessage(message: string, t: TFunction): string {
  const key = MESSAGE_KEYS.get(message);
  return key ? t(`serverMessages.${key}`) : message;
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
    default:
      return error.data?.message ? translateServerMessage(error.data.message, t) : t('errors.generic');
  }
}

/** Field errors of a 422 answer, for antd `form.setFields`. */
export function fieldErrors(
  error: unknown,
  t: TFunction,
  options: { portal?: boolean } = {},
): { name: string; errors: string[] }[] {
  if (!isApiError(error) || !error.data?.errors) return [];
  return Object.entries(error.data.errors).map(([name, messages]) => ({
    name,
    errors: messages.map((m) =>
      error.data?.code === 'invalid_credentials'
        ? errorSummary(error, t, options)
        : translateServerMessage(m, t),
    ),
  }));
}

import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { matchMessage } from '../../../../shared/messages';
import { isApiError } from '../../app/api';

/**
 * A message the server sent (in English) in the user's language: any message of the catalog
 * (shared/messages.ts), a template's values filled in, a nested `message` translated in turn. An unknown
 * message is shown as it came.
 */
export function translateServerMessage(message: string, t: TFunction): string {
  const found = matchMessage(message);
  if (!found) return message;
  const params: Record<string, string> = { ...found.params };
  if (params.message !== undefined) params.message = translateServerMessage(params.message, t);
  return t(`serverMessages.${found.key}`, { ...params, interpolation: { escapeValue: false } });
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

/**
 * A failed submit shown on its form: nothing when the app already acted on it (§8 navigation), the field
 * errors on their fields, else the summary handed to `showSummary`.
 */
export function showSubmitError(
  error: unknown,
  form: FormInstance,
  t: TFunction,
  showSummary: (text: string) => void,
  options: { portal?: boolean } = {},
): void {
  if (isApiError(error) && error.handled) return;
  const fields = fieldErrors(error, t, options);
  if (fields.length > 0) form.setFields(fields as never);
  else showSummary(errorSummary(error, t, options));
}

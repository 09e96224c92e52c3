import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { isApiError } from '../../app/api';
import { errorSummary, showSubmitError } from '../../components/forms/server-errors';

/**
 * A failed sign-in on its form (the staff sign-in's and the portal's alike): wrong credentials are about the
 * pair, not the email field, so they are said above the form with the other refusals (throttled, no connection);
 * field errors of another kind stay on their fields.
 */
export function showSignInError(
  error: unknown,
  form: Pick<FormInstance, 'setFields'>,
  t: TFunction,
  showSummary: (text: string) => void,
  options: { portal?: boolean } = {},
): void {
  if (isApiError(error) && !error.handled && error.data?.code === 'invalid_credentials') {
    showSummary(errorSummary(error, t, options));
    return;
  }
  showSubmitError(error, form, t, showSummary, options);
}

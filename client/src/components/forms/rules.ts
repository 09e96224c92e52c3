import type { TFunction } from 'i18next';
import type { FormRule as Rule } from 'antd';

/** The spec's email pattern check (§5), default message 'Invalid email address'. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec §5: at least 8 characters, one upper-case letter, one lower-case letter, one digit. */
export function isStrongPassword(value: string): boolean {
  return value.length >= 8 && /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value);
}

export const rules = {
  required: (t: TFunction): Rule => ({ required: true, message: t('errors.required') }),
  email: (t: TFunction): Rule => ({ pattern: EMAIL_PATTERN, message: t('serverMessages.invalidEmail') }),
  password: (t: TFunction): Rule => ({
    validator: (_rule, value: string | undefined) =>
      !value || isStrongPassword(value)
        ? Promise.resolve()
        : Promise.reject(new Error(t('errors.passwordRule'))),
  }),
  sameAs:
    (t: TFunction, field: string): Rule =>
    ({ getFieldValue }) => ({
      validator: (_rule, value: string | undefined) =>
        !value || value === getFieldValue(field)
          ? Promise.resolve()
          : Promise.reject(new Error(t('errors.passwordMismatch'))),
    }),
};

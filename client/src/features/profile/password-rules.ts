import type { TFunction } from 'i18next';
import type { FormRule } from 'antd';
import { PASSWORD_RULE_MESSAGES, zPassword } from '../../../../shared/schemas/auth';

/** The shared schema's password messages, in the interface language. */
export function passwordMessages(t: TFunction): Record<string, string> {
  return {
    [PASSWORD_RULE_MESSAGES.min]: t('profile.passwordRules.min'),
    [PASSWORD_RULE_MESSAGES.upper]: t('profile.passwordRules.upper'),
    [PASSWORD_RULE_MESSAGES.lower]: t('profile.passwordRules.lower'),
    [PASSWORD_RULE_MESSAGES.digit]: t('profile.passwordRules.digit'),
    [PASSWORD_RULE_MESSAGES.bytes]: t('profile.passwordRules.bytes'),
    [PASSWORD_RULE_MESSAGES.confirmation]: t('profile.passwordRules.confirmation'),
  };
}

/** The spec's password rule (§5) as an antd form rule, checked by the very schema the server uses. */
export function passwordRule(t: TFunction): FormRule {
  return {
    validator: (_rule, value: string | undefined) => {
      if (!value) return Promise.resolve();
      const result = zPassword.safeParse(value);
      if (result.success) return Promise.resolve();
      const messages = passwordMessages(t);
      const texts = [...new Set(result.error.issues.map((i) => messages[i.message] ?? i.message))];
      return Promise.reject(new Error(texts.join(' ')));
    },
  };
}

/** The confirmation field matches the `password` field (or the one named). */
export function confirmationRule(t: TFunction, field = 'password'): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_rule, value: string | undefined) =>
      !value || value === getFieldValue(field)
        ? Promise.resolve()
        : Promise.reject(new Error(t('profile.passwordRules.confirmation'))),
  });
}

/** Field errors from the server with the password messages in the interface language. */
export function translatePasswordErrors<T extends { name: string; errors: string[] }>(
  fields: T[],
  t: TFunction,
): T[] {
  const messages = passwordMessages(t);
  return fields.map((f) => ({ ...f, errors: f.errors.map((e) => messages[e] ?? e) }));
}

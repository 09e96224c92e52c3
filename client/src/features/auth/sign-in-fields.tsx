import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { EMAIL_PATTERN } from '../../components/forms/rules';
import { TextField, type Check, type LiteForm } from '../../components/lite';

type SignInValues = { email: string; password: string } & Record<string, string | boolean>;

/** What the sign-in fields check before the form is sent: an email address, and a password at all. */
export function signInChecks<V extends SignInValues>(
  t: TFunction,
): { email: Check<V>[]; password: Check<V>[] } {
  return {
    email: [
      (v) => (v ? null : t('errors.required')),
      (v) => (EMAIL_PATTERN.test(String(v)) ? null : t('serverMessages.invalidEmail')),
    ],
    password: [(v) => (v ? null : t('errors.required'))],
  };
}

/** The email and password of a sign-in form, the staff's and the portal's alike. */
export function SignInFields<V extends SignInValues>({ form }: { form: LiteForm<V> }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('auth.email')}
        type="email"
        autoComplete="username"
        autoFocus
        value={form.values.email}
        onChange={(v) => form.setValue('email', v as V['email'])}
        error={form.errors.email}
        inputRef={form.inputRef('email')}
      />
      <TextField
        label={t('auth.password')}
        type="password"
        autoComplete="current-password"
        revealLabel={t('auth.showPassword')}
        value={form.values.password}
        onChange={(v) => form.setValue('password', v as V['password'])}
        error={form.errors.password}
        inputRef={form.inputRef('password')}
      />
    </>
  );
}

import { useTranslation } from 'react-i18next';
import { TextField, type LiteForm } from '../../components/lite';

/** The email and password of a sign-in form, the staff's and the portal's alike. */
export function SignInFields<
  V extends { email: string; password: string } & Record<string, string | boolean>,
>({ form }: { form: LiteForm<V> }) {
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

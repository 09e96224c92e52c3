import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { returnPath, withReturn } from '../../app/navigation';
import { resetCsrfToken } from '../../http/client';
import { Alert, Checkbox, Panel, SubmitButton, useLiteForm } from '../../components/lite';
import { useLoginMutation } from './auth-api';
import { accountApi } from '../profile/profile-api';
import { userSignedIn } from './session';
import { SignInFields, signInChecks } from './sign-in-fields';
import { showSignInError } from './sign-in-error';

/** The sign-in form's values. */
type SignInValues = { email: string; password: string; remember: boolean };

/**
 * Staff sign-in (spec §2 /login); asks for the two-factor step when the server says so. Built on the lite kit,
 * not antd: it is the first screen most people load (the first-load budget, issue 15).
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const registrationEnabled = useAppSelector((s) => s.shell.registrationEnabled);
  const [login, { isLoading }] = useLoginMutation();
  const [error, setError] = useState<string | null>(null);
  const timedOut = params.get('timeout') === '1';

  const form = useLiteForm<SignInValues>(
    { email: '', password: '', remember: false },
    signInChecks(t),
    async (values) => {
      setError(null);
      const result = await login({
        email: values.email,
        password: values.password,
        remember: values.remember,
      });
      if (result.data) {
        if ('two_factor' in result.data) {
          resetCsrfToken();
          // the page asked for goes along to the second step
          navigate(withReturn('/two-factor-challenge', returnPath(params, '')));
        } else {
          void userSignedIn(dispatch, result.data.user);
          // admins require 2FA and this account has none yet: only its profile's 2FA setup is open
          const session = await dispatch(
            accountApi.endpoints.sessionUser.initiate(undefined, { subscribe: false, forceRefetch: true }),
          );
          navigate(session.data?.two_factor_setup_required ? '/user/profile' : returnPath(params), {
            replace: true,
          });
        }
        return;
      }
      showSignInError(result.error, form, t, setError);
    },
  );

  return (
    <Panel>
      <h1 className="lite-title">{t('auth.login.title')}</h1>
      {timedOut && (
        <Alert type="warning" title={t('serverMessages.sessionExpired')} data-testid="session-expired" />
      )}
      {error && <Alert type="error" title={error} data-testid="login-error" />}
      <form onSubmit={form.submit} noValidate>
        <SignInFields form={form} />
        <Checkbox checked={form.values.remember} onChange={(v) => form.setValue('remember', v)}>
          {t('auth.login.remember')}
        </Checkbox>
        <SubmitButton loading={isLoading}>{t('auth.login.submit')}</SubmitButton>
      </form>
      <div className="lite-links">
        <Link to="/password/reset">{t('auth.login.forgot')}</Link>
        {registrationEnabled && <Link to="/register">{t('auth.login.register')}</Link>}
      </div>
    </Panel>
  );
}

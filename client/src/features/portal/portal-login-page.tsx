import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { Student } from '../../app/types';
import { useAppDispatch } from '../../app/hooks';
import { returnPath } from '../../app/navigation';
import { Alert, Panel, SubmitButton, useLiteForm } from '../../components/lite';
import { usePortalLoginMutation } from '../auth/auth-api';
import { studentSignedIn } from '../auth/session';
import { SignInFields, signInChecks } from '../auth/sign-in-fields';
import { showSignInError } from '../auth/sign-in-error';
import { refreshStudent } from './portal-api';

/** The portal sign-in form's values. */
type PortalSignInValues = { email: string; password: string };

/**
 * Student portal sign-in (spec §2 portal /login), with the portal's own credentials message. Built on the lite
 * kit, not antd: it is the portal's first screen (the first-load budget, issue 15).
 */
export default function PortalLoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [login, { isLoading }] = usePortalLoginMutation();
  const [error, setError] = useState<string | null>(null);

  const form = useLiteForm<PortalSignInValues>(
    { email: '', password: '' },
    signInChecks(t),
    async (values) => {
      setError(null);
      const result = await login({ email: values.email, password: values.password });
      if (result.data) {
        // a password staff set is changed first (the answer says so, or the student record does)
        const answer = result.data as { student: Student; must_change_password?: boolean };
        const must = answer.must_change_password === true || answer.student.must_change_password === true;
        const saved = studentSignedIn(dispatch, { ...answer.student, must_change_password: must });
        // the whole record (whether the information is submitted) for the screens' lock, read once a language
        // chosen on this page is saved to it
        void saved.then(() => refreshStudent(dispatch, { ...answer.student, must_change_password: must }));
        navigate(must ? '/password/change' : returnPath(params), { replace: true });
        return;
      }
      showSignInError(result.error, form, t, setError, { portal: true });
    },
  );

  return (
    <Panel>
      <h1 className="lite-title">{t('portal.login.title')}</h1>
      <p className="lite-secondary">{t('portal.login.help')}</p>
      {params.get('timeout') === '1' && (
        <Alert type="warning" title={t('serverMessages.sessionExpired')} data-testid="session-expired" />
      )}
      {error && <Alert type="error" title={error} data-testid="login-error" />}
      <form onSubmit={form.submit} noValidate>
        <SignInFields form={form} />
        <SubmitButton loading={isLoading}>{t('auth.login.submit')}</SubmitButton>
      </form>
      <div className="lite-links">
        <Link to="/password/forgot">{t('portal.password.forgotLink')}</Link>
      </div>
    </Panel>
  );
}

import { appActions } from '../../app/app-slice';
import type { AppDispatch } from '../../app/store';
import type { Student, User } from '../../app/types';
import { http, resetCsrfToken } from '../../http/client';
import { setLocale } from '../../i18n/i18n';
import { isLocale, rememberSignedOutChoice, takeSignedOutChoice } from '../../i18n/locale';
import type { Locale } from '../../../../shared/features';
import { clearAllRecent } from '../../components/resource/recent-records';

/**
 * The language after sign-in: the last explicit choice wins. A language chosen on the sign-in page (while signed
 * out) is used and saved to the account; otherwise the account's language is used. A failed save keeps the choice
 * for the next sign-in. `saved` settles when the save is done (a read of the account waits for it).
 */
function languageAtSignIn(
  accountLanguage: string,
  saveUrl: string,
): { language: Locale | null; saved: Promise<void> } {
  const chosen = takeSignedOutChoice();
  if (chosen && chosen !== accountLanguage) {
    const saved = http(saveUrl, { method: 'PUT', body: { language: chosen }, handleErrors: false }).then(
      () => undefined,
      () => rememberSignedOutChoice(chosen),
    );
    return { language: chosen, saved };
  }
  return { language: isLocale(accountLanguage) ? accountLanguage : null, saved: Promise.resolve() };
}

/**
 * After login or 2FA the session id changed: new CSRF token, hold the user, use the last chosen language. Settles
 * when a language chosen on the sign-in page is saved.
 */
export function userSignedIn(dispatch: AppDispatch, user: User): Promise<void> {
  resetCsrfToken();
  const { language, saved } = languageAtSignIn(user.language, '/api/user/profile');
  dispatch(appActions.setUser(language ? { ...user, language } : user));
  if (language) setLocale(language);
  return saved;
}

export function studentSignedIn(dispatch: AppDispatch, student: Student): Promise<void> {
  resetCsrfToken();
  const { language, saved } = languageAtSignIn(student.language, '/api/student/language');
  dispatch(appActions.setStudent(language ? { ...student, language } : student));
  if (language) setLocale(language);
  return saved;
}

/** Signing out forgets what the session showed: the recent-records lists go with it. */
export function signedOut(dispatch: AppDispatch): void {
  resetCsrfToken();
  clearAllRecent();
  dispatch(appActions.signedOut());
}

import { appActions } from '../../app/app-slice';
import type { AppDispatch } from '../../app/store';
import type { Student, User } from '../../app/types';
import { resetCsrfToken } from '../../http/client';
import { setLocale } from '../../i18n/i18n';
import { isLocale } from '../../i18n/locale';

/** After login or 2FA the session id changed: new CSRF token, hold the user, use their language. */
export function userSignedIn(dispatch: AppDispatch, user: User): void {
  resetCsrfToken();
  dispatch(appActions.setUser(user));
  if (isLocale(user.language)) setLocale(user.language);
}

export function studentSignedIn(dispatch: AppDispatch, student: Student): void {
  resetCsrfToken();
  dispatch(appActions.setStudent(student));
  if (isLocale(student.language)) setLocale(student.language);
}

export function signedOut(dispatch: AppDispatch): void {
  resetCsrfToken();
  dispatch(appActions.signedOut());
}

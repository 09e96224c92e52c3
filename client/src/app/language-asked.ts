import type { Locale } from '../../../shared/features';
import { http } from '../http/client';
import { setLocale } from '../i18n/i18n';
import { rememberSignedOutChoice } from '../i18n/locale';
import { appActions } from './app-slice';
import type { AppStore } from './store';

/**
 * A language asked for by the address (the spec's `language` route parameter) is an explicit choice, like the
 * language switch's (issue 31): it is shown and kept in local storage, and — the last explicit choice winning —
 * saved to the signed-in account (a staff member's profile, a student's row), or, while signed out, kept for the
 * next sign-in to use and save instead of the account's language.
 */
export function languageAsked(store: AppStore, locale: Locale): void {
  setLocale(locale);
  const { user, student } = store.getState().app;
  if (user) {
    if (user.language !== locale) {
      store.dispatch(appActions.setUser({ ...user, language: locale }));
      void http('/api/user/profile', {
        method: 'PUT',
        body: { language: locale },
        handleErrors: false,
      }).catch(() => undefined);
    }
  } else if (student) {
    if (student.language !== locale) {
      store.dispatch(appActions.setStudent({ ...student, language: locale }));
      void http('/api/student/language', {
        method: 'PUT',
        body: { language: locale },
        handleErrors: false,
      }).catch(() => undefined);
    }
  } else {
    rememberSignedOutChoice(locale);
  }
}

import { useTranslation } from 'react-i18next';
import type { Locale } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { accountApi } from '../../features/profile/profile-api';
import { setLocale } from '../../i18n/i18n';
import { rememberSignedOutChoice } from '../../i18n/locale';

/**
 * What choosing a language does (the header's switch and the sign-in frame's alike): it is the last explicit
 * choice, so it is kept in local storage and saved — a signed-in staff member's to their profile (`onNotSaved`
 * when that fails); while signed out, for the next sign-in to use and save; a student's through `onChange` (the
 * portal keeps it in the student's row).
 */
export function useLanguageChoice(
  options: { onChange?: (locale: Locale) => void; onNotSaved?: (text: string) => void } = {},
): { current: Locale; choose: (locale: Locale) => void } {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.app.user);
  const student = useAppSelector((s) => s.app.student);
  const current: Locale = i18n.language === 'en' ? 'en' : 'zh_HK';
  const notSaved =
    options.onNotSaved ??
    ((text: string) => dispatch(appActions.setNotification({ title: text, type: 'warning' })));

  const choose = (locale: Locale) => {
    setLocale(locale);
    options.onChange?.(locale);
    if (user) {
      dispatch(appActions.setUser({ ...user, language: locale }));
      void dispatch(accountApi.endpoints.updateProfile.initiate({ language: locale }))
        .unwrap()
        .catch(() => notSaved(t('language.notSaved')));
    } else if (!student) {
      rememberSignedOutChoice(locale);
    }
  };
  return { current, choose };
}

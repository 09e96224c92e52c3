import { App, Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { accountApi } from '../../features/profile/profile-api';
import { setLocale } from '../../i18n/i18n';
import { rememberSignedOutChoice } from '../../i18n/locale';

/**
 * Switches between English and Traditional Chinese. The choice is kept in local storage and is the last explicit
 * choice, so it is saved: a signed-in staff member's to their profile; while signed out, for the next sign-in to
 * use and save; a student's through `onChange` (the portal keeps it in the student's row).
 */
export function LanguageSwitch({
  onChange,
  compact = false,
}: {
  onChange?: (locale: Locale) => void;
  /** the globe alone (a phone's top bar), named for screen readers */
  compact?: boolean;
} = {}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.app.user);
  const student = useAppSelector((s) => s.app.student);
  const current = (i18n.language === 'en' ? 'en' : 'zh_HK') as Locale;

  const choose = (locale: Locale) => {
    setLocale(locale);
    onChange?.(locale);
    if (user) {
      dispatch(appActions.setUser({ ...user, language: locale }));
      void dispatch(accountApi.endpoints.updateProfile.initiate({ language: locale }))
        .unwrap()
        .catch(() => void message.error(t('language.notSaved')));
    } else if (!student) {
      rememberSignedOutChoice(locale);
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LOCALES.map((locale) => ({ key: locale, label: t(`language.${locale}`) })),
        onClick: ({ key }) => choose(key as Locale),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        // the globe alone is named; with the language shown, that name is what is read (and matches the text)
        aria-label={compact ? t('language.label') : undefined}
        title={t('language.label')}
        data-testid="language-switch"
      >
        {compact ? null : t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}

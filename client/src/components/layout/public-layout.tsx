import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../../../shared/features';
import { LanguageSelect } from '../lite';
import { StatusBanners } from '../lite/status-banners';
import { useLanguageChoice } from './use-language-choice';
import { MAIN_ID, SkipLink } from './skip-link';
import { useDocumentTitle } from './use-document-title';
import './layout.css';

/**
 * Frame of the sign-in screens: the product name, the language switch, and the screen in the middle. No antd
 * (the lite kit): it is on the first load. A screen inside built with antd brings antd's configuration with it
 * (app/routes/antd-page.ts).
 */
export function PublicLayout({
  appNameKey,
  onLanguageChange,
}: {
  appNameKey: string;
  /** the portal saves a signed-in student's choice to their row */
  onLanguageChange?: (locale: Locale) => void;
}) {
  const { t } = useTranslation();
  useDocumentTitle(appNameKey);
  const { current, choose } = useLanguageChoice({ onChange: onLanguageChange });
  return (
    <div className="app-public">
      <SkipLink />
      <StatusBanners />
      <header className="app-public__top">
        <span className="app-public__brand">{t(appNameKey)}</span>
        <LanguageSelect
          label={t('language.label')}
          value={current}
          options={LOCALES.map((locale) => ({ value: locale, label: t(`language.${locale}`) }))}
          onChange={choose}
        />
      </header>
      <main className="app-public__main" id={MAIN_ID} tabIndex={-1}>
        <div className="app-public__card">
          <Outlet />
        </div>
      </main>
    </div>
  );
}

export default function BackofficePublicLayout() {
  return <PublicLayout appNameKey="app.name" />;
}

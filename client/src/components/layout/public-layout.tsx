import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AntdProvider } from '../antd-provider';
import { LanguageSwitch } from './language-switch';
import { MAIN_ID, SkipLink } from './skip-link';
import { StatusBanners } from './status-banners';
import { useDocumentTitle } from './use-document-title';
import './layout.css';

/** Frame of the sign-in screens: the product name, the language switch, and the screen in the middle. */
export function PublicLayout({ appNameKey }: { appNameKey: string }) {
  const { t } = useTranslation();
  useDocumentTitle(appNameKey);
  return (
    <AntdProvider>
      <div className="app-public">
        <SkipLink />
        <StatusBanners />
        <header className="app-public__top">
          <span className="app-public__brand">{t(appNameKey)}</span>
          <LanguageSwitch />
        </header>
        <main className="app-public__main" id={MAIN_ID} tabIndex={-1}>
          <div className="app-public__card">
            <Outlet />
          </div>
        </main>
      </div>
    </AntdProvider>
  );
}

export default function BackofficePublicLayout() {
  return <PublicLayout appNameKey="app.name" />;
}

import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhHK from 'antd/locale/zh_HK';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-hk';
import { useTranslation } from 'react-i18next';
import { useAccessibleNames } from './accessible-names';
import { usePrefersReducedMotion } from './reduced-motion';

/**
 * Slate, the product's accent (spec §9: the progress bar is slate too). Text on the light backgrounds antd
 * derives from it is dark enough to read (WCAG 2.1 AA, 4.5:1): secondary text, the selected menu item, the
 * breadcrumbs.
 */
export const THEME = {
  token: {
    colorPrimary: '#475569',
    colorLink: '#475569',
    borderRadius: 6,
    // antd's secondary texts (0.45 black) and red read at 3:1 on white: darker, as in the portal
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorError: '#cf1322',
    // placeholders (antd's 0.25 black) and the default avatar behind white initials
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
    // a chosen row of a menu or a list (a dropdown's, a select's): the accent on a light slate
    controlItemBgActive: '#e2e8f0',
    controlItemBgActiveHover: '#cbd5e1',
  },
  components: {
    Menu: {
      itemSelectedBg: '#e2e8f0',
      itemSelectedColor: '#0f172a',
      subMenuItemSelectedColor: '#0f172a',
      itemActiveBg: '#e2e8f0',
    },
    Breadcrumb: {
      itemColor: '#475569',
      linkColor: '#475569',
      linkHoverColor: '#0f172a',
      separatorColor: '#475569',
      lastItemColor: '#1e293b',
    },
  },
};

/** The theme without antd's motion: for people whose system asks for less motion. */
const THEME_WITHOUT_MOTION = { ...THEME, token: { ...THEME.token, motion: false } };

/**
 * antd's configuration with its own locale following the interface language (`en_US`, `zh_HK`), and
 * dayjs's with it; no motion when the system asks for less. Lives in the (lazy) layouts so the first load does not
 * carry antd.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  useAccessibleNames();
  const reduceMotion = usePrefersReducedMotion();
  const english = i18n.language === 'en';
  const dayjsLocale = english ? 'en' : 'zh-hk';
  if (dayjs.locale() !== dayjsLocale) dayjs.locale(dayjsLocale);
  return (
    <ConfigProvider
      locale={english ? enUS : zhHK}
      theme={reduceMotion ? THEME_WITHOUT_MOTION : THEME}
      button={{ autoInsertSpace: false }}
    >
      <App>{children}</App>
    </ConfigProvider>
  );
}

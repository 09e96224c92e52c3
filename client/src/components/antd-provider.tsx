import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhHK from 'antd/locale/zh_HK';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-hk';
import { useTranslation } from 'react-i18next';

/** Slate, the product's accent (spec §9: the progress bar is slate too). */
export const THEME = { token: { colorPrimary: '#475569', colorLink: '#475569', borderRadius: 6 } };

/**
 * antd's configuration with its own locale following the interface language (`en_US`, `zh_HK`), and
 * dayjs's with it. Lives in the (lazy) layouts so the first load does not carry antd.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const english = i18n.language === 'en';
  const dayjsLocale = english ? 'en' : 'zh-hk';
  if (dayjs.locale() !== dayjsLocale) dayjs.locale(dayjsLocale);
  return (
    <ConfigProvider locale={english ? enUS : zhHK} theme={THEME} button={{ autoInsertSpace: false }}>
      <App>{children}</App>
    </ConfigProvider>
  );
}

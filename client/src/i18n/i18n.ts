import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '../../../shared/features';
import { en, zhHK } from '../locales';
import { getStoredLocale, htmlLang, storeLocale } from './locale';

export const resources = { en: { translation: en }, zh_HK: { translation: zhHK } } as const;

/** Initialise i18next once, synchronously, with the bundled strings and the given (or stored) locale. */
export function initI18n(locale: Locale = getStoredLocale()) {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
      lng: locale,
      fallbackLng: false,
      supportedLngs: ['en', 'zh_HK'],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  } else if (i18next.language !== locale) {
    void i18next.changeLanguage(locale);
  }
  applyDocumentLocale(locale);
  return i18next;
}

function applyDocumentLocale(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(locale);
}

/** Switch the interface language and keep it in local storage. */
export function setLocale(locale: Locale): void {
  storeLocale(locale);
  applyDocumentLocale(locale);
  if (i18next.language !== locale) void i18next.changeLanguage(locale);
}

export function currentLocale(): Locale {
  return i18next.language === 'en' ? 'en' : 'zh_HK';
}

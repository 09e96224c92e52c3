import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '../../../shared/features';
import type { Dictionary } from '../locales/catalogue';
import { getStoredLocale, htmlLang, storeLocale } from './locale';

/**
 * Each language's catalogue is a chunk of its own (locales/en.ts, locales/zh_HK.ts), loaded the first time the
 * language is used: the first load carries only the language in use, and a switch loads the other before
 * anything on screen changes (the `<html lang>` and the texts change together, once it is there).
 */
const LOADERS: Record<Locale, () => Promise<Dictionary>> = {
  en: () => import('../locales/en').then((m) => m.en),
  zh_HK: () => import('../locales/zh_HK').then((m) => m.zhHK),
};
const catalogues = new Map<Locale, Dictionary>();
const loading = new Map<Locale, Promise<void>>();
/** the language last asked for: a slower load of an earlier choice does not win over it */
let wanted: Locale | null = null;
let ready: Promise<void> = Promise.resolve();

/** Makes a language's catalogue available now (the tests' setup adds both; the app adds each as it loads). */
export function addCatalogue(locale: Locale, catalogue: Dictionary): void {
  catalogues.set(locale, catalogue);
  if (i18next.isInitialized) i18next.addResourceBundle(locale, 'translation', catalogue, true, true);
}

function loadCatalogue(locale: Locale): Promise<void> {
  if (catalogues.has(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = LOADERS[locale]()
      .then((catalogue) => addCatalogue(locale, catalogue))
      .finally(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending;
}

/** Shows `locale`: at once when its catalogue is at hand, else once it is loaded (a failed load changes nothing). */
function show(locale: Locale): Promise<void> {
  wanted = locale;
  const apply = (loadedNow: boolean) => {
    if (wanted !== locale) return;
    applyDocumentLocale(locale);
    // just loaded: told again even when i18next already had the language, so the screen reads the texts
    if (loadedNow || i18next.language !== locale) void i18next.changeLanguage(locale);
  };
  if (catalogues.has(locale)) {
    apply(false);
    return Promise.resolve();
  }
  return loadCatalogue(locale).then(
    () => apply(true),
    () => undefined,
  );
}

/**
 * Initialise i18next once, synchronously, with the catalogues at hand and the given (or stored) locale; its
 * catalogue is loaded if it is not at hand yet (`i18nReady` settles then).
 */
export function initI18n(locale: Locale = getStoredLocale()) {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: Object.fromEntries([...catalogues].map(([l, c]) => [l, { translation: c }])),
      lng: locale,
      fallbackLng: false,
      supportedLngs: ['en', 'zh_HK'],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  }
  ready = show(locale);
  return i18next;
}

/** Settles when the language `initI18n` was given can be shown (its catalogue loaded, or failed to). */
export function i18nReady(): Promise<void> {
  return ready;
}

function applyDocumentLocale(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(locale);
}

/**
 * Switch the interface language and keep it in local storage: at once when its catalogue is at hand, else once
 * the other language's catalogue is loaded.
 */
export function setLocale(locale: Locale): void {
  storeLocale(locale);
  void show(locale);
}

export function currentLocale(): Locale {
  return i18next.language === 'en' ? 'en' : 'zh_HK';
}

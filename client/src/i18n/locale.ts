import { LOCALES, type Locale } from '../../../shared/features';
import { readString, STORAGE_KEYS, writeJson, writeString } from '../app/storage';

/** The staff interface (and the portal) start in Traditional Chinese (spec §1, §9). */
export const DEFAULT_LOCALE: Locale = 'zh_HK';

/** In routing the default is en and zh_HK is written `zh` (spec §1, §9). */
export type RouterLocale = 'en' | 'zh';
export const ROUTER_DEFAULT_LOCALE: RouterLocale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function toRouterLocale(locale: string | null | undefined): RouterLocale {
  return locale === 'zh_HK' ? 'zh' : ROUTER_DEFAULT_LOCALE;
}

/** A `language` route parameter as a locale: `zh` (or `zh_HK`) → zh_HK, anything else → the router default, en. */
export function fromRouterLocale(param: string | null | undefined): Locale {
  return param === 'zh' || param === 'zh_HK' ? 'zh_HK' : 'en';
}

/** The locale kept in local storage, or the default when none (or junk) is stored. */
export function getStoredLocale(): Locale {
  const stored = readString(STORAGE_KEYS.locale);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

export function storeLocale(locale: Locale): void {
  writeString(STORAGE_KEYS.locale, locale);
}

/** Where a language chosen while signed out waits for the next sign-in. */
export const SIGNED_OUT_CHOICE_KEY = 'locale_chosen';

/**
 * A language chosen while signed out (the sign-in page's switch). It is the last explicit choice, so the next
 * sign-in uses it and saves it to the account instead of the account's language.
 */
export function rememberSignedOutChoice(locale: Locale): void {
  writeString(SIGNED_OUT_CHOICE_KEY, locale);
}

/** The language chosen while signed out, if any; taken once (it is forgotten). */
export function takeSignedOutChoice(): Locale | null {
  const chosen = readString(SIGNED_OUT_CHOICE_KEY);
  writeJson(SIGNED_OUT_CHOICE_KEY, null);
  return isLocale(chosen) ? chosen : null;
}

/** The locale a URL's `language` parameter asks for, or null when it has none. */
export function localeFromSearch(search: string): Locale | null {
  const param = new URLSearchParams(search).get('language');
  return param === null ? null : fromRouterLocale(param);
}

/** BCP 47 tag for `<html lang>` and dayjs. */
export function htmlLang(locale: Locale): string {
  return locale === 'zh_HK' ? 'zh-HK' : 'en';
}

import i18next from 'i18next';
import { createMemoryRouter } from 'react-router-dom';
import { watchNavigation } from '../app/navigation';
import { makeStore } from '../app/store';
import { STORAGE_KEYS } from '../app/storage';
import { currentLocale, initI18n, setLocale } from './i18n';
import {
  DEFAULT_LOCALE,
  fromRouterLocale,
  getStoredLocale,
  localeFromSearch,
  ROUTER_DEFAULT_LOCALE,
  toRouterLocale,
} from './locale';

describe('locale rules (spec §1, §9)', () => {
  afterEach(() => initI18n('en'));

  it('the staff interface defaults to zh_HK when nothing is stored', () => {
    expect(DEFAULT_LOCALE).toBe('zh_HK');
    expect(getStoredLocale()).toBe('zh_HK');
  });

  it('keeps the chosen locale in local storage', () => {
    setLocale('en');
    expect(window.localStorage.getItem(STORAGE_KEYS.locale)).toBe('en');
    expect(getStoredLocale()).toBe('en');
    setLocale('zh_HK');
    expect(window.localStorage.getItem(STORAGE_KEYS.locale)).toBe('zh_HK');
    expect(i18next.language).toBe('zh_HK');
    expect(document.documentElement.lang).toBe('zh-HK');
    expect(i18next.t('auth.login.title')).toBe('登入');
  });

  it('ignores an unknown stored locale', () => {
    window.localStorage.setItem(STORAGE_KEYS.locale, 'fr');
    expect(getStoredLocale()).toBe('zh_HK');
  });

  it('the router defaults to en and writes zh_HK as zh', () => {
    expect(ROUTER_DEFAULT_LOCALE).toBe('en');
    expect(toRouterLocale('zh_HK')).toBe('zh');
    expect(toRouterLocale('en')).toBe('en');
    expect(toRouterLocale(undefined)).toBe('en');
    expect(fromRouterLocale('zh')).toBe('zh_HK');
    expect(fromRouterLocale('zh_HK')).toBe('zh_HK');
    expect(fromRouterLocale('en')).toBe('en');
    expect(fromRouterLocale('xx')).toBe('en');
    expect(fromRouterLocale(null)).toBe('en');
  });

  it('reads the language route parameter', () => {
    expect(localeFromSearch('?language=zh')).toBe('zh_HK');
    expect(localeFromSearch('?page=2&language=en')).toBe('en');
    expect(localeFromSearch('?page=2')).toBeNull();
  });

  it('a language route parameter sets the stored locale when navigating', async () => {
    setLocale('en');
    const store = makeStore('backoffice');
    const router = createMemoryRouter([{ path: '*', element: null }], { initialEntries: ['/login'] });
    const stop = watchNavigation(router, store);
    await router.navigate('/login?language=zh');
    expect(getStoredLocale()).toBe('zh_HK');
    expect(currentLocale()).toBe('zh_HK');
    await router.navigate('/test?language=en');
    expect(getStoredLocale()).toBe('en');
    stop();
  });
});

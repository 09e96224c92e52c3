import { waitFor } from '@testing-library/react';

type I18nModule = typeof import('./i18n');

/**
 * A fresh i18n module and i18next, started in `locale` with no catalogue at hand (the test setup's both are in
 * the shared module registry).
 */
async function fresh(locale: 'en' | 'zh_HK') {
  let i18n: I18nModule | undefined;
  await jest.isolateModulesAsync(async () => {
    i18n = await import('./i18n');
  });
  return { i18n: i18n!, i18next: i18n!.initI18n(locale) };
}

describe('the catalogues, one language at a time', () => {
  it('loads only the language in use, and the other when the user switches to it', async () => {
    const { i18n, i18next } = await fresh('zh_HK');
    await i18n.i18nReady();
    expect(i18next.t('auth.login.title')).toBe('登入');
    expect(document.documentElement.lang).toBe('zh-HK');
    // the first load carries one language
    expect(i18next.hasResourceBundle('zh_HK', 'translation')).toBe(true);
    expect(i18next.hasResourceBundle('en', 'translation')).toBe(false);

    i18n.setLocale('en');
    // nothing changes until English is there, then the texts and <html lang> change together
    expect(i18next.language).toBe('zh_HK');
    await waitFor(() => expect(i18next.t('auth.login.title')).toBe('Sign in'));
    expect(document.documentElement.lang).toBe('en');
    expect(window.localStorage.getItem('locale')).toBe('en');

    // back again: at hand, at once
    i18n.setLocale('zh_HK');
    expect(i18next.t('auth.login.title')).toBe('登入');
  });

  it('the last choice wins when an earlier one is still loading', async () => {
    const { i18n, i18next } = await fresh('zh_HK');
    await i18n.i18nReady();
    i18n.setLocale('en'); // loading
    i18n.setLocale('zh_HK'); // at hand: shown at once
    await waitFor(() => expect(i18next.hasResourceBundle('en', 'translation')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(i18next.language).toBe('zh_HK');
    expect(document.documentElement.lang).toBe('zh-HK');
  });
});

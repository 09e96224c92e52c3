import type { Page } from 'playwright-core';
import { apiCall, answerOf, firstId, menuName, signInAdmin, switchLanguage, type Lang } from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Preferences in each language (issue 15): the language chosen on the sign-in page wins over the account's and is
 * saved to it (still there after signing out and in again), the header's switch is saved to the account too; a
 * time on screen (the profile's browser sessions) is Hong Kong time, not UTC; the profile's unsaved-changes guard;
 * the profile photo removed only once confirmed.
 */

const TEXT = {
  en: {
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    name: 'Name',
    unsavedTitle: 'You have unsaved changes',
    stay: 'Stay',
    leave: 'Leave',
    apiTokens: 'API tokens',
    profile: 'Profile',
    tokenName: 'Name',
    remove: 'Remove photo',
    removeConfirm: 'Remove your profile photo?',
    cancel: 'Cancel',
    none: 'No photo yet.',
  },
  zh_HK: {
    email: '電郵',
    password: '密碼',
    signIn: '登入',
    name: '姓名',
    unsavedTitle: '尚有未儲存的變更',
    stay: '留在此頁',
    leave: '離開',
    apiTokens: 'API 權杖',
    profile: '個人資料',
    tokenName: '名稱',
    remove: '移除相片',
    removeConfirm: '要移除您的個人相片嗎？',
    cancel: '取消',
    none: '尚未上載相片。',
  },
} as const;

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', zh_HK: '繁體中文' };
const htmlLang = (lang: Lang) => (lang === 'en' ? 'en' : 'zh-HK');
const other = (lang: Lang): Lang => (lang === 'en' ? 'zh_HK' : 'en');

// page.waitForFunction runs in the browser; the e2e code is type-checked without DOM types.
declare const document: { documentElement: { lang: string }; querySelector(selector: string): unknown };

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The journey's own staff user, one per language: it changes its account's language and photo, and the demo
 * admin's stay as the journeys after it expect them, even when this one fails halfway.
 */
const person = (lang: Lang) => ({
  email: `preferences-${lang.toLowerCase().replace('_', '-')}@example.com`,
  password: 'Prefer1234',
});

async function signInHere(page: Page, lang: Lang, as: Lang): Promise<void> {
  const t = TEXT[lang];
  await page.getByLabel(t.email).fill(person(as).email);
  await page.getByLabel(t.password, { exact: true }).fill(person(as).password);
  await page.getByRole('button', { name: t.signIn, exact: true }).click();
  await page.getByTestId('user-menu').waitFor();
}

/** Opens the top bar's user menu and chooses one of its entries. */
async function fromUserMenu(page: Page, label: string): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page
    .getByTestId('user-menu-panel')
    .getByRole('menuitem', { name: menuName(label) })
    .click();
}

async function profileLanguage(page: Page): Promise<string> {
  const res = await apiCall(page, 'GET', '/api/user/profile');
  return (JSON.parse(res.body) as { user: { language: string } }).user.language;
}

async function signOut(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/logout`);
  await page.waitForURL((url) => url.pathname === '/login');
}

/** `YYYY-MM-DD HH:mm` read as Hong Kong time (UTC+8, no daylight saving), in ms since the epoch. */
function hongKongMs(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}:00+08:00`);
}

function preferencesJourney(server: RunningServer, lang: Lang): Journey {
  const t = TEXT[lang];
  const base = server.staffUrl;
  return {
    name: `preferences (${lang}): the language chosen on sign-in is kept and saved, the header's switch saved; Hong Kong time; the profile's unsaved guard; photo removal confirmed`,
    run: async (page) => {
      // the journey's own user, whose account's language is the other one to begin with
      await signInAdmin(page, base, lang);
      const me = person(lang);
      const created = await apiCall(page, 'POST', '/api/users', {
        role_id: await firstId(page, '/api/roles', 'Consultant'),
        branch_id: await firstId(page, '/api/branches', 'MK'),
        name: `Preferences ${lang}`,
        email: me.email,
        password: me.password,
        password_confirmation: me.password,
        language: other(lang),
      });
      check(created.status === 201, `the journey's user created: ${created.status} ${created.body}`);
      await signOut(page, base);
      // 1. chosen on the sign-in page: used after sign-in and saved to the account
      await page.goto(`${base}/login`);
      await page.getByTestId('language-switch').selectOption({ label: LANGUAGE_NAMES[lang] });
      await page.waitForFunction((l) => document.documentElement.lang === l, htmlLang(lang));
      await signInHere(page, lang, lang);
      check(
        (await page.getAttribute('html', 'lang')) === htmlLang(lang),
        `after sign-in the interface should stay in ${lang}`,
      );
      check((await profileLanguage(page)) === lang, `the choice saved to the account (${lang})`);

      // 2. signed out and in again, no choice made: still that language
      await signOut(page, base);
      await signInHere(page, lang, lang);
      check(
        (await page.getAttribute('html', 'lang')) === htmlLang(lang),
        `after signing out and in the interface should still be ${lang}`,
      );

      // 3. the header's switch is saved to the account
      const saved = answerOf(page, 'PUT', '/api/user/profile', () => switchLanguage(page, other(lang)));
      check((await saved).status() === 200, 'the header switch saved');
      check((await profileLanguage(page)) === other(lang), 'the header choice saved to the account');
      await switchLanguage(page, lang);
      check((await profileLanguage(page)) === lang, `the header choice (${lang}) saved back`);

      // 4. a time on screen is Hong Kong time: this session's last activity is now, read as +08:00
      await page.goto(`${base}/user/profile`);
      const sessions = page.getByTestId('sessions-section');
      await sessions.locator('.ant-table-row').first().waitFor();
      const shown = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.exec((await sessions.innerText()) ?? '')?.[0];
      check(shown, 'a last-activity time in the browser sessions');
      const offMinutes = Math.abs(hongKongMs(shown) - Date.now()) / 60_000;
      // UTC shown would be 8 hours (480 minutes) off
      check(
        offMinutes < 30,
        `the session's time ${shown} is not Hong Kong time (${offMinutes.toFixed(0)} min off now)`,
      );
      await page.screenshot({ path: outputPath(`preferences-profile-${lang}.png`), fullPage: true });

      // 5. the profile's unsaved-changes guard: asks before leaving, Stay keeps the page and the typing
      const info = page.getByTestId('profile-information');
      const name = info.getByLabel(t.name, { exact: true });
      // typed once the screen has settled: a profile answer still arriving would refill the form under the typing
      await page.waitForLoadState('networkidle');
      const before = await name.inputValue();
      await name.fill(`${before} (typed)`);
      await fromUserMenu(page, t.apiTokens);
      const guard = page.getByRole('dialog').filter({ hasText: t.unsavedTitle });
      await guard.waitFor();
      // the dialog's opening animation over (for the screenshot)
      await page.waitForFunction(() => !document.querySelector('.ant-zoom-appear, .ant-zoom-enter'));
      await page.screenshot({ path: outputPath(`preferences-unsaved-${lang}.png`) });
      await guard.getByRole('button', { name: t.stay }).click();
      await guard.waitFor({ state: 'hidden' });
      check(new URL(page.url()).pathname === '/user/profile', 'Stay keeps the profile open');
      check((await name.inputValue()) === `${before} (typed)`, 'Stay keeps what was typed');
      // leaving anyway discards it
      await fromUserMenu(page, t.apiTokens);
      await guard.getByRole('button', { name: t.leave }).click();
      await page.waitForURL((url) => url.pathname === '/user/api-tokens');

      // the API-token form has the guard too
      // (read in the API-token form itself: the URL changes a moment before the screen does, and in English the
      // profile's field on the screen being left is labelled "Name" too)
      await page
        .locator('form#create-api-token')
        .getByLabel(t.tokenName, { exact: true })
        .fill('typed, not created');
      await fromUserMenu(page, t.profile);
      await guard.waitFor();
      await guard.getByRole('button', { name: t.stay }).click();
      await guard.waitFor({ state: 'hidden' });
      check(new URL(page.url()).pathname === '/user/api-tokens', 'Stay keeps the API tokens open');
      await fromUserMenu(page, t.profile);
      await guard.getByRole('button', { name: t.leave }).click();
      await page.waitForURL((url) => url.pathname === '/user/profile');

      // 6. the photo is removed only once confirmed
      await page.goto(`${base}/user/profile`);
      await page.waitForLoadState('networkidle');
      const photo = page.getByTestId('profile-photo-section');
      const uploaded = await answerOf(page, 'POST', '/api/user/profile-photo', () =>
        photo
          .locator('input[type=file]')
          .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG }),
      );
      check(uploaded.status() === 201, `the photo uploaded: ${uploaded.status()}`);
      await photo.getByRole('button', { name: t.remove }).click();
      const confirm = page.locator('.ant-popconfirm').filter({ hasText: t.removeConfirm });
      await confirm.waitFor();
      await page.screenshot({ path: outputPath(`preferences-photo-confirm-${lang}.png`) });
      await confirm.getByRole('button', { name: t.cancel }).click();
      await confirm.waitFor({ state: 'hidden' });
      check((await photo.getByText(t.none).count()) === 0, 'cancelling the confirmation keeps the photo');
      const stillThere = await apiCall(page, 'GET', '/api/user');
      check(
        (JSON.parse(stillThere.body) as { user: { profile_photo_url: string | null } }).user
          .profile_photo_url !== null,
        'the photo is still on the server after cancelling',
      );
      await photo.getByRole('button', { name: t.remove }).click();
      const removed = await answerOf(page, 'DELETE', '/api/user/profile-photo', () =>
        confirm.getByRole('button', { name: t.remove }).click(),
      );
      check(removed.status() === 204, `the photo removed once confirmed: ${removed.status()}`);
      await photo.getByText(t.none).waitFor();
    },
  };
}

export function preferencesJourneys(server: RunningServer): Journey[] {
  return [preferencesJourney(server, 'en'), preferencesJourney(server, 'zh_HK')];
}

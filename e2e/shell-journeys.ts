import type { Page } from 'playwright-core';
import { ADMIN, menuName, rowOf, signInAdmin, type Lang } from './actions';
import { seriousViolations } from './axe';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * The shell as a new user meets it (issue 15), in both languages: where sign-in lands and the start page, the
 * not-found screen's way home, "Reload view", a refused list query and a malformed address inside the shell,
 * "Try again" after a lost connection, /register while registration is closed, and a menu without the showcase.
 */

const TEXT = {
  en: {
    welcome: `Welcome, Demo Admin`,
    today: 'Today',
    recent: 'Recently opened',
    shortcuts: 'Shortcuts',
    calendar: 'Calendar',
    notFound: 'Page not found',
    home: 'Back to home',
    retry: 'Try again',
    noConnection: 'No connection',
    reload: 'Reload view',
    profile: 'Profile',
    search: 'Search',
    tooLong: 'May not be longer than 200 characters.',
    components: 'Components',
    closed: 'Registration is closed',
    signIn: 'Go to sign in',
    users: 'Users',
  },
  zh_HK: {
    welcome: `歡迎，Demo Admin`,
    today: '今天',
    recent: '最近開啟',
    shortcuts: '捷徑',
    calendar: '日曆',
    notFound: '找不到頁面',
    home: '返回首頁',
    retry: '重試',
    noConnection: '無法連線',
    reload: '重新載入畫面',
    profile: '個人資料',
    search: '搜尋',
    tooLong: '不可多於 200 個字元。',
    components: '元件',
    closed: '暫停註冊',
    signIn: '前往登入',
    users: '使用者',
  },
} as const;

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** The shell is on screen: the left menu and the header's user menu. */
async function shellStays(page: Page, where: string): Promise<void> {
  check(await page.getByTestId('left-menu').isVisible(), `the menu should stay (${where})`);
  check(await page.getByTestId('user-menu').isVisible(), `the header should stay (${where})`);
}

/** axe-core's serious and critical violations on the screen as it is: none. */
async function accessible(page: Page, where: string): Promise<void> {
  const found = await seriousViolations(page);
  check(
    found.length === 0,
    `axe on ${where}: ${found.map((v) => `${v.id} (${v.targets.join(', ')})`).join('; ')}`,
  );
}

/** React's "maximum update depth" (#185) and the router's caught render errors surface as console errors. */
function watchRenderErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      /#185|Maximum update depth|caught the following error/.test(message.text())
    )
      errors.push(message.text().slice(0, 200));
  });
  return errors;
}

export function shellJourneys(server: RunningServer): Journey[] {
  const base = server.staffUrl;
  return (['en', 'zh_HK'] as const).flatMap((lang: Lang): Journey[] => {
    const t = TEXT[lang];
    return [
      {
        name: `shell (${lang}): /register while registration is closed says so, with the way to sign in`,
        async run(page) {
          // registration is off on this server
          await page.goto(`${base}/register?language=${lang === 'en' ? 'en' : 'zh'}`);
          await page.getByRole('heading', { level: 1, name: t.closed }).waitFor();
          check(!(await page.getByText(t.notFound).count()), '/register is no not-found screen');
          await page.screenshot({ path: outputPath(`shell-register-closed-${lang}.png`), fullPage: true });
          await accessible(page, '/register (closed)');
          await page.getByRole('link', { name: t.signIn }).click();
          await page.waitForURL((url) => url.pathname === '/login');
        },
      },
      {
        name: `shell (${lang}): sign-in lands on the calendar, /home is the start page, no Components in the menu`,
        async run(page) {
          await signInAdmin(page, base, lang);
          check(
            new URL(page.url()).pathname === '/calendar',
            `sign-in lands on /calendar, not ${page.url()}`,
          );
          await page.getByTestId('calendar-basic').waitFor();

          // the showcase keeps its routes but is in no menu
          check(
            (await page.getByTestId('left-menu').getByText(t.components, { exact: true }).count()) === 0,
            'no Components group in the menu',
          );
          await page.goto(`${base}/components/tables`);
          await page.waitForURL((url) => url.pathname === '/components/tables');
          await page.getByTestId('left-menu').waitFor();

          // a list opened once is among the recent records
          await page.goto(`${base}/settings/users`);
          await rowOf(page, ADMIN.email);
          await page.goto(`${base}/home`);
          await page.getByRole('heading', { level: 1, name: t.welcome }).waitFor();
          const today = page.getByTestId('home-today');
          await today.getByRole('heading', { name: t.today }).waitFor();
          await today.getByRole('link', { name: t.calendar }).waitFor();
          const recent = page.getByTestId('home-recent');
          await recent.getByRole('heading', { name: t.recent }).waitFor();
          await recent.getByRole('link', { name: t.users }).waitFor();
          await page.getByRole('heading', { name: t.shortcuts }).waitFor();
          await page.getByTestId('home-links').getByRole('link', { name: t.users }).waitFor();
          await page.screenshot({ path: outputPath(`shell-home-${lang}.png`), fullPage: true });
          await accessible(page, '/home');
          await today.getByRole('link', { name: t.calendar }).click();
          await page.waitForURL((url) => url.pathname === '/calendar');
        },
      },
      {
        name: `shell (${lang}): not found inside the shell, "Back to home" goes to /home; Reload view reopens the screen`,
        async run(page) {
          const renderErrors = watchRenderErrors(page);
          await signInAdmin(page, base, lang);

          await page.goto(`${base}/no/such/screen`);
          await page.getByText(t.notFound).waitFor();
          await shellStays(page, 'unknown path');
          await accessible(page, 'the not-found screen');
          await page.getByRole('button', { name: t.home }).click();
          await page.waitForURL((url) => url.pathname === '/home');
          await page.getByTestId('home-page').waitFor();

          // a malformed id (the API answers 422): the not-found screen, in the shell
          await page.goto(`${base}/settings/users/abc`);
          await page.getByTestId('error-screen-404').waitFor();
          await shellStays(page, '/settings/users/abc');
          await page.screenshot({ path: outputPath(`shell-bad-id-${lang}.png`), fullPage: true });
          check((await page.title()).startsWith(t.notFound), `the tab says not found: ${await page.title()}`);
          // a record page reading its own record (tabs as path segments): the same
          await page.goto(`${base}/schools/basic/abc`);
          await page.getByTestId('error-screen-404').waitFor();
          await shellStays(page, '/schools/basic/abc');

          await page.goto(`${base}/settings/users`);
          await rowOf(page, ADMIN.email);
          await page.getByRole('button', { name: t.reload }).click();
          await page.waitForURL((url) => url.pathname === '/settings/users' && url.search === '');
          await rowOf(page, ADMIN.email);
          await page.getByRole('button', { name: t.reload }).click();
          await rowOf(page, ADMIN.email);
          check(renderErrors.length === 0, `no render loop: ${renderErrors.join(' | ')}`);
          await shellStays(page, 'after Reload view');
          check(pathOf(page) === '/settings/users', `Reload view stays on the list, not ${pathOf(page)}`);
        },
      },
      {
        name: `shell (${lang}): a 300-character search is refused beside the search box, the list stays usable`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/users`);
          await rowOf(page, ADMIN.email);
          const search = page.getByRole('searchbox', { name: t.search });
          await search.fill('x'.repeat(300));
          await search.press('Enter');
          const refused = page.getByTestId('query-refused-q');
          await refused.waitFor();
          check((await refused.innerText()).includes(t.tooLong), `the message: ${await refused.innerText()}`);
          await shellStays(page, 'refused search');
          check(!(await page.getByTestId('resource-load-failed').count()), 'no "could not be read" banner');
          await accessible(page, 'a refused search');
          // the list's header stays in view as the page scrolls (antd's sticky header)
          await page.locator('.ant-table-sticky-holder').first().waitFor();
          await page.screenshot({ path: outputPath(`shell-refused-search-${lang}.png`), fullPage: true });

          await search.fill('admin@');
          await search.press('Enter');
          await refused.waitFor({ state: 'detached' });
          await rowOf(page, ADMIN.email);
        },
      },
      {
        name: `shell (${lang}): a system asking for less motion gets menus and dialogs that open and close at once; otherwise they animate`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/home`);
          await page.getByTestId('user-menu').waitFor();
          // every CSS animation the page starts from now on
          await page.evaluate(() => {
            const w = globalThis as unknown as { animations: number; document: EventTarget };
            w.animations = 0;
            w.document.addEventListener('animationstart', () => (w.animations += 1), true);
          });
          const animations = () =>
            page.evaluate(() => (globalThis as unknown as { animations: number }).animations);
          const panel = page.getByTestId('user-menu-panel');
          const openAndClose = async () => {
            await page.getByTestId('user-menu').click();
            await panel.getByRole('menuitem', { name: menuName(t.profile) }).waitFor();
            await page.keyboard.press('Escape');
            await panel.waitFor({ state: 'hidden' });
          };

          await page.emulateMedia({ reducedMotion: 'reduce' });
          await openAndClose();
          check((await animations()) === 0, `no animation with less motion asked for: ${await animations()}`);

          await page.emulateMedia({ reducedMotion: 'no-preference' });
          await openAndClose();
          check((await animations()) > 0, 'the menu animates when no less motion is asked for');
        },
      },
      {
        name: `shell (${lang}): "Try again" after a lost connection retries the screen that failed`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/users`);
          await rowOf(page, ADMIN.email);
          const record = '**/api/users/1?*';
          await page.route('**/api/users/1', (route) => route.abort('internetdisconnected'));
          await page.route(record, (route) => route.abort('internetdisconnected'));
          await page.locator('a[href="/settings/users/1"]').first().click();
          await page.waitForURL((url) => url.pathname === '/error-no-connection');
          await page.getByText(t.noConnection).waitFor();
          await page.unrouteAll();
          await page.getByRole('button', { name: t.retry }).click();
          await page.waitForURL((url) => url.pathname === '/settings/users/1');
          await page.getByRole('textbox').first().waitFor();
          await shellStays(page, 'after Try again');
        },
      },
    ];
  });
}

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { signInAdmin, switchLanguage, type Lang } from './actions';
import { seriousViolations } from './axe';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Accessibility of every screen, as axe-core and a keyboard meet it, in both languages: the public pages, then,
 * signed in as the demo admin, every back-office route of the route table without a `:param` and a record of
 * each list that has one. On each: no serious or critical axe violation (WCAG 2.1 A and AA), exactly one `h1`,
 * no control inside another (a button inside a link); on the back-office's: the landmarks (`header`, `nav`,
 * `main`) and breadcrumbs. The skip link is the first thing the keyboard reaches and lands in `main`.
 */

// page.evaluate / waitForFunction run in the browser; the e2e code is type-checked without DOM types.
declare const document: {
  getAnimations(): { effect: { getTiming(): { iterations?: number } } | null }[];
  body: { setAttribute(n: string, v: string): void; removeAttribute(n: string): void; focus(): void };
  querySelector(s: string): { textContent: string | null } | null;
  querySelectorAll(s: string): { length: number };
  activeElement: { id: string; className: string; textContent: string | null } | null;
};

interface RouteRow {
  path: string;
  access: string;
  redirectTo?: string;
}

/** The back-office route table, as the client has it (read at run time: the e2e code is type-checked apart). */
async function backofficePaths(): Promise<string[]> {
  const file = resolve(import.meta.dirname, '..', 'client', 'src', 'app', 'routes', 'backoffice-routes.ts');
  const table = ((await import(pathToFileURL(file).href)) as { backofficeRoutes: { routes: RouteRow[] } })
    .backofficeRoutes;
  return table.routes
    .filter((r) => r.access === 'signed-in' && !r.redirectTo && !r.path.includes(':'))
    .map((r) => r.path)
    .filter((p) => p !== '/logout' && p !== '/reload');
}

const USER_MENU = {
  en: ['Profile', 'API tokens', 'Sign out'],
  zh_HK: ['個人資料', 'API 權杖', '登出'],
} as const;
const SKIP = { en: 'Skip to main content', zh_HK: '跳至主要內容' } as const;

/** The screen once it has drawn: its h1 there, nothing loading. */
async function settled(page: Page): Promise<void> {
  await page
    .locator('h1')
    .first()
    .waitFor()
    .catch(async (error: unknown) => {
      const text = (
        await page
          .locator('body')
          .innerText()
          .catch(() => '')
      ).slice(0, 300);
      throw new Error(
        `${new URL(page.url()).pathname}: no h1 shows (${String(error).split('\n')[0]}); the page says: ${text}`,
      );
    });
  await page.waitForFunction(
    () => document.querySelectorAll('[aria-busy="true"], .ant-spin-spinning').length === 0,
  );
  // colours are read once they have arrived: no transition or fade still running (a spinner's endless turn aside)
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.effect?.getTiming().iterations === Infinity),
  );
}

/** What is wrong with the screen as it is now, one line a problem. */
async function problems(page: Page, where: string, backOffice: boolean): Promise<string[]> {
  const found: string[] = [];
  for (const v of await seriousViolations(page))
    found.push(`${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(' | ')}`);
  const h1 = await page.locator('h1').count();
  if (h1 !== 1) found.push(`${where}: ${h1} h1 elements, not one`);
  const nested = await page.evaluate(
    () => document.querySelectorAll('a button, a a, button a, button button, a [role="button"]').length,
  );
  if (nested) found.push(`${where}: ${nested} controls inside a link or a button`);
  // a name read out in Chinese is Chinese: no English word left as an accessible name (an icon's own name included)
  if (where.endsWith('(zh_HK)')) {
    const english = await page
      .locator('[aria-label]:not([aria-hidden="true"] *):not([aria-hidden="true"])')
      .evaluateAll((elements) =>
        elements
          .map(
            (e) =>
              (e as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-label') ?? '',
          )
          .filter(
            (label) => /^[A-Za-z][A-Za-z .-]*$/.test(label) && !/^(API|PDF|XLSX|CSV|URL|ID)$/.test(label),
          ),
      );
    if (english.length) found.push(`${where}: English accessible names: ${[...new Set(english)].join(', ')}`);
  }
  if (backOffice) {
    for (const landmark of ['header', 'nav', 'main'])
      if ((await page.locator(landmark).count()) === 0) found.push(`${where}: no ${landmark} landmark`);
    if ((await page.locator('main nav.ant-breadcrumb').count()) !== 1)
      found.push(`${where}: no breadcrumbs in the page header`);
  }
  return found;
}

/** The skip link: the first Tab reaches it, Enter puts the focus in `main`. */
async function skipLinkProblems(page: Page, where: string, lang: Lang): Promise<string[]> {
  // from the top of the page, nothing focused (a sign-in page puts the focus in its first field)
  // (focusing the body moves the keyboard's starting point there: a blur alone would leave it in that field)
  await page.evaluate(() => {
    document.body.setAttribute('tabindex', '-1');
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement?.textContent ?? '');
  if (first !== SKIP[lang]) return [`${where}: the first Tab reaches "${first}", not the skip link`];
  await page.keyboard.press('Enter');
  const focused = await page.evaluate(() => document.activeElement?.id ?? '');
  return focused === 'main-content' ? [] : [`${where}: the skip link leaves the focus on "${focused}"`];
}

function publicJourney(server: RunningServer, lang: Lang): Journey {
  return {
    name: `a11y: the public pages in ${lang} (sign-in, password reset, registration, portal sign-in)`,
    async run(page) {
      const found: string[] = [];
      const screens = [
        `${server.staffUrl}/login`,
        `${server.staffUrl}/password/reset`,
        `${server.staffUrl}/register`,
        `${server.portalUrl}/login`,
      ];
      for (const url of screens) {
        await page.goto(url);
        await switchLanguage(page, lang);
        await settled(page);
        const where = `${new URL(url).host}${new URL(url).pathname} (${lang})`;
        found.push(...(await problems(page, where, false)));
        found.push(...(await skipLinkProblems(page, where, lang)));
      }
      await page.goto(`${server.staffUrl}/login`);
      await settled(page);
      await page.screenshot({ path: outputPath(`a11y-login-${lang}.png`) });
      check(found.length === 0, `accessibility problems:\n${found.join('\n')}`);
    },
  };
}

function backOfficeJourney(server: RunningServer, lang: Lang): Journey {
  return {
    name: `a11y: every back-office screen and a record of each list in ${lang}`,
    async run(page) {
      const base = server.staffUrl;
      await signInAdmin(page, base, lang);
      const found: string[] = [];
      const records = new Set<string>();
      const visit = async (path: string) => {
        await page.goto(`${base}${path}`);
        await settled(page);
        const where = `${path} (${lang})`;
        check(
          (await page.getAttribute('html', 'lang')) === (lang === 'en' ? 'en' : 'zh-HK'),
          `${where}: the interface language is kept`,
        );
        found.push(...(await problems(page, where, true)));
      };
      const paths = await backofficePaths();
      check(paths.length > 30, `the route table's screens (${paths.length})`);
      for (const path of paths) {
        await visit(path);
        // a list's first record (its edit or view link), once per list
        const href = await page
          .locator('.ant-table-row a[href]')
          .evaluateAll(
            (links, prefix) =>
              links
                .map(
                  (a) =>
                    (a as unknown as { getAttribute(n: string): string | null }).getAttribute('href') ?? '',
                )
                .find((h) => h.startsWith(`${prefix}/`) && !h.endsWith('/create')),
            path,
          );
        if (href) records.add(href);
      }
      // a long form's save bar stays at the bottom of the window, the form scrolling under it
      await page.goto(`${base}/students/create`);
      await settled(page);
      const bar = await page.getByTestId('form-save-bar').boundingBox();
      const height = page.viewportSize()?.height ?? 0;
      const formHeight = (await page.locator('form').first().boundingBox())?.height ?? 0;
      check(formHeight > height, `the new student's form is longer than the window (${formHeight} px)`);
      check(bar && bar.y + bar.height <= height, `the save bar is in the window (${JSON.stringify(bar)})`);
      await page.screenshot({ path: outputPath(`a11y-save-bar-${lang}.png`) });
      await page.goto(`${base}/settings/users`);
      await settled(page);
      await page.screenshot({ path: outputPath(`a11y-list-${lang}.png`) });
      found.push(...(await skipLinkProblems(page, `/settings/users (${lang})`, lang)));
      // the user menu: the profile, the API tokens, the language, sign-out; and axe with it open
      await page.getByTestId('user-menu').click();
      const panel = page.getByTestId('user-menu-panel');
      for (const name of USER_MENU[lang]) await panel.getByRole('menuitem', { name }).waitFor();
      await panel.getByTestId('language-switch').waitFor();
      await settled(page);
      await page.screenshot({ path: outputPath(`a11y-user-menu-${lang}.png`) });
      found.push(...(await problems(page, `/settings/users, the user menu open (${lang})`, true)));
      await page.keyboard.press('Escape');
      check(records.size >= 5, `records of the demo data to visit, got ${[...records].join(', ')}`);
      for (const record of records) await visit(record);
      await page.goto(`${base}${[...records].find((r) => r.startsWith('/students/')) ?? '/students'}`);
      await settled(page);
      await page.screenshot({ path: outputPath(`a11y-record-${lang}.png`), fullPage: true });
      check(found.length === 0, `accessibility problems:\n${found.join('\n')}`);
    },
  };
}

export function a11yJourneys(server: RunningServer): Journey[] {
  return (['en', 'zh_HK'] as const).flatMap((lang) => [
    publicJourney(server, lang),
    backOfficeJourney(server, lang),
  ]);
}

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator, Page, Response } from 'playwright-core';
import { CATALOG, type MessageKey } from '../shared/messages';
import { check } from './harness';

/**
 * The page actions every journey file uses: signing the demo admin in, switching the interface language,
 * finding form items and table rows, reading an XLSX export back, and calling the API as the signed-in
 * browser. One copy here; a journey file keeps only what is its own.
 */

export type Lang = 'en' | 'zh_HK';

/** The demo admin (seeded with zh_HK as its language). */
export const ADMIN = { email: 'admin@example.com', password: 'Admin1234' };

// page.waitForFunction runs in the browser; the e2e code is type-checked without DOM types.
declare const document: { documentElement: { lang: string } };

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', zh_HK: '繁體中文' };

/** The interface language, whatever the signed-in account's own (the switch keeps it in local storage). */
export async function switchLanguage(page: Page, lang: Lang): Promise<void> {
  const want = lang === 'en' ? 'en' : 'zh-HK';
  if ((await page.getAttribute('html', 'lang')) === want) return;
  const control = page.getByTestId('language-switch');
  // the sign-in frame's switch is a native select (no antd on the first load); the signed-in header's a menu
  if ((await control.evaluate((e) => (e as unknown as { tagName: string }).tagName)) === 'SELECT') {
    await control.selectOption(lang);
  } else {
    await control.click();
    await page.getByRole('menuitem', { name: LANGUAGE_NAMES[lang] }).click();
  }
  await page.waitForFunction((l) => document.documentElement.lang === l, want);
  // the switch's tooltip would cover the first row of a list
  await page.getByRole('tooltip').waitFor({ state: 'hidden' });
}

/** Signs the demo admin in on the login page (in Chinese, the staff default) and switches to `lang`. */
export async function signInAdmin(page: Page, base: string, lang: Lang): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('電郵').fill(ADMIN.email);
  await page.getByLabel('密碼').fill(ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await page.getByTestId('user-menu').waitFor();
  await switchLanguage(page, lang);
}

/** The form item (label, control, errors) holding a label, inside `scope`. */
export function formItem(scope: Page | Locator, label: string): Locator {
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('.ant-form-item').filter({ has: page.getByText(label, { exact: true }) });
}

/** The first list row holding `text`, once it is there. */
export async function rowOf(page: Page, text: string): Promise<Locator> {
  const row = page.locator('.ant-table-tbody .ant-table-row').filter({ hasText: text });
  await row.first().waitFor();
  return row.first();
}

/**
 * Searches the list for `text` and returns once the list shows that search's answer. The address changes at
 * once, but the list draws the search a moment later and keeps the last rows shown until then; a load state
 * cannot tell (a page's "networkidle" fires once per document, never again for a search within it). So: the
 * list's own read with `q=text` answered, then the list no longer busy.
 */
export async function searchList(page: Page, text: string): Promise<void> {
  const box = page.getByRole('searchbox');
  await box.fill(text);
  await Promise.all([
    page.waitForResponse((r) => {
      const url = new URL(r.url());
      return (
        r.request().method() === 'GET' &&
        url.pathname.startsWith('/api/') &&
        url.searchParams.get('q') === text
      );
    }),
    box.press('Enter'),
  ]);
  check(
    new URL(page.url()).searchParams.get('q') === text,
    `the address holds the search "${text}": ${page.url()}`,
  );
  await page.locator('.resource-list[aria-busy="false"]').waitFor();
}

/** Clicks the export link `linkName`, saves the file and returns every row's cell texts of its first sheet. */
export async function exportedRows(page: Page, linkName: string): Promise<string[][]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: linkName }).click(),
  ]);
  const path = join(mkdtempSync(join(tmpdir(), 'e2e-export-')), download.suggestedFilename());
  await download.saveAs(path);
  check(path.endsWith('.xlsx'), `an XLSX file (${path})`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const rows: string[][] = [];
  book.worksheets[0].eachRow((row) => {
    // row.values is sparse (an empty cell is a hole): Array.from reads each hole as an empty cell
    rows.push(Array.from((row.values as unknown[]).slice(1), (v) => String(v ?? '')));
  });
  return rows;
}

/**
 * An API call as the signed-in browser: the page's cookies and its session's CSRF token, against the origin
 * the page is on.
 */
export async function apiCall(
  page: Page,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const origin = new URL(page.url()).origin;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') {
    const csrf = await page.request.get(`${origin}/api/csrf-token`);
    headers['X-CSRF-Token'] = ((await csrf.json()) as { token: string }).token;
  }
  const response = await page.request.fetch(`${origin}${path}`, { method, headers, data: body });
  return { status: response.status(), body: await response.text() };
}

/** The id of the first record a list finds (`/api/roles`, `q=Consultant`): a role or branch a new user is given. */
export async function firstId(page: Page, path: string, q: string): Promise<number> {
  const res = await apiCall(page, 'GET', `${path}?q=${encodeURIComponent(q)}&per_page=1`);
  const items = (JSON.parse(res.body) as { items?: { id: number }[] }).items ?? [];
  if (!items.length) throw new Error(`GET ${path}?q=${q} found nothing (status ${res.status})`);
  return items[0].id;
}

/** Waits for the answer of the API call `method path` that `action` starts, and returns it. */
export async function answerOf(page: Page, method: string, path: string, action: () => Promise<void>) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === path),
    action(),
  ]);
  return response;
}

const PASSWORD_LABEL: Record<Lang, string> = { en: 'Password', zh_HK: '密碼' };

/**
 * The answer of a save that may need a fresh password confirmation (the mail, security and storage settings):
 * when the server answers 423, the password is typed into the confirmation dialog the screen opens, and the
 * answer of the save it then runs again is returned. The first answer when none was asked.
 */
export async function answerConfirmed(
  page: Page,
  method: string,
  path: string,
  action: () => Promise<void>,
  lang: Lang,
  password = ADMIN.password,
): Promise<Response> {
  const first = await answerOf(page, method, path, action);
  if (first.status() !== 423) return first;
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('confirm-password-submit') });
  const input = dialog.getByLabel(PASSWORD_LABEL[lang], { exact: true });
  await input.fill(password);
  const again = page.waitForResponse(
    (r) => r.request().method() === method && new URL(r.url()).pathname === path,
  );
  again.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  await input.press('Enter');
  // on a loaded machine the first submit may land while the dialog is still opening: submit once more
  const closed = await dialog
    .waitFor({ state: 'hidden', timeout: 8_000 })
    .then(() => true)
    .catch(() => false);
  if (!closed) await page.getByTestId('confirm-password-submit').click();
  return again;
}

/** A fresh password confirmation of the browser's session (the API, as the confirmation dialog does it). */
export async function confirmPassword(page: Page, password = ADMIN.password): Promise<void> {
  const answer = await apiCall(page, 'POST', '/api/user/confirm-password', { password });
  check(answer.status === 200, `the password confirmation: ${answer.status} ${answer.body}`);
}

/** A menu entry's accessible name: its label, after its icon's name. */
export const menuName = (label: string) => new RegExp(`(^|\\s)${label}$`);

/** Opens a menu entry, inside its group when it has one (the group opened first when it is closed). */
export async function openMenu(page: Page, label: string, group?: string): Promise<void> {
  if (group) {
    const leaf = page.locator('.ant-menu-sub').getByRole('menuitem', { name: menuName(label) });
    if (!(await leaf.isVisible())) {
      await page
        .getByRole('menuitem', { name: menuName(group) })
        .first()
        .click();
    }
    await leaf.click();
  } else {
    await page.getByRole('menuitem', { name: menuName(label) }).click();
  }
}

/** The date picker's calendar that is open or opening (one still fading out after Escape is not it). */
export const openCalendar = (page: Page) =>
  page.locator('.ant-picker-dropdown:visible:not([class*="-leave"])');

/** Waits until no date picker's calendar shows, the ones still fading out included. */
export async function calendarsClosed(page: Page): Promise<void> {
  const shown = page.locator('.ant-picker-dropdown:visible');
  await until(page, 'every date picker closed', () => shown.count(), 0);
}

/** Polls `read` until it returns `expected` (compared as JSON), failing with the last value at the deadline. */
export async function until<T>(page: Page, what: string, read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected)) {
    if (Date.now() > deadline)
      throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(last)}`);
    await page.waitForTimeout(100);
    last = await read();
  }
}

export const openOptions = (page: Page) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option');

/**
 * Opens the antd Select of a form item and picks the option holding `option`. A lookup's list is read from the
 * server as it opens, and a click landing while its answer replaces the list is lost: then it is picked again.
 */
export async function choose(page: Page, item: Locator, option: string, multiple = false): Promise<void> {
  const open = page.locator('.ant-select-dropdown:visible');
  const chosen = item.locator('.ant-select').getByText(option);
  for (let attempt = 1; ; attempt++) {
    // (the caller may have opened it already, to read its choices)
    if (!(await open.count())) await item.locator('.ant-select').click();
    await openOptions(page).filter({ hasText: option }).first().click();
    const picked = await chosen
      .first()
      .waitFor({ timeout: 2_000 })
      .then(() => true)
      .catch(() => false);
    if (picked) break;
    if (attempt === 3) throw new Error(`"${option}" could not be chosen`);
    await page.keyboard.press('Escape');
    await open.first().waitFor({ state: 'hidden' });
  }
  if (multiple) await page.keyboard.press('Escape');
  await open.first().waitFor({ state: 'hidden' });
}

/**
 * A list's New button that opens `path`. Picked by its address, not by its test id alone: right after a menu click the
 * address can already be the next list's while the previous list is still drawn (the router renders in a transition),
 * and that list's New would open the wrong form.
 */
export const createLink = (scope: Page | Locator, path: string) =>
  scope.locator(`a[data-testid="resource-create"][href="${path}"]`);

/**
 * Clicks a link or button that opens another screen and waits for its address. A click landing while the screen
 * around it still moves (a list's rows or a notice drawn above it) can miss: then, while the control still shows
 * and the address has not changed, it is clicked again.
 */
export async function clickTo(
  page: Page,
  target: Locator,
  address: Parameters<Page['waitForURL']>[0],
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await target.click();
    try {
      await page.waitForURL(address, { timeout: attempt < 3 ? 5_000 : 15_000 });
      return;
    } catch (failure) {
      if (attempt >= 3 || !(await target.isVisible())) throw failure;
    }
  }
}

/** The server's catalogued messages in zh_HK, as the client shows them (client/src/locales/messages.zh_HK.json). */
const ZH_CATALOG = (
  JSON.parse(
    readFileSync(
      resolve(import.meta.dirname, '..', 'client', 'src', 'locales', 'messages.zh_HK.json'),
      'utf8',
    ),
  ) as { serverMessages: Record<string, string> }
).serverMessages;

/** A catalogued server message as the client words it in `lang`: the catalogue in English, its zh_HK copy. */
export function catalogMessage(
  key: MessageKey,
  lang: Lang,
  params: Record<string, string | number> = {},
): string {
  const template = lang === 'en' ? CATALOG[key] : ZH_CATALOG[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name]));
}

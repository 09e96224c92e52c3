import type { Page } from 'playwright-core';
import { ADMIN, answerOf, apiCall, signInAdmin, type Lang } from './actions';
import { makePng } from './files-journeys';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Issue 31 ("the first day at an agency"), part B, in each language: at 1366 × 768 the students list, the audit log,
 * the media manager and an intake's form show every column whole (the actions not cut off, no header wrapping) and
 * the form uses the width; signing in again after the session ended lands on the page asked for; a language asked
 * for before signing in (the `language` route parameter) wins over the account's and is saved to it.
 */

// page.evaluate runs in the browser; the e2e code is type-checked without DOM types.
interface El {
  scrollWidth: number;
  clientWidth: number;
  textContent: string | null;
  getBoundingClientRect(): { left: number; right: number; top: number; width: number };
  querySelectorAll(s: string): Iterable<El>;
  querySelector(s: string): El | null;
  closest(s: string): El | null;
}
declare const document: {
  querySelectorAll(s: string): Iterable<El>;
  createRange(): {
    selectNodeContents(e: El): void;
    getClientRects(): Iterable<{ top: number; width: number }>;
  };
};

interface TableLayout {
  headers: number;
  wrappedHeaders: string[];
  clippedCells: string[];
  actionsCut: string[];
  widest: number;
}

/** What is cut off in the lists on screen: headers on more than one line, cells wider than their box, actions outside the table. */
async function tableLayout(page: Page): Promise<TableLayout> {
  return page.evaluate(() => {
    const out = {
      headers: 0,
      wrappedHeaders: [] as string[],
      clippedCells: [] as string[],
      actionsCut: [] as string[],
      widest: 0,
    };
    for (const table of document.querySelectorAll('.ant-table-wrapper')) {
      const box = table.getBoundingClientRect();
      out.widest = Math.max(out.widest, Math.round(box.width));
      for (const th of table.querySelectorAll('thead th.ant-table-cell')) {
        const text = (th.textContent ?? '').trim();
        if (!text) continue;
        out.headers++;
        // the lines its text takes (no helper function here: the page runs this code as it is written)
        const range = document.createRange();
        // a sortable column's title text, without its sort icons
        range.selectNodeContents(th.querySelector('.ant-table-column-title') ?? th);
        const tops = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        );
        if (tops.size > 1) out.wrappedHeaders.push(text);
      }
      for (const cell of table.querySelectorAll('tbody td.ant-table-cell')) {
        if (cell.scrollWidth > cell.clientWidth + 1)
          out.clippedCells.push(
            `${(cell.textContent ?? '').trim().slice(0, 30)} (${cell.scrollWidth} > ${cell.clientWidth})`,
          );
      }
      // the actions (the buttons in a row's last cell) are inside the table's visible box
      for (const button of table.querySelectorAll('tbody tr td:last-child .ant-btn')) {
        const r = button.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1)
          out.actionsCut.push(
            `${(button.textContent ?? '').trim()} (${Math.round(r.right)} > ${Math.round(box.right)})`,
          );
      }
    }
    return out;
  });
}

async function checkLayout(page: Page, lang: Lang, screen: string): Promise<void> {
  const layout = await tableLayout(page);
  console.log(
    `    ${screen} (${lang}) at 1366 px: ${layout.headers} headers, ${layout.wrappedHeaders.length} on more than one line, ${layout.clippedCells.length} cells cut, ${layout.actionsCut.length} actions outside the table (widest table ${layout.widest} px)`,
  );
  check(layout.headers > 0, `${screen}: a list is shown`);
  check(layout.wrappedHeaders.length === 0, `${screen}: headers wrap: ${layout.wrappedHeaders.join(' | ')}`);
  check(layout.clippedCells.length === 0, `${screen}: cells cut: ${layout.clippedCells.join(' | ')}`);
  check(
    layout.actionsCut.length === 0,
    `${screen}: actions outside the table: ${layout.actionsCut.join(' | ')}`,
  );
}

function layoutJourney(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const shot = (step: string) => outputPath(`dayone-${lang}-${step}.png`);
  return {
    name: `day one (${lang}): at 1366 px the students list, audit log and media manager cut nothing off`,
    async run(page) {
      await page.setViewportSize({ width: 1366, height: 768 });
      await signInAdmin(page, base, lang);
      // a student with a visa, so that the list has its columns filled
      const created = await apiCall(page, 'POST', '/api/students', {
        surname_en: `LEUNG${lang === 'en' ? 'EN' : 'ZH'}`,
        given_name_en: `Ka Yan ${rid}`,
        name_zh: '梁嘉欣',
        email: `dayone-${lang}-${rid}@example.com`,
        visa_expiry: '2027-08-31',
      });
      check(created.status === 201, `the student: ${created.status} ${created.body}`);

      // a file for the media manager to list: the admin's photo (removed again below)
      await page.goto(`${base}/user/profile`);
      const photo = await answerOf(page, 'POST', '/api/user/profile-photo', () =>
        page
          .locator('input[type="file"]')
          .first()
          .setInputFiles({ name: `dayone-${lang}.png`, mimeType: 'image/png', buffer: makePng(48, 7) }),
      );
      check(photo.status() === 201, `the photo: ${photo.status()} ${await photo.text()}`);

      for (const [path, screen] of [
        ['/students', 'students'],
        ['/settings/audit-log', 'audit-log'],
        ['/media', 'media'],
      ]) {
        await page.goto(`${base}${path}`);
        await page.locator('.ant-table-tbody .ant-table-row').first().waitFor();
        await page.screenshot({ path: shot(screen) });
        await checkLayout(page, lang, screen);
      }
      await apiCall(page, 'DELETE', '/api/user/profile-photo');
    },
  };
}

function formJourney(main: RunningServer, lang: Lang): Journey {
  const base = main.staffUrl;
  const shot = (step: string) => outputPath(`dayone-${lang}-${step}.png`);
  return {
    name: `day one (${lang}): at 1366 px the intake form uses the width, two columns of short fields, its tables full width`,
    async run(page) {
      await page.setViewportSize({ width: 1366, height: 768 });
      await signInAdmin(page, base, lang);
      // an intake's form: two columns of short fields, its timetable and checklist tables the form's full width
      // the demo intake, under its school (/schools/admission/<school>/<intake>)
      const schools = await apiCall(page, 'GET', '/api/schools?per_page=100');
      let at: string | null = null;
      for (const school of (JSON.parse(schools.body) as { items: { id: number }[] }).items) {
        const list = await apiCall(page, 'GET', `/api/schools/${school.id}/admissions?per_page=1`);
        const first = (JSON.parse(list.body) as { items?: { id: number }[] }).items?.[0];
        if (first) {
          at = `/schools/admission/${school.id}/${first.id}`;
          break;
        }
      }
      check(at, 'an intake to open');
      await page.goto(`${base}${at}`);
      const form = page.getByTestId('resource-form-school_admission');
      await form.waitFor();
      await form.locator('.ant-table').first().waitFor();
      await page.screenshot({ path: shot('intake-form'), fullPage: true });
      const widths = await page.evaluate(() => {
        const formEl = [...document.querySelectorAll('[data-testid="resource-form-school_admission"]')][0];
        const tables = [...formEl.querySelectorAll('.ant-table-wrapper')].map((t) =>
          Math.round(t.getBoundingClientRect().width),
        );
        const tops = new Map<number, number>();
        for (const item of formEl.querySelectorAll('.ant-form-item')) {
          // the form's own fields (a collection's cells sit side by side in their table anyway)
          if (item.closest('.ant-table')) continue;
          const top = Math.round(item.getBoundingClientRect().top);
          tops.set(top, (tops.get(top) ?? 0) + 1);
        }
        return {
          form: Math.round(formEl.getBoundingClientRect().width),
          tables,
          sideBySide: [...tops.values()].filter((n) => n > 1).length,
        };
      });
      console.log(
        `    intake form (${lang}) at 1366 px: form ${widths.form} px wide, tables ${widths.tables.join(', ')} px, ${widths.sideBySide} rows of two fields`,
      );
      check(widths.form >= 1000, `the intake form uses the width: ${widths.form} px`);
      check(widths.sideBySide >= 2, `short fields side by side: ${widths.sideBySide} rows`);
      check(
        widths.tables.length >= 2 && widths.tables.every((w) => w >= widths.form - 40),
        `collection tables the form's width: ${widths.tables.join(', ')} of ${widths.form}`,
      );
    },
  };
}

/** Signs in on the staff sign-in page as it stands (the page's language): fields found by their input types. */
async function signInHere(page: Page): Promise<void> {
  await page.locator('input[type="email"], input[autocomplete="username"]').first().fill(ADMIN.email);
  await page.locator('input[type="password"]').first().fill(ADMIN.password);
  await page.locator('form button[type="submit"]').click();
}

function returnJourney(main: RunningServer, lang: Lang): Journey {
  const base = main.staffUrl;
  return {
    name: `day one (${lang}): signing in again after the session ended lands on the page asked for`,
    async run(page, context) {
      await signInAdmin(page, base, lang);
      const asked = '/settings/audit-log?page=1';
      await page.goto(`${base}${asked}`);
      await page.locator('.ant-table-tbody .ant-table-row').first().waitFor();
      // the session ends (its cookie gone, as after the idle time); the same page is opened again
      await context.clearCookies();
      await page.goto(`${base}${asked}`);
      await page.waitForURL((url) => url.pathname === '/login');
      await signInHere(page);
      await page.getByTestId('user-menu').waitFor();
      await page.waitForURL((url) => url.pathname !== '/login');
      const landed = new URL(page.url());
      console.log(`    after signing in again (${lang}): ${landed.pathname}${landed.search}`);
      check(
        landed.pathname === '/settings/audit-log',
        `signing in again lands on the page asked for, not ${landed.pathname}`,
      );
      await page.locator('.ant-table-tbody .ant-table-row').first().waitFor();
    },
  };
}

function languageJourney(main: RunningServer, lang: Lang): Journey {
  const base = main.staffUrl;
  const htmlLang = lang === 'en' ? 'en' : 'zh-HK';
  const other: Lang = lang === 'en' ? 'zh_HK' : 'en';
  return {
    name: `day one (${lang}): the language route parameter before sign-in wins over the account's and is saved to it`,
    async run(page) {
      // the account's language first set to the other one
      await signInAdmin(page, base, other);
      const before = await apiCall(page, 'GET', '/api/user/profile');
      check(before.status === 200, `the profile: ${before.status}`);
      await page.goto(`${base}/logout`);
      await page.waitForURL((url) => url.pathname === '/login');

      await page.goto(`${base}/login?language=${lang === 'en' ? 'en' : 'zh'}`);
      await page.waitForFunction(
        (l) => [...document.querySelectorAll(`html[lang="${l}"]`)].length > 0,
        htmlLang,
      );
      await signInHere(page);
      await page.getByTestId('user-menu').waitFor();
      const shown = await page.getAttribute('html', 'lang');
      const saved = await apiCall(page, 'GET', '/api/user/profile');
      const language = JSON.parse(saved.body) as { language?: string; user?: { language?: string } };
      const kept = language.language ?? language.user?.language;
      console.log(`    ?language=${lang} before sign-in (${lang}): interface ${shown}, profile ${kept}`);
      check(shown === htmlLang, `the interface is in the language asked for: ${shown}`);
      check(kept === lang, `the profile keeps the language asked for: ${kept}`);
    },
  };
}

export function dayOneJourneys(main: RunningServer): Journey[] {
  const rid = String(Date.now()).slice(-6);
  // English first: the account's language is left as seeded (zh_HK) for whatever runs after
  return (['en', 'zh_HK'] as Lang[]).flatMap((lang) => [
    layoutJourney(main, lang, rid),
    formJourney(main, lang),
    returnJourney(main, lang),
    languageJourney(main, lang),
  ]);
}

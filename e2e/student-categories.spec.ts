import type { Locator, Page } from 'playwright-core';
import { clickTo, exportedRows, formItem, rowOf, signInAdmin, type Lang } from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Student categories, the first resource with screens from its declaration alone (issue 11): opened from the
 * menu (Students → Student categories), a category created with a colour, shown in the list with its colour
 * tag, edited, exported to XLSX (headed in the screen's language) and deleted — in both languages.
 */

const TEXT = {
  en: {
    students: 'Students',
    categories: 'Student categories',
    newTitle: 'New: Student categories',
    save: 'Save',
    saved: 'Saved.',
    deleted: 'Deleted.',
    edit: 'Edit',
    delete: 'Delete',
    exportXlsx: 'Export XLSX',
    nameEn: 'Name (English)',
    nameZh: 'Name (Chinese)',
    color: 'Colour',
    sortOrder: 'Sort order',
    active: 'Active',
  },
  zh_HK: {
    students: '學生',
    categories: '學生類別',
    newTitle: '新增：學生類別',
    save: '儲存',
    saved: '已儲存。',
    deleted: '已刪除。',
    edit: '編輯',
    delete: '刪除',
    exportXlsx: '匯出 XLSX',
    nameEn: '名稱（英文）',
    nameZh: '名稱（中文）',
    color: '顏色',
    sortOrder: '排序',
    active: '啟用',
  },
} as const;
type Text = (typeof TEXT)[Lang];

const LIST = '/students/categories';

/** A menu entry's accessible name: its label, after its icon's name when it has one. */
const menuName = (label: string) => new RegExp(`(^|\\s)${label}$`);

/** The visible column headers of the list. */
async function columnTitles(page: Page): Promise<string[]> {
  await page.locator('.ant-table-thead th').first().waitFor();
  return (await page.locator('.ant-table-thead th').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

/** Picks a colour by typing its hex code into the colour picker's panel. */
async function pickColour(page: Page, t: Text, hex: string): Promise<void> {
  await formItem(page, t.color).locator('.ant-color-picker-trigger').click();
  const input = page.locator('.ant-color-picker-hex-input input').last();
  await input.waitFor();
  await input.fill(hex.replace('#', ''));
  await page.keyboard.press('Escape');
  await page
    .locator('.ant-color-picker-trigger-text')
    .filter({ hasText: new RegExp(`^${hex}$`, 'i') })
    .waitFor();
}

async function saveToList(page: Page, t: Text): Promise<void> {
  await page.getByRole('button', { name: t.save }).click();
  await page.waitForURL((url) => url.pathname === LIST);
  await page.getByText(t.saved).first().waitFor();
}

/** The colour tag of a row. */
async function colourOf(row: Locator): Promise<string | null> {
  return row.getByTestId('color-swatch').getAttribute('data-color');
}

function journey(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const t = TEXT[lang];
  const tag = lang === 'en' ? 'En' : 'Zh';
  const colour = lang === 'en' ? '#e91e63' : '#2e7d32';
  return {
    name: `student categories (${lang}): from the menu, create with a colour, colour tag in the list, edit, XLSX export, delete`,
    async run(page) {
      await signInAdmin(page, base, lang);

      // Students → Student categories, from the menu the declarations build
      // (a menu entry's name starts with its icon's: "solution Students")
      await page.getByRole('menuitem', { name: menuName(t.students) }).click();
      await page.getByRole('menuitem', { name: menuName(t.categories) }).click();
      await page.waitForURL((url) => url.pathname === LIST);
      await page.getByRole('heading', { name: t.categories, exact: true }).waitFor();
      const columns = await columnTitles(page);
      for (const title of [t.nameEn, t.nameZh, t.color, t.sortOrder, t.active])
        check(columns.includes(title), `the list shows the column "${title}": ${columns.join(', ')}`);

      // create, with a colour
      const nameEn = `Category ${tag} ${rid}`;
      const nameZh = `類別${tag}${rid}`;
      await clickTo(page, page.getByTestId('resource-create'), (url) => url.pathname === `${LIST}/create`);
      await page.getByRole('heading', { name: t.newTitle }).waitFor();
      await formItem(page, t.nameEn).locator('input').fill(nameEn);
      await formItem(page, t.nameZh).locator('input').fill(nameZh);
      await pickColour(page, t, colour);
      await formItem(page, t.sortOrder).locator('input').fill('7');
      await saveToList(page, t);

      // the list shows it with its colour tag
      const row = await rowOf(page, nameEn);
      check((await colourOf(row)) === colour, `the row's colour tag is ${colour}: ${await colourOf(row)}`);
      await page.screenshot({ path: outputPath(`student-categories-${lang}-1-list.png`), fullPage: true });

      // edit: the new name in the list, the colour kept
      await row.getByRole('link', { name: new RegExp(t.edit) }).click();
      await page.waitForURL(new RegExp(`${LIST}/\\d+$`));
      await formItem(page, t.nameEn).locator('input').fill(`${nameEn} edited`);
      await page.screenshot({ path: outputPath(`student-categories-${lang}-2-form.png`), fullPage: true });
      await saveToList(page, t);
      const edited = await rowOf(page, `${nameEn} edited`);
      check((await colourOf(edited)) === colour, 'the colour is kept by the edit');

      // the XLSX export: headed in the screen's language, holding the category
      const rows = await exportedRows(page, t.exportXlsx);
      for (const title of [t.nameEn, t.nameZh, t.color])
        check(rows[0]?.includes(title), `the export's header holds "${title}": ${JSON.stringify(rows[0])}`);
      const exported = rows.find((r) => r.includes(`${nameEn} edited`));
      check(exported, `the export holds the category: ${JSON.stringify(rows)}`);
      check(
        exported.includes(nameZh) && exported.some((cell) => cell.toLowerCase() === colour),
        `the exported row has its Chinese name and colour: ${JSON.stringify(exported)}`,
      );

      // delete, after the confirmation
      await edited.getByRole('button', { name: new RegExp(`^${t.delete} `) }).click();
      await page.getByRole('tooltip').getByRole('button', { name: t.delete }).click();
      await page.getByText(t.deleted).first().waitFor();
      await page
        .locator('.ant-table-tbody .ant-table-row')
        .filter({ hasText: `${nameEn} edited` })
        .waitFor({ state: 'detached' });
    },
  };
}

/** The journeys, in Chinese (the staff default) and English. */
export function studentCategoryJourneys(main: RunningServer): Journey[] {
  const rid = Date.now().toString(36).slice(-5).toUpperCase();
  return [journey(main, 'zh_HK', rid), journey(main, 'en', rid)];
}

import type { Page } from 'playwright-core';
import { clickTo, exportedRows, formItem, rowOf, searchList, signInAdmin, type Lang } from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Reference-data screens (issue 5) in both languages: list, search, create, edit, a duplicate refused on
 * its field, a referenced record's delete refused with the reference message, and the XLSX export read back.
 */

const TEXT = {
  en: {
    create: 'New',
    save: 'Save',
    delete: 'Delete',
    edit: 'Edit',
    exportXlsx: 'Export XLSX',
    duplicate: 'This Data is already exist.',
    nameEn: 'English name',
    nameZh: 'Chinese name',
    labelEn: 'English',
    labelZh: 'Chinese',
    date: 'Date',
    code: 'Code',
    titleEn: 'Title (English)',
    titleZh: 'Title (Chinese)',
    contentEn: 'Terms (English)',
    contentZh: 'Terms (Chinese)',
    holidays: 'Holidays',
    areas: 'Areas and districts',
    addDistrict: 'Add district',
    districtRefused: 'This area is still used by 1 district(s). Delete or move its districts first.',
    genderTitle: 'Option list: Gender',
    studentRefused: 'This option is still used by 1 student(s). Deactivate it instead of deleting it.',
    orderTerms: 'Order terms',
    refundTerms: 'Refund terms',
    codeTitle: 'Document numbers',
    orderNo: 'Order (invoice) number',
    importRow: (n: number) => `Row ${n}:`,
    formatSeqOnce: 'The format must contain {seq:N} exactly once.',
  },
  zh_HK: {
    create: '新增',
    save: '儲存',
    delete: '刪除',
    edit: '編輯',
    exportXlsx: '匯出 XLSX',
    duplicate: '此資料已存在。',
    nameEn: '英文名稱',
    nameZh: '中文名稱',
    labelEn: '英文',
    labelZh: '中文',
    date: '日期',
    code: '代碼',
    titleEn: '標題（英文）',
    titleZh: '標題（中文）',
    contentEn: '條款（英文）',
    contentZh: '條款（中文）',
    holidays: '假期',
    areas: '地區及分區',
    addDistrict: '新增分區',
    districtRefused: '此地區仍被 1 個地區 使用。請先刪除或移走其分區。',
    genderTitle: '選項列表：性別',
    studentRefused: '此選項仍被 1 名學生 使用。請改為停用，而不是刪除。',
    orderTerms: '訂單條款',
    refundTerms: '退款條款',
    codeTitle: '文件編號',
    orderNo: '訂單（發票）編號',
    importRow: (n: number) => `第 ${n} 行：`,
    formatSeqOnce: '格式必須剛好包含一次 {seq:N}。',
  },
} as const;

async function save(page: Page, t: (typeof TEXT)[Lang]): Promise<void> {
  await page.getByRole('button', { name: t.save }).click();
}

export function settingsJourneys(main: RunningServer): Journey[] {
  const base = main.staffUrl;
  const year = new Date().getFullYear();
  const out: Journey[] = [];
  (['en', 'zh_HK'] as const).forEach((lang, n) => {
    const t = TEXT[lang];
    const tag = lang === 'en' ? 'En' : 'Zh';
    out.push(
      {
        name: `settings (${lang}): holidays — list, create, search, edit, duplicate date, import with row-numbered errors, export`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/holiday`);
          await page.getByRole('heading', { name: t.holidays }).waitFor();
          check(
            (await page.getByTestId('filter-year').innerText()).includes(String(year)),
            'current year filter',
          );
          const date = `${year}-0${n + 3}-15`;
          for (const [i, name] of [`Holiday ${tag}`, `Other ${tag}`].entries()) {
            await clickTo(page, page.getByTestId('resource-create'), /\/settings\/holiday\/create$/);
            await formItem(page, t.date)
              .locator('input')
              .fill(i === 0 ? date : `${year}-0${n + 3}-16`);
            await formItem(page, t.date).locator('input').press('Enter');
            await formItem(page, t.nameEn).locator('input').fill(name);
            await formItem(page, t.nameZh).locator('input').fill(`假期${tag}${i}`);
            await save(page, t);
            await page.waitForURL(/\/settings\/holiday$/);
            await rowOf(page, name);
          }
          await searchList(page, `Holiday ${tag}`);
          await page
            .getByRole('row')
            .filter({ hasText: `Other ${tag}` })
            .waitFor({ state: 'detached' });
          await (await rowOf(page, `Holiday ${tag}`)).getByRole('link', { name: new RegExp(t.edit) }).click();
          await page.waitForURL(/\/settings\/holiday\/\d+$/);
          await formItem(page, t.nameEn).locator('input').fill(`Holiday ${tag} edited`);
          await save(page, t);
          await page.waitForURL(/\/settings\/holiday/);
          await rowOf(page, `Holiday ${tag} edited`);

          // a second holiday on the same date: refused on the date field
          await page.getByTestId('resource-create').click();
          await formItem(page, t.date).locator('input').fill(date);
          await formItem(page, t.date).locator('input').press('Enter');
          await formItem(page, t.nameEn).locator('input').fill('Same day');
          await formItem(page, t.nameZh).locator('input').fill('同日');
          await save(page, t);
          await formItem(page, t.date).getByText(t.duplicate).waitFor();
          check(page.url().endsWith('/create'), 'stays on the form');
          // import: a file with bad rows is refused whole, each bad row named; a good one is imported
          await page.goto(`${base}/settings/holiday`);
          const upload = (csv: string) =>
            page.getByTestId('resource-import-file').setInputFiles({
              name: 'holidays.csv',
              mimeType: 'text/csv',
              buffer: Buffer.from(csv),
            });
          await upload(`date,name_en,name_zh\n${year}-13-01,Bad,壞\n${year}-0${n + 7}-01,,空\n`);
          const problems = page.getByTestId('resource-import-errors');
          await problems.getByText(t.importRow(2)).first().waitFor();
          await problems.getByText(t.importRow(3)).first().waitFor();
          // the problems sit in the import dialog, nowhere in the page's toolbar
          const dialog = page.getByRole('dialog');
          check(
            (await dialog.getByTestId('resource-import-errors').count()) === 1,
            'the problems are in the dialog',
          );
          const box = (await problems.boundingBox())!;
          const modal = (await dialog.boundingBox())!;
          check(
            box.y >= modal.y && box.y + box.height <= modal.y + modal.height + 1 && box.x >= modal.x,
            `the problems are drawn inside the dialog: ${JSON.stringify({ box, modal })}`,
          );
          await page.screenshot({ path: outputPath(`holiday-import-errors-${lang}.png`), fullPage: true });
          await upload(`date,name_en,name_zh\n${year}-0${n + 7}-02,Imported ${tag},匯入${tag}\n`);
          await rowOf(page, `Imported ${tag}`);
          await page.goto(`${base}/settings/holiday?q=${encodeURIComponent(`Holiday ${tag}`)}`);
          const rows = await exportedRows(page, t.exportXlsx);
          check(
            rows.some((r) => r.includes(`Holiday ${tag} edited`)) &&
              !rows.some((r) => r.includes(`Other ${tag}`)),
            `the export holds the filtered rows: ${JSON.stringify(rows)}`,
          );
        },
      },
      {
        name: `settings (${lang}): areas — tree, district, duplicate name, referenced delete, export`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/area`);
          await page.getByRole('heading', { name: t.areas }).waitFor();
          const area = `Area ${tag}`;
          await page.getByTestId('resource-create').click();
          await formItem(page, t.nameEn).locator('input').fill(area);
          await formItem(page, t.nameZh).locator('input').fill(`地區${tag}`);
          await save(page, t);
          await page.waitForURL(/\/settings\/area$/);
          await (await rowOf(page, area)).getByRole('link', { name: t.addDistrict }).click();
          await page.waitForURL(/\/settings\/area\/create\?parent_id=\d+$/);
          await formItem(page, t.nameEn).locator('input').fill(`District ${tag}`);
          await formItem(page, t.nameZh).locator('input').fill(`分區${tag}`);
          await save(page, t);
          await page.waitForURL(/\/settings\/area$/);
          await searchList(page, area);
          const areaRow = await rowOf(page, area);
          await areaRow.locator('.ant-table-row-expand-icon').click();
          await rowOf(page, `District ${tag}`);

          // a district's name (in either language) finds its area, the district under it
          for (const q of [`District ${tag}`, `分區${tag}`]) {
            await searchList(page, q);
            const collapsed = (await rowOf(page, area)).locator('.ant-table-row-expand-icon-collapsed');
            if (await collapsed.count()) await collapsed.click();
            await rowOf(page, `District ${tag}`);
          }
          await page.screenshot({ path: outputPath(`area-district-search-${lang}.png`), fullPage: true });

          // edit the district's name
          await (
            await rowOf(page, `District ${tag}`)
          )
            .getByRole('link', { name: new RegExp(t.edit) })
            .click();
          await formItem(page, t.nameEn).locator('input').fill(`District ${tag} 2`);
          await save(page, t);
          await page.waitForURL(/\/settings\/area/);

          // the same area name again: refused on the name
          await page.getByTestId('resource-create').click();
          await formItem(page, t.nameEn).locator('input').fill(area);
          await formItem(page, t.nameZh).locator('input').fill('重複');
          await save(page, t);
          await formItem(page, t.nameEn).getByText(t.duplicate).waitFor();
          await page.goto(`${base}/settings/area?q=${encodeURIComponent(area)}`);

          // an area with a district cannot be deleted
          await (
            await rowOf(page, area)
          )
            .getByRole('button', { name: `${t.delete} ${lang === 'en' ? area : `地區${tag}`}` })
            .click();
          await page.getByRole('tooltip').getByRole('button', { name: t.delete }).click();
          await page.getByText(t.districtRefused).waitFor();
          const rows = await exportedRows(page, t.exportXlsx);
          check(
            rows.some((r) => r.includes(area)),
            `the export holds the area: ${JSON.stringify(rows)}`,
          );
        },
      },
      {
        name: `settings (${lang}): option list — create, search, edit, duplicate code, value in use, export`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/option/gender`);
          await page.getByRole('heading', { name: t.genderTitle }).waitFor();
          const code = `x-${tag.toLowerCase()}`;
          await page.getByTestId('resource-create').click();
          await formItem(page, t.code).locator('input').fill(code);
          await formItem(page, t.labelEn).locator('input').fill(`Other ${tag}`);
          await formItem(page, t.labelZh).locator('input').fill(`其他${tag}`);
          await save(page, t);
          await page.waitForURL(/\/settings\/option\/gender$/);
          await searchList(page, code);
          await (await rowOf(page, code)).getByRole('link', { name: new RegExp(t.edit) }).click();
          await formItem(page, t.labelEn).locator('input').fill(`Other ${tag} edited`);
          await save(page, t);
          await page.waitForURL(/\/settings\/option\/gender/);
          await rowOf(page, `Other ${tag} edited`);

          await page.getByTestId('resource-create').click();
          await formItem(page, t.code).locator('input').fill(code);
          await formItem(page, t.labelEn).locator('input').fill('Again');
          await formItem(page, t.labelZh).locator('input').fill('再次');
          await save(page, t);
          await formItem(page, t.code).getByText(t.duplicate).waitFor();

          // "M" is the seeded student's gender: deleting it is refused, deactivating is the way
          await page.goto(`${base}/settings/option/gender?q=M`);
          const male = page
            .getByRole('row')
            .filter({ has: page.getByRole('cell', { name: 'M', exact: true }) });
          await male.getByRole('button', { name: new RegExp(t.delete) }).click();
          await page.getByRole('tooltip').getByRole('button', { name: t.delete }).click();
          await page.getByText(t.studentRefused).waitFor();
          await page.goto(`${base}/settings/option/gender`);
          const rows = await exportedRows(page, t.exportXlsx);
          check(
            rows.some((r) => r.includes(code)),
            `the export holds the new value: ${JSON.stringify(rows)}`,
          );
        },
      },
      ...(['order', 'refund'] as const).map((kind) => ({
        name: `settings (${lang}): ${kind} terms — rich text, create, search, edit, default kept, export`,
        async run(page: Page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/${kind}/terms`);
          await page
            .getByRole('heading', { name: kind === 'order' ? t.orderTerms : t.refundTerms })
            .waitFor();
          for (const title of [`Terms ${tag} A`, `Terms ${tag} B`]) {
            await page.getByTestId('resource-create').click();
            await formItem(page, t.titleEn).locator('input').fill(title);
            await formItem(page, t.titleZh).locator('input').fill(`條款${title}`);
            await formItem(page, t.contentEn).getByRole('textbox').click();
            await page.keyboard.type(`Payment within 7 days (${title}).`);
            await formItem(page, t.contentZh).getByRole('textbox').click();
            await page.keyboard.type('七日內付款。');
            await save(page, t);
            await page.waitForURL(new RegExp(`/settings/${kind}/terms$`));
            await rowOf(page, title);
          }
          await searchList(page, `Terms ${tag} B`);
          await (await rowOf(page, `Terms ${tag} B`)).getByRole('link', { name: new RegExp(t.edit) }).click();
          await formItem(page, t.contentEn).getByRole('button').first().click(); // bold
          await page.keyboard.type(' Bold part.');
          await save(page, t);
          await page.waitForURL(new RegExp(`/settings/${kind}/terms`));
          const saved = await page.evaluate(
            (api) =>
              fetch(`/api/${api}-terms?q=B&per_page=100`).then(
                (r) => r.json() as Promise<{ items: { content_en: string }[] }>,
              ),
            kind,
          );
          check(
            saved.items.some((i) => /<(b|strong)>/.test(i.content_en)),
            `bold text kept: ${JSON.stringify(saved.items.map((i) => i.content_en))}`,
          );
          const all = await page.evaluate(
            (api) =>
              fetch(`/api/${api}-terms?per_page=100`).then(
                (r) => r.json() as Promise<{ items: { title_en: string; is_default: boolean }[] }>,
              ),
            kind,
          );
          const defaults = all.items.filter((i) => i.is_default);
          check(
            defaults.length === 1 && defaults[0].title_en !== `Terms ${tag} B`,
            `one default, not the terms saved without it: ${JSON.stringify(defaults)}`,
          );
          const rows = await exportedRows(page, t.exportXlsx);
          check(
            rows.some((r) => r.includes(`Terms ${tag} B`)),
            `the export holds the terms: ${JSON.stringify(rows)}`,
          );
        },
      })),
      {
        name: `settings (${lang}): document numbers — live preview, invalid format refused, saved`,
        async run(page) {
          await signInAdmin(page, base, lang);
          await page.goto(`${base}/settings/code`);
          await page.getByRole('heading', { name: t.codeTitle }).waitFor();
          const input = formItem(page, t.orderNo).locator('input');
          await input.fill(`ORD${tag}-{yyyy}-{seq:4}`);
          await page.getByTestId('preview-order').getByText(`ORD${tag}-${year}-0001`).waitFor();
          await input.fill('ORD-{yyyy}');
          await formItem(page, t.orderNo).getByText(t.formatSeqOnce).waitFor();
          await input.fill(`ORD${tag}-{yy}{mm}-{seq:5}`);
          await save(page, t);
          await page.waitForFunction(
            (expected) =>
              fetch('/api/settings')
                .then((r) => r.json() as Promise<{ order_no_format: string }>)
                .then((s) => s.order_no_format === expected),
            `ORD${tag}-{yy}{mm}-{seq:5}`,
          );
        },
      },
    );
  });
  return out;
}

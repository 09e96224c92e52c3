import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import {
  catalogMessage,
  clickTo,
  createLink,
  answerOf,
  apiCall,
  calendarsClosed,
  choose,
  firstId,
  formItem,
  openCalendar,
  openMenu,
  openOptions,
  rowOf,
  searchList,
  signInAdmin,
  type Lang,
} from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Issue 26 as a person goes through it, in each language, at 1366 px: a service category and a service created
 * from the menu (a price in HKD with cents in Chinese, in KRW without decimals in English); services imported
 * from an XLSX made from the import template in the screen's language, a file with a row naming no category
 * refused in words (nothing imported) and the corrected file accepted; the special events list opening on the
 * spec's default window (registration dates from today to 31 December, in the address); an event of one place
 * created with its registration open today, found on the calendar on its day, linking to it; a student registered
 * on its registrations tab, and a second one refused: the event is full, said in words.
 */

const root = resolve(import.meta.dirname, '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as T;

type Labels = Record<string, string>;
const FIELDS = (lang: Lang, resource: string): Labels =>
  readJson<{ resources: Record<string, { fields: Labels }> }>(`shared/resources/locales/${lang}.json`)
    .resources[resource].fields;

const TEXT = {
  en: {
    servicesGroup: 'Services',
    categories: 'Service categories',
    services: 'Services',
    events: 'Special events',
    save: 'Save',
    item: 'Item',
    currency: { HKD: 'Hong Kong dollar', KRW: 'Korean won' },
    seminar: 'Seminar',
    importTitle: 'Import from a file',
    importChoose: 'Click or drag an XLSX or CSV file here',
    imported: (n: number) => `${n} record(s) imported.`,
    yes: 'Yes',
    registrations: 'Registrations',
    registeredTag: 'Registered',
    close: 'Close',
  },
  zh_HK: {
    servicesGroup: '服務及類別',
    categories: '服務類別',
    services: '服務',
    events: '特別活動',
    save: '儲存',
    item: '項',
    currency: { HKD: '港元', KRW: '韓圜' },
    seminar: '講座',
    importTitle: '從檔案匯入',
    importChoose: '按此或將 XLSX／CSV 檔案拖放到這裏',
    imported: (n: number) => `已匯入 ${n} 筆紀錄。`,
    yes: '是',
    registrations: '報名',
    registeredTag: '已報名',
    close: '關閉',
  },
} as const;
type Text = (typeof TEXT)[Lang];

/** Today in Hong Kong, `YYYY-MM-DD`. */
function hongKongToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
}

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Types a date (or a date and time) into an antd date picker of a form item and confirms it as a person does: the
 * calendar moves to what is typed, then its day is clicked (or, with a time, its OK button).
 */
async function typeDate(page: Page, item: Locator, value: string): Promise<void> {
  const input = item.locator('input');
  await calendarsClosed(page);
  await input.click();
  await input.fill(value);
  const panel = openCalendar(page);
  if (value.includes(' ')) await panel.locator('.ant-picker-ok button').click();
  else await panel.locator(`td[title="${value}"]`).click();
  await calendarsClosed(page);
  check((await input.inputValue()) === value, `the picker holds ${value}: ${await input.inputValue()}`);
}

/** Types into a lookup's picker and picks the choice holding `text` (the choices come from the server). */
async function lookUp(page: Page, item: Locator, search: string, text: string): Promise<void> {
  await item.locator('.ant-select').click();
  await page.keyboard.type(search);
  await openOptions(page).filter({ hasText: text }).first().click();
  await item.locator('.ant-select').getByText(text).first().waitFor();
}

/** The import template of services in `lang`, filled with `rows` (cells by field name), as an XLSX file. */
async function filledTemplate(
  page: Page,
  lang: Lang,
  rows: Record<string, string | number>[],
): Promise<Buffer> {
  const origin = new URL(page.url()).origin;
  const template = await page.request.get(`${origin}/api/products/import/template?format=xlsx&lang=${lang}`);
  check(template.status() === 200, `the template: ${template.status()}`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await template.body()) as never);
  const sheet = book.worksheets[0];
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map((v) => String(v ?? ''));
  const labels = FIELDS(lang, 'product');
  const fields = headers.map((h) => Object.keys(labels).find((f) => labels[f] === h) ?? '');
  check(
    !fields.includes(''),
    `every header of the template is a service field in ${lang}: ${headers.join(', ')}`,
  );
  for (const row of rows) sheet.addRow(fields.map((f) => row[f] ?? null));
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function uploadThroughChooser(page: Page, trigger: Locator, name: string, buffer: Buffer) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), trigger.click()]);
  await chooser.setFiles({
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
}

type Row = Record<string, unknown>;

function journey(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const t: Text = TEXT[lang];
  const tag = lang === 'en' ? 'EN' : 'ZH';
  const productFields = FIELDS(lang, 'product');
  const eventFields = FIELDS(lang, 'special_event');
  const shot = (step: string) => outputPath(`catalogue-${lang}-${step}.png`);
  const category = { en: `Visa services ${tag} ${rid}`, zh: `簽證服務${tag}${rid}` };
  const categoryName = lang === 'en' ? category.en : category.zh;
  // English in KRW (no decimals on screen), Chinese in HKD with cents: both stored ×100
  const price =
    lang === 'en'
      ? { currency: 'KRW' as const, typed: '150000', minor: 15_000_000 }
      : {
          currency: 'HKD' as const,
          typed: '1500.5',
          minor: 150_050,
        };
  return {
    name: `catalogue (${lang}): a category and a service, services imported from the XLSX template (a bad row refused, then accepted), an event on the calendar, a student registered, the full event's refusal`,
    async run(page) {
      await page.setViewportSize({ width: 1366, height: 820 });
      await signInAdmin(page, base, lang);

      // 1. Services and categories → Service categories, New
      await openMenu(page, t.categories, t.servicesGroup);
      await page.waitForURL((url) => url.pathname === '/products/categories');
      await clickTo(
        page,
        createLink(page, '/products/categories/create'),
        (url) => url.pathname === '/products/categories/create',
      );
      await formItem(page, FIELDS(lang, 'product_category').name_en).locator('input').fill(category.en);
      await formItem(page, FIELDS(lang, 'product_category').name_zh).locator('input').fill(category.zh);
      const createdCategory = await answerOf(page, 'POST', '/api/product-categories', () =>
        page.getByRole('button', { name: t.save }).click(),
      );
      check(
        createdCategory.status() === 201,
        `the category: ${createdCategory.status()} ${await createdCategory.text()}`,
      );

      // 2. Services, New: in the category, a unit, the price in its currency
      const code = `VISA-${tag}-${rid}`;
      await openMenu(page, t.services, t.servicesGroup);
      await page.waitForURL((url) => url.pathname === '/products/products');
      await clickTo(
        page,
        createLink(page, '/products/products/create'),
        (url) => url.pathname === '/products/products/create',
      );
      await formItem(page, productFields.code).locator('input').fill(code.toLowerCase());
      await formItem(page, productFields.name_en).locator('input').fill(`Visa application ${tag} ${rid}`);
      await formItem(page, productFields.name_zh).locator('input').fill(`簽證申請${tag}${rid}`);
      await lookUp(page, formItem(page, productFields.category_id), rid, categoryName);
      await choose(page, formItem(page, productFields.unit), t.item);
      await choose(page, formItem(page, productFields.currency), t.currency[price.currency]);
      await formItem(page, productFields.price).locator('input').fill(price.typed);
      await page.screenshot({ path: shot('1-service-form'), fullPage: true });
      const createdProduct = await answerOf(page, 'POST', '/api/products', () =>
        page.getByRole('button', { name: t.save }).click(),
      );
      check(
        createdProduct.status() === 201,
        `the service: ${createdProduct.status()} ${await createdProduct.text()}`,
      );
      const product = (await createdProduct.json()) as Row;
      check(
        product.code === code && product.price === price.minor && product.currency === price.currency,
        `stored upper-cased, ×100: ${JSON.stringify(product)}`,
      );

      // 3. Import: the template in this language, filled; a row naming no category refuses the file in words
      await page.goto(`${base}/products/products`);
      const good = [1, 2, 3].map((n) => ({
        code: `IMP${n}-${tag}-${rid}`,
        name_en: `Imported service ${n} ${rid}`,
        name_zh: `匯入服務${n}${rid}`,
        category_id: categoryName,
        unit: t.item,
        price: 100 * n,
        currency: 'HKD',
        is_active: t.yes,
      }));
      const missing = lang === 'en' ? 'No such category' : '沒有此類別';
      const bad = good.map((row, i) => (i === 1 ? { ...row, category_id: missing } : row));
      await page.getByTestId('resource-import').click();
      const dialog = page.getByRole('dialog', { name: t.importTitle });
      await dialog.waitFor();
      const dropZone = dialog.getByRole('button', { name: t.importChoose });
      const refusedAnswer = await answerOf(page, 'POST', '/api/products/import', async () =>
        uploadThroughChooser(
          page,
          dropZone,
          `services-bad-${rid}.xlsx`,
          await filledTemplate(page, lang, bad),
        ),
      );
      check(refusedAnswer.status() === 422, `the bad file is refused: ${refusedAnswer.status()}`);
      const errors = dialog.getByTestId('resource-import-errors');
      await errors.waitFor();
      const expectedRow = catalogMessage('importCell', lang, {
        row: 3,
        column: productFields.category_id,
        message: catalogMessage('importNoMatch', lang, { value: missing }),
      });
      const errorText = await errors.innerText();
      check(
        errorText.includes(expectedRow),
        `the refusal names the row and column: "${errorText}", expected "${expectedRow}"`,
      );
      check(
        errorText.includes(catalogMessage('importRowsBad', lang, { count: 1 })),
        `the refusal says nothing was imported: "${errorText}"`,
      );
      await page.screenshot({ path: shot('2-import-refused') });
      const none = await apiCall(page, 'GET', `/api/products?q=${encodeURIComponent(`IMP1-${tag}-${rid}`)}`);
      check((JSON.parse(none.body) as { total: number }).total === 0, `nothing imported: ${none.body}`);
      const accepted = await answerOf(page, 'POST', '/api/products/import', async () =>
        uploadThroughChooser(page, dropZone, `services-${rid}.xlsx`, await filledTemplate(page, lang, good)),
      );
      check(accepted.status() === 200, `the good file: ${accepted.status()} ${await accepted.text()}`);
      await dialog.locator('.ant-alert-success').getByText(t.imported(3)).waitFor();
      await dialog.locator('.ant-modal-footer').getByRole('button', { name: t.close }).click();
      await dialog.waitFor({ state: 'hidden' });
      await searchList(page, rid);
      for (const row of good) await rowOf(page, row.code);
      await rowOf(page, code);
      await page.screenshot({ path: shot('3-services'), fullPage: true });

      // 4. Special events: the list opens on registration dates from today to 31 December, in the address
      const today = hongKongToday();
      await openMenu(page, t.events);
      await page.waitForURL((url) => url.pathname === '/special-events');
      await page.waitForURL(
        (url) =>
          url.searchParams.get('date_type') === 'reg_date' &&
          url.searchParams.get('start') === today &&
          url.searchParams.get('end') === `${today.slice(0, 4)}-12-31`,
      );
      await page.reload();
      check(
        new URL(page.url()).searchParams.get('start') === today,
        `a reload keeps the window: ${page.url()}`,
      );
      await page.getByTestId('filter-date_type').waitFor();

      // a one-place event whose registration opens today; the event in three days, in the evening
      const eventDay = addDays(today, 3);
      const title = { en: `Yonsei briefing ${tag} ${rid}`, zh: `延世大學簡介會${tag}${rid}` };
      await clickTo(
        page,
        createLink(page, '/special-events/basic/create'),
        (url) => url.pathname === '/special-events/basic/create',
      );
      await choose(page, formItem(page, eventFields.event_type), t.seminar);
      await formItem(page, eventFields.title_en).locator('input').fill(title.en);
      await formItem(page, eventFields.title_zh).locator('input').fill(title.zh);
      await typeDate(page, formItem(page, eventFields.reg_start_date), today);
      await typeDate(page, formItem(page, eventFields.reg_end_date), addDays(today, 2));
      await typeDate(page, formItem(page, eventFields.event_start), `${eventDay} 18:30`);
      await typeDate(page, formItem(page, eventFields.event_end), `${eventDay} 20:30`);
      await formItem(page, eventFields.venue).locator('input').fill('Mong Kok office');
      await formItem(page, eventFields.capacity).locator('input').fill('1');
      await page.screenshot({ path: shot('4-event-form'), fullPage: true });
      const createdEvent = await answerOf(page, 'POST', '/api/special-events', () =>
        page.getByRole('button', { name: t.save }).click(),
      );
      check(
        createdEvent.status() === 201,
        `the event: ${createdEvent.status()} ${await createdEvent.text()}`,
      );
      const event = (await createdEvent.json()) as Row;
      check(
        event.event_start === `${eventDay}T10:30:00.000Z`,
        `18:30 in Hong Kong is stored as 10:30 UTC: ${String(event.event_start)}`,
      );
      await page.waitForURL((url) => url.pathname === `/special-events/basic/${String(event.id)}`);

      // 5. On the calendar: the event on its day, linking to it
      await page.goto(`${base}/calendar/list`);
      const eventTitle = lang === 'en' ? title.en : title.zh;
      const listed = page.getByTestId('calendar-view').getByText(eventTitle, { exact: true });
      if (eventDay.slice(0, 7) !== today.slice(0, 7)) {
        // the list shows this month: the event is next month's
        await page.getByTestId('calendar-view').waitFor();
        await page.getByTestId('calendar-next').click();
      }
      await listed.waitFor();
      await page.screenshot({ path: shot('5-calendar'), fullPage: true });
      await listed.click();
      await page.waitForURL((url) => url.pathname === `/special-events/basic/${String(event.id)}`);

      // 6. Registrations: a student registered; a second one refused, the event full, in words
      const branchId = await firstId(page, '/api/branches', '');
      const students: Row[] = [];
      for (const n of [1, 2]) {
        const made = await apiCall(page, 'POST', '/api/students', {
          surname_en: `EVENT${tag}`,
          given_name_en: `Guest ${n} ${rid}`,
          name_zh: `來賓${n}${tag}${rid}`,
          branch_id: branchId,
        });
        check(made.status === 201, `a student: ${made.status} ${made.body}`);
        students.push(JSON.parse(made.body) as Row);
      }
      const studentName = (s: Row) =>
        lang === 'en'
          ? `${String(s.student_no)} ${String(s.surname_en)} ${String(s.given_name_en)}`
          : `${String(s.student_no)} ${String(s.name_zh)}`;
      await page.getByRole('tab', { name: t.registrations }).click();
      await page.waitForURL((url) => url.pathname === `/special-events/registration/${String(event.id)}`);
      const register = async (student: Row) => {
        await clickTo(
          page,
          page.getByRole('tabpanel', { name: t.registrations }).getByTestId('resource-create'),
          (url) => url.pathname === `/special-events/registration/${String(event.id)}/create`,
        );
        const form = page.getByTestId('child-record-special_event_registration');
        await lookUp(
          page,
          formItem(form, FIELDS(lang, 'special_event_registration').student_id),
          String(student.student_no),
          studentName(student),
        );
        return answerOf(page, 'POST', `/api/special-events/${String(event.id)}/registrations`, () =>
          form.getByRole('button', { name: t.save }).click(),
        );
      };
      const first = await register(students[0]);
      check(
        first.status() === 201,
        `the first student is registered: ${first.status()} ${await first.text()}`,
      );
      await page.waitForURL((url) => url.pathname === `/special-events/registration/${String(event.id)}`);
      const row = await rowOf(page, studentName(students[0]));
      await row.getByText(t.registeredTag).waitFor();
      await page.screenshot({ path: shot('6-registered'), fullPage: true });

      const second = await register(students[1]);
      check(second.status() === 422, `the second is refused: ${second.status()} ${await second.text()}`);
      const refusal = page.getByTestId('resource-form-error');
      await refusal.getByText(catalogMessage('eventFull', lang, { capacity: 1 })).waitFor();
      await page.screenshot({ path: shot('7-event-full'), fullPage: true });
      const stored = await apiCall(page, 'GET', `/api/special-events/${String(event.id)}/registrations`);
      check((JSON.parse(stored.body) as { total: number }).total === 1, `one registration: ${stored.body}`);
    },
  };
}

/** The journeys, in Chinese (the staff default) and English. */
export function catalogueJourneys(main: RunningServer): Journey[] {
  const rid = Date.now().toString(36).slice(-5).toUpperCase();
  return [journey(main, 'zh_HK', rid), journey(main, 'en', rid)];
}

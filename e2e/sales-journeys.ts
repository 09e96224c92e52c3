import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { documentTotals, formatMinor } from '../shared/money';
import {
  catalogMessage,
  clickTo,
  createLink,
  answerOf,
  calendarsClosed,
  formItem,
  openCalendar,
  openMenu,
  openOptions,
  signInAdmin,
  until,
  type Lang,
} from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Issue 27 as a person goes through it, in each language, at 1366 px: a quotation for the demo student made from
 * the menu with three lines (two services picked by kind and code, which fill their description and price, one
 * typed by hand) and discounts typed as percentages, its totals previewed as the server then answers them; sent,
 * accepted; its contract tab filled; converted into an invoice, which opens; the invoice's PDF downloaded (a PDF);
 * voided after a confirmation naming its number, with a reason; unvoided after another, back to issued, its
 * number kept.
 */

const root = resolve(import.meta.dirname, '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as T;

interface Labels {
  fields: Record<string, string>;
  collections: { lines: { fields: Record<string, string> } };
  actions: Record<string, string>;
  tabs?: Record<string, string>;
  states: Record<string, string>;
  title: string;
}
const RESOURCES = (lang: Lang, name: string): Labels =>
  readJson<{ resources: Record<string, Labels> }>(`shared/resources/locales/${lang}.json`).resources[name];
const RESOURCE_UI = (lang: Lang) =>
  readJson<{
    resource: { lines: Record<string, string> & { sources: Record<string, string> }; print: string };
  }>(`client/src/components/resource/locales/${lang}.json`).resource;

/** The spec's messages as the client shows them (`serverMessages` of the shell's catalogue in each language). */
const serverMessage = (key: string, lang: Lang): string =>
  readJson<{ serverMessages: Record<string, string> }>(`client/src/locales/${lang}.json`).serverMessages[key];

const TEXT = {
  en: {
    group: 'Quotations',
    invoices: 'Invoices',
    save: 'Save',
    delete: 'Delete',
    student: 'CHAN',
    manual: 'Airport pickup',
  },
  zh_HK: {
    group: '報價',
    invoices: '發票',
    save: '儲存',
    delete: '刪除',
    student: '陳大文',
    manual: '接機服務',
  },
} as const;

/** Today in Hong Kong, `YYYY-MM-DD`, and a day after it. */
function hongKongDay(plus = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + plus);
  return d.toISOString().slice(0, 10);
}

async function typeDate(page: Page, item: Locator, value: string): Promise<void> {
  const input = item.locator('input');
  await calendarsClosed(page);
  await input.click();
  await input.fill(value);
  await openCalendar(page).locator(`td[title="${value}"]`).click();
  await calendarsClosed(page);
}

/** Confirms the small confirmation that is open (a Popconfirm) with its primary button. */
async function confirmPopup(page: Page): Promise<void> {
  const ok = page.locator('.ant-popconfirm:visible .ant-btn-primary');
  await ok.first().click();
}

type Row = Record<string, unknown>;

function journey(main: RunningServer, lang: Lang): Journey {
  const base = main.staffUrl;
  const t = TEXT[lang];
  const q = RESOURCES(lang, 'quotation');
  const o = RESOURCES(lang, 'order');
  const ui = RESOURCE_UI(lang);
  const line = q.collections.lines.fields;
  const shot = (step: string) => outputPath(`sales-${lang}-${step}.png`);
  return {
    name: `sales (${lang}): a quotation of three lines with discounts, sent, accepted, its contract, converted into an invoice, the invoice's PDF, voided after confirming, unvoided`,
    async run(page) {
      await page.setViewportSize({ width: 1366, height: 820 });
      await signInAdmin(page, base, lang);

      // 1. Quotations → Quotations, New
      await openMenu(page, q.title, t.group);
      await page.waitForURL((url) => url.pathname === '/quotations');
      await clickTo(
        page,
        createLink(page, '/quotations/basic/create'),
        (url) => url.pathname === '/quotations/basic/create',
      );
      const student = formItem(page, q.fields.student_id);
      await student.locator('.ant-select').click();
      await page.keyboard.type(t.student);
      await openOptions(page).filter({ hasText: t.student }).first().click();
      check(
        (await formItem(page, q.fields.date).locator('input').inputValue()) === hongKongDay(),
        'a new quotation is dated today (Hong Kong)',
      );
      await typeDate(page, formItem(page, q.fields.valid_until), hongKongDay(30));

      // 2. Three lines: two services by kind and code (their description and price filled), one typed by hand
      const lines: { code?: string; description?: string; quantity: string; price?: string; rate: string }[] =
        [
          { code: 'APP-UNI', quantity: '1', rate: '10' },
          { code: 'VISA-D4', quantity: '2', rate: '12.5' },
          { description: t.manual, quantity: '3', price: '333.33', rate: '' },
        ];
      for (const [i, l] of lines.entries()) {
        await page.getByTestId('lines-add').click();
        const n = i + 1;
        if (l.code) {
          const kind = page.getByLabel(`${ui.lines.kind} ${n}`, { exact: true });
          await kind.click();
          await openOptions(page).filter({ hasText: ui.lines.sources.product_id }).first().click();
          const picker = page.getByLabel(`${ui.lines.sources.product_id} ${n}`, { exact: true });
          await picker.click();
          await page.keyboard.type(l.code);
          await openOptions(page).filter({ hasText: l.code }).first().click();
          // the service's description (in the document's language) and price fill the line
          await until(
            page,
            `line ${n}'s price filled from ${l.code}`,
            async () => (await page.getByLabel(`${line.unit_price} ${n}`).inputValue()) !== '',
            true,
          );
        } else {
          await page.getByLabel(`${line.description} ${n}`).fill(l.description!);
          await page.getByLabel(`${line.unit_price} ${n}`).fill(l.price!);
        }
        await page.getByLabel(`${line.quantity} ${n}`).fill(l.quantity);
        if (l.rate) await page.getByLabel(`${line.discount_rate} ${n}`).fill(l.rate);
      }
      // the preview: documentTotals of shared/money over what the lines hold (services at their seeded prices)
      const expected = documentTotals(
        [
          { quantity: 1, unit_price: 880_000, discount_rate: 1000 },
          { quantity: 2, unit_price: 150_000, discount_rate: 1250 },
          { quantity: 3, unit_price: 33_333, discount_rate: 0 },
        ],
        'HKD',
      );
      await until(
        page,
        'the previewed total',
        () => page.getByTestId('lines-total').innerText(),
        `HKD ${formatMinor(expected.total, 'HKD')}`,
      );
      for (const [i, net] of expected.nets.entries())
        check(
          (await page.getByTestId(`line-net-${i}`).innerText()) === formatMinor(net, 'HKD'),
          `line ${i + 1}'s net shows ${formatMinor(net, 'HKD')}`,
        );
      await page.screenshot({ path: shot('1-quotation-lines'), fullPage: true });
      const created = await answerOf(page, 'POST', '/api/quotations', () =>
        page.getByRole('button', { name: t.save }).click(),
      );
      check(created.status() === 201, `the quotation: ${created.status()} ${await created.text()}`);
      const quotation = (await created.json()) as Row;
      check(
        quotation.subtotal === expected.subtotal &&
          quotation.discount_total === expected.discount_total &&
          quotation.total === expected.total,
        `the server's totals are the preview's: ${JSON.stringify([quotation.subtotal, quotation.discount_total, quotation.total])} vs ${JSON.stringify(expected)}`,
      );
      console.log(
        `sales (${lang}): quotation ${String(quotation.quotation_no)} subtotal ${expected.subtotal} discount ${expected.discount_total} total ${expected.total} (minor units), screen = server`,
      );
      const id = Number(quotation.id);
      await page.waitForURL((url) => url.pathname === `/quotations/basic/${id}`);

      // 3. Sent, then accepted (each asked first)
      for (const [action, state] of [
        ['send', 'sent'],
        ['accept', 'accepted'],
      ] as const) {
        await page.getByTestId('record-actions').locator(`[data-move="${action}"]`).click();
        const moved = await answerOf(page, 'POST', `/api/quotations/${id}/${action}`, () =>
          confirmPopup(page),
        );
        check(moved.status() === 200, `${action}: ${moved.status()} ${await moved.text()}`);
        check(((await moved.json()) as Row).status === state, `the quotation is ${state}`);
        await page.locator(`.resource-record [data-state="${state}"]`).first().waitFor();
      }

      // 4. The contract tab: its number and signatory, saved on their own
      await page.getByRole('tab', { name: q.tabs!.contract }).click();
      await page.waitForURL((url) => url.pathname === `/quotations/contract/${id}`);
      const contractNo = `C-${lang}-${id}`;
      await formItem(page, q.fields.contract_no).locator('input').fill(contractNo);
      await formItem(page, q.fields.signatory_name).locator('input').fill(t.student);
      const contract = await answerOf(page, 'PUT', `/api/quotations/${id}`, () =>
        page.getByRole('button', { name: t.save }).click(),
      );
      check(contract.status() === 200, `the contract: ${contract.status()} ${await contract.text()}`);
      check(((await contract.json()) as Row).contract_no === contractNo, 'the contract number is kept');
      // the signed copy, uploaded to the field's own route
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        formItem(page, q.fields.signed_file_id).getByRole('button').first().click(),
      ]);
      const uploaded = await answerOf(page, 'POST', `/api/quotations/${id}/signed`, () =>
        chooser.setFiles({
          name: `signed-${lang}.pdf`,
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
        }),
      );
      check(uploaded.ok(), `the signed copy: ${uploaded.status()} ${await uploaded.text()}`);
      await formItem(page, q.fields.signed_file_id).getByText(`signed-${lang}.pdf`).first().waitFor();
      await page.screenshot({ path: shot('2-contract'), fullPage: true });

      // 5. Converted into an invoice (asked first): the invoice opens
      await page.getByTestId('quotation-convert').click();
      const converted = await answerOf(page, 'POST', `/api/quotations/${id}/convert`, () =>
        confirmPopup(page),
      );
      check(converted.status() === 201, `convert: ${converted.status()} ${await converted.text()}`);
      const order = (await converted.json()) as Row;
      check(order.total === expected.total, `the invoice's total is the quotation's: ${String(order.total)}`);
      const orderNo = String(order.order_no);
      await page.waitForURL((url) => url.pathname === `/orders/order/${String(order.id)}`);
      await page.getByRole('heading', { name: orderNo }).waitFor();
      await page.getByTestId('order-status').locator('[data-state="issued"]').waitFor();
      await page
        .getByTestId('lines-total')
        .filter({ hasText: formatMinor(expected.total, 'HKD') })
        .waitFor();
      // an invoice is voided, never deleted: no Delete on its page, whatever the admin holds
      const deleteButtons = await page
        .getByTestId('form-save-bar')
        .getByRole('button', { name: t.delete })
        .count();
      check(deleteButtons === 0, `the invoice's page offers no Delete (${deleteButtons} found)`);
      await page.screenshot({ path: shot('3-invoice'), fullPage: true });

      // 6. Print: the invoice's PDF downloaded
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('record-print').click(),
      ]);
      const path = outputPath(`sales-${lang}-invoice.pdf`);
      await download.saveAs(path);
      const head = readFileSync(path).subarray(0, 5).toString('latin1');
      check(
        head === '%PDF-',
        `the download is a PDF: ${JSON.stringify(head)} (${download.suggestedFilename()})`,
      );
      console.log(
        `sales (${lang}): ${download.suggestedFilename()} downloaded, ${readFileSync(path).length} bytes, starts ${head}`,
      );

      // 7. E-mail to the student, asked first: sent, or the spec's words for why not, in the screen's language
      await page.getByTestId('order-email').click();
      const mailed = await answerOf(page, 'POST', `/api/orders/${String(order.id)}/email`, () =>
        confirmPopup(page),
      );
      const notice = page.getByTestId(mailed.ok() ? 'email-sent' : 'email-failed');
      await notice.waitFor();
      const said = await notice.innerText();
      if (!mailed.ok()) {
        const words = [serverMessage('smtpMissing', lang), serverMessage('emailFailed', lang)];
        check(words.includes(said), `the e-mail's refusal in words: ${said} (${mailed.status()})`);
      }
      console.log(`sales (${lang}): e-mail ${mailed.status()}: ${said}`);

      // 8. Void: the dialog names the number and asks for a reason; refused without one
      await page.getByTestId('record-actions').locator('[data-move="void"]').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(orderNo).first().waitFor();
      await page.getByTestId('move-confirm').click();
      await dialog.locator('.ant-form-item-explain-error').first().waitFor();
      await formItem(dialog, o.fields.void_reason).locator('input').fill(`${t.manual} ×`);
      await page.screenshot({ path: shot('4-void-dialog') });
      const voided = await answerOf(page, 'POST', `/api/orders/${String(order.id)}/void`, () =>
        page.getByTestId('move-confirm').click(),
      );
      check(voided.status() === 200, `void: ${voided.status()} ${await voided.text()}`);
      const afterVoid = (await voided.json()) as Row;
      check(
        afterVoid.status === 'void' && afterVoid.order_no === orderNo,
        `void, number kept: ${String(afterVoid.status)} ${String(afterVoid.order_no)}`,
      );
      await page.getByTestId('order-status').locator('[data-state="void"]').waitFor();
      // read-only while void, saying why in the screen's language: no Save, unvoid still offered
      await page
        .getByTestId('resource-read-only')
        .getByText(catalogMessage('orderVoidLocked', lang))
        .waitFor();
      check(
        (await page.getByRole('button', { name: t.save }).count()) === 0,
        'a void invoice offers no Save',
      );
      await page.screenshot({ path: shot('5-void'), fullPage: true });

      // 9. Unvoid, after its own confirmation: issued again, the same number
      await page.getByTestId('record-actions').locator('[data-move="unvoid"]').click();
      await page.getByRole('dialog').getByText(orderNo).first().waitFor();
      const unvoided = await answerOf(page, 'POST', `/api/orders/${String(order.id)}/unvoid`, () =>
        page.getByTestId('move-confirm').click(),
      );
      check(unvoided.status() === 200, `unvoid: ${unvoided.status()} ${await unvoided.text()}`);
      const afterUnvoid = (await unvoided.json()) as Row;
      check(
        afterUnvoid.status === 'issued' && afterUnvoid.order_no === orderNo,
        `issued again, number kept: ${String(afterUnvoid.status)} ${String(afterUnvoid.order_no)}`,
      );
      await page.getByTestId('order-status').locator('[data-state="issued"]').waitFor();
      await page.getByTestId('resource-read-only').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: t.save }).waitFor();

      // 10. The invoices list: its row, and the page's total per currency
      await openMenu(page, o.title, t.invoices);
      await page.waitForURL((url) => url.pathname === '/orders/order');
      await page.locator('.ant-table-row').filter({ hasText: orderNo }).first().waitFor();
      const totalRow = page.locator('[data-testid="page-total"][data-currency="HKD"]');
      await totalRow.waitFor();
      await page.screenshot({ path: shot('6-invoices'), fullPage: true });

      // 11. The student's invoices tab (spec /students/invoice/:id): the invoice, outstanding per currency
      await page.goto(`${base}/students/invoice/${String(order.student_id)}`);
      await page.getByTestId('student-outstanding').locator('[data-currency="HKD"]').waitFor();
      await page.locator('.ant-table-row').filter({ hasText: orderNo }).first().waitFor();
      await page.locator('[data-testid="page-total"][data-currency="HKD"]').waitFor();
      await page.screenshot({ path: shot('7-student-invoices'), fullPage: true });
    },
  };
}

export function salesJourneys(main: RunningServer): Journey[] {
  return [journey(main, 'zh_HK'), journey(main, 'en')];
}

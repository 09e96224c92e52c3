import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { pdfText } from '../server/test/pdf-text';
import { formatMinor } from '../shared/money';
import { FIELD_MESSAGES } from '../shared/messages';
import {
  clickTo,
  answerOf,
  apiCall,
  calendarsClosed,
  choose,
  firstId,
  formItem,
  openCalendar,
  openOptions,
  signInAdmin,
  until,
  type Lang,
} from './actions';
import { signIn } from './accounts-journeys';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Issue 28 as people go through it, in each language, at 1366 px: on an invoice (made through the API in the
 * setup, with refund terms and a second person, an approver, made the same way), the admin records a receipt from
 * the invoice's page (the invoice already chosen, its branch first), cannot approve it (the reason shown); the
 * approver approves it in a browser of their own; the invoice's paid, outstanding and status change on screen; a
 * refund under the terms recorded by the admin is approved by the approver; a prepaid deposit on the student's
 * prepaid tab, and the balance in its currency grows by it. The receipt's Save is double-clicked, as an impatient
 * person does: one receipt. The receipt's and the refund's PDFs are downloaded with Print and read back
 * (pdftotext): the student's English, Chinese and Korean names, the number and the amount.
 */

const root = resolve(import.meta.dirname, '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as T;

interface Labels {
  fields: Record<string, string>;
  actions: Record<string, string>;
  states: Record<string, string>;
  title: string;
}
const RESOURCES = (lang: Lang, name: string): Labels =>
  readJson<{ resources: Record<string, Labels> }>(`shared/resources/locales/${lang}.json`).resources[name];
const MONEY = (lang: Lang): Record<string, string> =>
  readJson<{ money: Record<string, string> }>(`client/src/features/money/locales/${lang}.json`).money;

/** A server message as the client shows it: English from the catalogue, Chinese from the client's. */
const serverMessage = (key: string, lang: Lang): string =>
  lang === 'en'
    ? (FIELD_MESSAGES as Record<string, string>)[key]
    : readJson<{ serverMessages: Record<string, string> }>('client/src/locales/messages.zh_HK.json')
        .serverMessages[key];

const TEXT = {
  en: { save: 'Save', cash: 'Cash', hkd: 'Hong Kong dollar' },
  zh_HK: { save: '儲存', cash: '現金', hkd: '港元' },
} as const;

const APPROVER_PASSWORD = 'Approve12345';
/** The demo student's names as the PDFs print them (seeds/index.ts): English, Chinese, Korean. */
const STUDENT_NAMES = ['CHAN Tai Man', '陳大文', '진대문'];

/** Today in Hong Kong, `YYYY-MM-DD`. */
function hongKongDay(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
}

async function typeDate(page: Page, item: Locator, value: string): Promise<void> {
  const input = item.locator('input');
  await calendarsClosed(page);
  await input.click();
  await input.fill(value);
  await openCalendar(page).locator(`td[title="${value}"]`).click();
  await calendarsClosed(page);
}

/** Confirms the small confirmation that is open (a Popconfirm) with its primary button, once it is open. */
async function confirmPopup(page: Page): Promise<void> {
  const ok = page.locator('.ant-popconfirm:visible .ant-btn-primary').first();
  await ok.waitFor();
  await ok.click();
}

/** A declared move asked first (Approve), on a record's page once it is shown, and the server's answer. */
async function moveOnRecord(page: Page, path: string, action: string) {
  const button = page.locator(`[data-move="${action}"]`);
  await button.waitFor();
  await page.waitForLoadState('networkidle');
  return answerOf(page, 'POST', path, async () => {
    // a click that landed while the record's page drew itself again opens nothing: asked again until it opens
    const popup = page.locator('.ant-popconfirm:visible');
    for (let tries = 0; tries < 5 && !(await popup.count()); tries++) {
      await button.click();
      await popup.waitFor({ timeout: 3000 }).catch(() => {});
    }
    await confirmPopup(page);
  });
}

type Row = Record<string, unknown>;

async function api(
  page: Page,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  status = 0,
): Promise<Row> {
  const res = await apiCall(page, method, path, body);
  check(
    status ? res.status === status : res.status < 300,
    `${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`,
  );
  return JSON.parse(res.body) as Row;
}

const hkd = (minor: number) => `HKD ${formatMinor(minor, 'HKD')}`;

function journey(main: RunningServer, lang: Lang): Journey {
  const base = main.staffUrl;
  const t = TEXT[lang];
  const m = MONEY(lang);
  const rc = RESOURCES(lang, 'receipt');
  const rf = RESOURCES(lang, 'refund');
  const ord = RESOURCES(lang, 'order');
  const tag = lang === 'en' ? 'en' : 'zh';
  const shot = (step: string) => outputPath(`money-${lang}-${step}.png`);
  return {
    name: `money (${lang}): a receipt recorded on an invoice, its approval refused to its recorder, approved by a second person, the invoice paid and outstanding on screen; a refund under terms approved; a prepaid deposit and its balance`,
    async run(page, context) {
      await page.setViewportSize({ width: 1366, height: 900 });
      await signInAdmin(page, base, lang);

      // setup through the API: an invoice of HKD 10,000.00 for the demo student, refund terms, an approver
      const rid = Date.now().toString(36).slice(-5);
      const studentId = await firstId(page, '/api/students', 'CHAN');
      const order = await api(page, 'POST', '/api/orders', {
        student_id: studentId,
        date: hongKongDay(),
        currency: 'HKD',
        lines: [{ description: `Tuition ${rid}`, quantity: 1, unit_price: 1_000_000, discount_rate: 0 }],
      });
      const orderId = Number(order.id);
      const orderNo = String(order.order_no);
      const terms = await api(page, 'POST', '/api/refund-terms', {
        title_en: `Refund terms ${rid}`,
        title_zh: `退款條款 ${rid}`,
        content_en: '<p>Refunds within 14 days.</p>',
        content_zh: '<p>十四日內退款。</p>',
      });
      const role = await api(page, 'POST', '/api/roles', {
        name: `Approver ${tag} ${rid}`,
        data_scope: 'all',
        permissions: [
          'orders.view',
          'students.view',
          'receipts.view',
          'receipts.approve',
          'refunds.view',
          'refunds.approve',
        ],
      });
      const approverEmail = `approver-${tag}-${rid}@example.com`;
      await api(page, 'POST', '/api/users', {
        branch_id: order.branch_id,
        name: `Approver ${tag} ${rid}`,
        email: approverEmail,
        password: APPROVER_PASSWORD,
        password_confirmation: APPROVER_PASSWORD,
        role_id: role.id,
        language: lang,
      });
      // the approver, at another desk: a browser context of their own
      // as the harness's own context: a system asking for less motion (a click on a popover still zooming in is lost)
      const other = await context.browser()!.newContext({
        viewport: { width: 1366, height: 900 },
        reducedMotion: 'reduce',
      });
      const approver = await other.newPage();
      try {
        /** Print on the record shown: its PDF downloaded and read back, the student's three names in it. */
        const printed = async (on: Page, kind: string, facts: string[]) => {
          const [download] = await Promise.all([
            on.waitForEvent('download'),
            on.getByTestId('record-print').click(),
          ]);
          const path = outputPath(`money-${lang}-${kind}.pdf`);
          await download.saveAs(path);
          const text = pdfText(readFileSync(path));
          const missing = [...STUDENT_NAMES, ...facts].filter((fact) => !text.includes(fact));
          check(
            missing.length === 0,
            `the ${kind} PDF holds ${missing.join(', ')} (read back: ${text.slice(0, 400)})`,
          );
          console.log(
            `e2e money (${lang}): ${download.suggestedFilename()} downloaded, ${readFileSync(path).length} bytes; ` +
              `read back: ${[...STUDENT_NAMES, ...facts].join(', ')}`,
          );
        };
        await signIn(approver, base, lang, approverEmail, APPROVER_PASSWORD);
        await approver.getByTestId('user-menu').waitFor();

        // 1. a new receipt from the list: the invoice cannot be chosen before the branch
        await page.goto(`${base}/orders/receipt/create`);
        const invoiceItem = formItem(page, rc.fields.order_id);
        await invoiceItem.waitFor();
        check(
          (await invoiceItem.locator('.ant-select-disabled').count()) === 1,
          'the invoice is chosen after the branch',
        );
        await page.screenshot({ path: shot('1-branch-first'), fullPage: true });

        // 2. the invoice's page: its money tab, New receipt opens the form with the invoice chosen
        await page.goto(`${base}/orders/order/${orderId}`);
        await page.getByRole('tab', { name: m.receiptsTab }).click();
        await page.getByTestId('invoice-money').waitFor();
        await clickTo(
          page,
          page.getByTestId('invoice-receipts').getByTestId('resource-create'),
          (url) => url.pathname === '/orders/receipt/create',
        );
        await until(
          page,
          'the invoice chosen',
          async () =>
            (await formItem(page, rc.fields.order_id).locator('.ant-select').innerText()).includes(orderNo),
          true,
        );
        await page.getByTestId('invoice-room').waitFor();
        check(
          (await page.getByTestId('invoice-room').innerText()).includes(hkd(1_000_000)),
          'the invoice still takes HKD 10,000.00',
        );
        await typeDate(page, formItem(page, rc.fields.date), hongKongDay());
        await choose(page, formItem(page, rc.fields.method), t.cash);
        await formItem(page, rc.fields.amount).locator('input').fill('4,000.50');
        await formItem(page, rc.fields.reference_no).locator('input').fill(`FPS-${rid}`);
        await page.screenshot({ path: shot('2-receipt-form'), fullPage: true });
        // Save double-clicked: however many requests the two clicks send, one receipt
        const posts: string[] = [];
        const countPost = (request: { method(): string; url(): string }) => {
          if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/receipts')
            posts.push(request.url());
        };
        page.on('request', countPost);
        const created = await answerOf(page, 'POST', '/api/receipts', () =>
          page.getByTestId('form-save-bar').getByRole('button', { name: t.save }).dblclick(),
        );
        check(created.status() === 201, `the receipt is recorded (got ${created.status()})`);
        const receipt = (await created.json()) as Row;
        check(receipt.amount === 400_050, `the amount is 400,050 minor units, got ${String(receipt.amount)}`);
        await page.waitForURL((url) => url.pathname !== '/orders/receipt/create');
        await page.waitForLoadState('networkidle');
        page.off('request', countPost);
        const onInvoice = (await api(page, 'GET', `/api/receipts?order_id=${orderId}&per_page=50`)) as {
          items?: Row[];
        };
        const receiptsMade = (onInvoice.items ?? []).length;
        check(receiptsMade === 1, `a double-clicked Save makes one receipt, found ${receiptsMade}`);
        console.log(
          `e2e money (${lang}): receipt ${String(receipt.receipt_no)} of ${hkd(400_050)} on ${orderNo}; Save ` +
            `double-clicked: ${posts.length} POST sent, ${receiptsMade} receipt on the invoice`,
        );

        // 3. its recorder cannot approve it: the reason, in words
        await page.goto(`${base}/orders/receipt/${String(receipt.id)}`);
        await page.locator('[data-move="approve"]').click();
        await confirmPopup(page);
        const refusal = serverMessage('receiptOwnApproval', lang);
        await page.getByText(refusal).first().waitFor();
        await page.screenshot({ path: shot('3-own-approval-refused'), fullPage: true });

        // 4. the approver approves it
        await approver.goto(`${base}/orders/receipt/${String(receipt.id)}`);
        const approved = await moveOnRecord(
          approver,
          `/api/receipts/${String(receipt.id)}/approve`,
          'approve',
        );
        check(approved.status() === 200, `the approver approves (got ${approved.status()})`);
        await approver.screenshot({ path: shot('4-approved'), fullPage: true });
        await printed(approver, `receipt`, [String(receipt.receipt_no), formatMinor(400_050, 'HKD')]);

        // the receipts list (Invoices → Receipts): the receipt approved, the page's total per currency
        await page.goto(`${base}/orders/receipt?q=${encodeURIComponent(String(receipt.receipt_no))}`);
        const listed = page.locator('.ant-table-row').filter({ hasText: String(receipt.receipt_no) });
        await listed.waitFor();
        await listed.getByText(rc.states.approved).waitFor();
        const pageTotal = page.locator(
          '[data-testid="page-total"][data-currency="HKD"] [data-total="amount"]',
        );
        await until(page, 'the page total', () => pageTotal.innerText(), formatMinor(400_050, 'HKD'));
        await page.screenshot({ path: shot('4-receipts-list'), fullPage: true });

        // 5. the invoice: partially paid, paid 4,000.50, outstanding 5,999.50
        await page.goto(`${base}/orders/order/${orderId}`);
        await until(
          page,
          'the status',
          () => page.getByTestId('order-status').innerText(),
          ord.states.partially_paid,
        );
        await page.getByRole('tab', { name: m.receiptsTab }).click();
        const money = page.getByTestId('invoice-money');
        await until(
          page,
          'paid',
          () => money.locator('[data-money="paid_amount"]').innerText(),
          hkd(400_050),
        );
        await until(
          page,
          'outstanding',
          () => money.locator('[data-money="outstanding"]').innerText(),
          hkd(599_950),
        );
        await money
          .locator('.ant-table-row')
          .filter({ hasText: String(receipt.receipt_no) })
          .waitFor();
        await page.screenshot({ path: shot('5-invoice-paid'), fullPage: true });

        // 6. a refund under the terms, from the invoice, approved by the approver
        await clickTo(
          page,
          page.getByTestId('invoice-refunds').getByTestId('resource-create'),
          (url) => url.pathname === '/orders/refund/create',
        );
        await page.getByTestId('invoice-room').waitFor();
        await typeDate(page, formItem(page, rf.fields.date), hongKongDay());
        const termsItem = formItem(page, rf.fields.refund_term_id);
        await termsItem.locator('.ant-select').click();
        await page.keyboard.type(rid);
        await choose(page, termsItem, rid);
        // the receipt it refunds: the picker offers this invoice's receipts, no other invoice's
        const receiptItem = formItem(page, rf.fields.receipt_id);
        await receiptItem.locator('.ant-select').click();
        await until(
          page,
          'the receipts offered',
          async () => (await openOptions(page).allInnerTexts()).join(' | '),
          String(receipt.receipt_no),
        );
        await choose(page, receiptItem, String(receipt.receipt_no));
        await formItem(page, rf.fields.amount).locator('input').fill('1000');
        await page.screenshot({ path: shot('6-refund-form'), fullPage: true });
        const refundAnswer = await answerOf(page, 'POST', '/api/refunds', () =>
          page.getByTestId('form-save-bar').getByRole('button', { name: t.save }).click(),
        );
        check(refundAnswer.status() === 201, `the refund is recorded (got ${refundAnswer.status()})`);
        const refund = (await refundAnswer.json()) as Row;
        check(refund.refund_term_id === terms.id, 'the refund is under the terms chosen');
        check(refund.receipt_id === receipt.id, 'the refund names the receipt chosen');
        await approver.goto(`${base}/orders/refund/${String(refund.id)}`);
        const refundApproved = await moveOnRecord(
          approver,
          `/api/refunds/${String(refund.id)}/approve`,
          'approve',
        );
        check(
          refundApproved.status() === 200,
          `the approver approves the refund (got ${refundApproved.status()})`,
        );
        await printed(approver, 'refund', [String(refund.refund_no), formatMinor(100_000, 'HKD')]);
        await page.goto(`${base}/orders/order/${orderId}`);
        await page.getByRole('tab', { name: m.receiptsTab }).click();
        await until(
          page,
          'refunded',
          () => money.locator('[data-money="refunded_amount"]').innerText(),
          hkd(100_000),
        );
        await until(
          page,
          'outstanding',
          () => money.locator('[data-money="outstanding"]').innerText(),
          hkd(699_950),
        );
        await page.screenshot({ path: shot('7-invoice-refunded'), fullPage: true });
        console.log(
          `e2e money (${lang}): refund ${String(refund.refund_no)} of ${hkd(100_000)} approved; invoice paid ${hkd(400_050)}, refunded ${hkd(100_000)}, outstanding ${hkd(699_950)}`,
        );

        // 7. a prepaid deposit on the student's prepaid tab; the balance in HKD grows by it
        const before = await api(page, 'GET', `/api/students/${studentId}?tab=prepaid`);
        const balanceOf = (row: Row) =>
          ((row.prepaid_balances ?? []) as { currency: string; balance: number }[]).find(
            (b) => b.currency === 'HKD',
          )?.balance ?? 0;
        const was = balanceOf(before);
        await page.goto(`${base}/students/prepaid/${studentId}/create`);
        const pp = RESOURCES(lang, 'student_prepaid');
        await typeDate(page, formItem(page, pp.fields.date), hongKongDay());
        await choose(page, formItem(page, pp.fields.currency), t.hkd);
        await formItem(page, pp.fields.amount).locator('input').fill('500');
        await choose(page, formItem(page, pp.fields.method), t.cash);
        const deposit = await answerOf(page, 'POST', `/api/students/${studentId}/prepaids`, () =>
          page.getByTestId('form-save-bar').getByRole('button', { name: t.save }).click(),
        );
        check(deposit.status() === 201, `the deposit is recorded (got ${deposit.status()})`);
        await page.waitForURL((url) => url.pathname === `/students/prepaid/${studentId}`);
        const balances = page.getByTestId('prepaid-balances');
        await until(
          page,
          'the HKD balance',
          () => balances.locator('[data-currency="HKD"]').innerText(),
          hkd(was + 50_000),
        );
        // the deposits listed under the balance, the new one among them in its currency
        await page
          .locator('.ant-table-row')
          .filter({ hasText: hkd(50_000) })
          .first()
          .waitFor();
        await page.screenshot({ path: shot('8-prepaid'), fullPage: true });
        console.log(`e2e money (${lang}): prepaid HKD balance ${hkd(was)} → ${hkd(was + 50_000)}`);
      } catch (err) {
        // the harness keeps the admin's screen of a failure; the approver's is kept here
        await approver.screenshot({ path: shot('failure-approver'), fullPage: true }).catch(() => {});
        console.log(`e2e money (${lang}): failed with the approver at ${approver.url()}`);
        throw err;
      } finally {
        await other.close();
      }
    },
  };
}

export function moneyJourneys(main: RunningServer): Journey[] {
  return [journey(main, 'zh_HK'), journey(main, 'en')];
}

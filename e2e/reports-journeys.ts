import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import {
  apiCall,
  calendarsClosed,
  firstId,
  openCalendar,
  openMenu,
  rowOf,
  signInAdmin,
  type Lang,
} from './actions';
import { signIn, signOut } from './accounts-journeys';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Issue 29 (the reports without money, the dashboard) as a person goes through it, in each language, at 1366 px:
 * each report opened from the Reports menu on its criteria screen, run into its result screen (its criteria in the
 * address), exported to XLSX (read back: the screen's columns in the screen's language, its rows) and to PDF — the
 * five money reports on an HKD and a KRW invoice of the day, a receipt and a refund approved by a second person,
 * their totals one row per currency; the dashboard's charts drawn, its pending documents listed; a user without the
 * dashboard's permission sent to /home.
 */

const root = resolve(import.meta.dirname, '..');
type Dictionary = { [key: string]: string | Dictionary };
const strings = (lang: Lang): Dictionary =>
  JSON.parse(readFileSync(resolve(root, `shared/reports/locales/${lang}.json`), 'utf8')) as Dictionary;
function text(lang: Lang, key: string): string {
  let node: string | Dictionary | undefined = strings(lang);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no string ${key} in ${lang}`);
  return node;
}

const TEXT = {
  en: {
    group: 'Reports',
    run: 'Run report',
    dashboard: 'Dashboard',
    pendingTitle: 'Documents pending before a deadline',
  },
  zh_HK: { group: '報表', run: '產生報表', dashboard: '儀錶板', pendingTitle: '截止前未遞交的文件' },
} as const;

/** Today in Hong Kong, `YYYY-MM-DD`. */
function hongKongToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(new Date());
}

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

type Row = Record<string, unknown>;

async function created(page: Page, path: string, body: unknown): Promise<Row> {
  const answer = await apiCall(page, 'POST', path, body);
  check(answer.status === 201, `POST ${path}: ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body) as Row;
}

/** Clicks an export button of the result and returns the file the browser saved. */
async function exported(page: Page, format: 'xlsx' | 'pdf'): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByTestId(`report-export-${format}`).click(),
  ]);
  const path = await download.path();
  check(path, `the ${format} file was saved`);
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

/** The first sheet's rows, each cell as text (a date cell as its day). */
async function sheetRows(bytes: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as never);
  const rows: string[][] = [];
  book.worksheets[0].eachRow((row) =>
    rows.push(
      Array.from((row.values as unknown[]).slice(1), (v) =>
        v instanceof Date ? v.toISOString().slice(0, 10) : String(v ?? ''),
      ),
    ),
  );
  return rows;
}

/** Types a day into a date picker and confirms it on the calendar, as a person does. */
async function typeDay(page: Page, label: string, value: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await calendarsClosed(page);
  await input.click();
  await input.fill(value);
  await openCalendar(page).locator(`td[title="${value}"]`).click();
  await calendarsClosed(page);
  check((await input.inputValue()) === value, `${label} holds ${value}: ${await input.inputValue()}`);
}

/** Runs the report on its criteria screen and waits for its result to draw. */
async function run(page: Page, resultPath: string): Promise<void> {
  await page.getByTestId('report-run').click();
  await page.waitForURL((url) => url.pathname === resultPath);
  await page.locator('.resource-list[aria-busy="false"]').waitFor();
}

/** Exports XLSX and PDF of the result: the XLSX headed in the screen's language, holding `expected` texts. */
async function exportBoth(page: Page, lang: Lang, report: string, firstHeader: string, expected: string[]) {
  const xlsx = await exported(page, 'xlsx');
  check(
    xlsx.name.startsWith(`report-${report}-`) && xlsx.name.endsWith('.xlsx'),
    `the XLSX's name: ${xlsx.name}`,
  );
  const rows = await sheetRows(xlsx.bytes);
  check(rows[0][0] === firstHeader, `the XLSX is headed in ${lang}: ${rows[0].join(' | ')}`);
  const cells = rows.slice(1).flat().join(' ');
  for (const value of expected)
    check(cells.includes(value), `the XLSX holds ${value}: ${cells.slice(0, 400)}`);
  const screenRows = await page.locator('.ant-table-tbody .ant-table-row').count();
  const total = Number(
    (await page.locator('.ant-pagination-total-text').innerText()).replace(/[^0-9]/g, '') || screenRows,
  );
  check(rows.length - 1 === total, `the XLSX holds every row of the result (${rows.length - 1} of ${total})`);
  const pdf = await exported(page, 'pdf');
  check(pdf.bytes.subarray(0, 5).toString() === '%PDF-', `a PDF: ${pdf.name}`);
}

function journey(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const t = TEXT[lang];
  const tag = lang === 'en' ? 'EN' : 'ZH';
  const shot = (step: string) => outputPath(`reports-${lang}-${step}.png`);
  return {
    name: `reports (${lang}): each report's criteria run into its result and exported to XLSX and PDF, the dashboard's charts, a user without it sent home`,
    async run(page, context) {
      await page.setViewportSize({ width: 1366, height: 820 });
      await signInAdmin(page, base, lang);
      const today = hongKongToday();

      // a school whose intake's deadline is in five days, and two students applying to it (documents pending)
      const school = await created(page, '/api/schools', {
        code: `RPT${tag}${rid}`,
        name_en: `Report University ${tag} ${rid}`,
        name_zh: `報表大學${tag}${rid}`,
      });
      const subject = await created(page, `/api/schools/${String(school.id)}/subjects`, {
        code: `RS${rid}`,
        name_en: `Korean ${rid}`,
        name_zh: `韓文${rid}`,
      });
      const intake = await created(page, `/api/schools/${String(school.id)}/admissions`, {
        name_en: `Spring ${tag} ${rid}`,
        name_zh: `春季${tag}${rid}`,
        year: Number(today.slice(0, 4)),
        application_deadline: addDays(today, 5),
        subject_ids: [subject.id],
        documents: [
          { name_en: 'Passport copy', name_zh: '護照副本', is_required: true },
          { name_en: 'Transcript', name_zh: '成績表', is_required: true },
        ],
      });
      const branchId = await firstId(page, '/api/branches', 'MK');
      const students: Row[] = [];
      for (const n of [1, 2]) {
        const student = await created(page, '/api/students', {
          surname_en: `REPORT${tag}`,
          given_name_en: `Student ${n} ${rid}`,
          name_zh: `報表學生${n}${tag}${rid}`,
          branch_id: branchId,
        });
        await created(page, `/api/students/${String(student.id)}/applications`, {
          school_id: school.id,
          admission_id: intake.id,
          subject_id: subject.id,
          status: n === 1 ? 'offered' : 'submitted',
        });
        students.push(student);
      }
      const numbers = students.map((s) => String(s.student_no));

      // money for the money reports, today: an HKD and a KRW invoice (services of one category), a receipt on the
      // HKD one approved by a second person, and a refund of part of it under refund terms, approved too
      const category = await created(page, '/api/product-categories', {
        name_en: `Report fees ${tag} ${rid}`,
        name_zh: `報表費用${tag}${rid}`,
      });
      const service = async (currency: 'HKD' | 'KRW', price: number) =>
        created(page, '/api/products', {
          code: `RP${currency}${tag}${rid}`,
          name_en: `Report service ${currency} ${rid}`,
          name_zh: `報表服務${currency}${rid}`,
          category_id: category.id,
          price,
          currency,
        });
      const invoice = async (student: Row, currency: 'HKD' | 'KRW', price: number) => {
        const product = await service(currency, price);
        return created(page, '/api/orders', {
          student_id: student.id,
          date: today,
          currency,
          lines: [
            {
              product_id: product.id,
              description: `Report tuition ${currency} ${tag} ${rid}`,
              quantity: 1,
              unit_price: price,
              discount_rate: 0,
            },
          ],
        });
      };
      const hkdInvoice = await invoice(students[0], 'HKD', 1_200_000);
      const krwInvoice = await invoice(students[1], 'KRW', 300_000_000);
      const receipt = await created(page, '/api/receipts', {
        order_id: hkdInvoice.id,
        date: today,
        method: 'cash',
        amount: 500_000,
        reference_no: `RPT-${tag}-${rid}`,
      });
      const terms = await created(page, '/api/refund-terms', {
        title_en: `Report refund terms ${tag} ${rid}`,
        title_zh: `報表退款條款${tag}${rid}`,
        content_en: '<p>Refunds within 14 days.</p>',
        content_zh: '<p>十四日內退款。</p>',
      });
      const approverRole = await created(page, '/api/roles', {
        name: `Report approver ${tag} ${rid}`,
        data_scope: 'all',
        permissions: ['orders.view', 'receipts.view', 'receipts.approve', 'refunds.view', 'refunds.approve'],
      });
      const approverEmail = `report.approver.${tag.toLowerCase()}.${rid.toLowerCase()}@example.com`;
      await created(page, '/api/users', {
        name: `Report Approver ${tag}`,
        email: approverEmail,
        password: 'Passw0rdOK',
        password_confirmation: 'Passw0rdOK',
        role_id: approverRole.id,
        branch_id: hkdInvoice.branch_id,
        language: lang,
      });
      // a system asking for less motion, as the harness's own context (a click on a zooming popover is lost)
      const desk = await context.browser()!.newContext({ reducedMotion: 'reduce' });
      let refund: Row;
      try {
        const approver = await desk.newPage();
        await signIn(approver, base, lang, approverEmail, 'Passw0rdOK');
        await approver.getByTestId('user-menu').waitFor();
        const approve = async (path: string) => {
          const answer = await apiCall(approver, 'POST', path, {});
          check(answer.status === 200, `POST ${path}: ${answer.status} ${answer.body}`);
        };
        await approve(`/api/receipts/${String(receipt.id)}/approve`);
        refund = await created(page, '/api/refunds', {
          order_id: hkdInvoice.id,
          receipt_id: receipt.id,
          refund_term_id: terms.id,
          date: today,
          method: 'cash',
          amount: 100_000,
        });
        await approve(`/api/refunds/${String(refund.id)}/approve`);
      } finally {
        await desk.close();
      }
      const invoiceNumbers = [String(hkdInvoice.order_no), String(krwInvoice.order_no)];
      // for the dashboard: a receipt on the KRW invoice not approved yet, and an HKD invoice of last month that
      // fell due ten days ago (overdue)
      await created(page, '/api/receipts', {
        order_id: krwInvoice.id,
        date: today,
        method: 'cash',
        amount: 100_000_000,
        reference_no: `RPT-KRW-${tag}-${rid}`,
      });
      await created(page, '/api/orders', {
        student_id: students[0].id,
        date: addDays(today, -40),
        due_date: addDays(today, -10),
        currency: 'HKD',
        lines: [
          {
            description: `Report overdue ${tag} ${rid}`,
            quantity: 1,
            unit_price: 250_000,
            discount_rate: 0,
          },
        ],
      });
      const schoolName = lang === 'en' ? String(school.name_en) : String(school.name_zh);

      // 1. Reports → Student analysis: this year, run, exported
      const studentTitle = text(lang, 'reports.student.title');
      await openMenu(page, studentTitle, t.group);
      await page.waitForURL((url) => url.pathname === '/reports/students/student');
      await page.getByRole('heading', { level: 1, name: studentTitle }).waitFor();
      await page.getByRole('radio', { name: text(lang, 'reports.presets.this_year') }).check();
      await page.screenshot({ path: shot('1-student-criteria'), fullPage: true });
      await run(page, '/reports/students/student-result');
      check(
        new URL(page.url()).searchParams.get('created_preset') === 'this_year',
        `the criteria in the address: ${page.url()}`,
      );
      for (const number of numbers) await rowOf(page, number);
      await page.getByTestId('report-total').first().waitFor();
      await page.screenshot({ path: shot('2-student-result'), fullPage: true });
      await exportBoth(page, lang, 'student', text(lang, 'reports.student.columns.student_no'), numbers);
      // the result's address runs it again (a bookmark)
      await page.reload();
      await rowOf(page, numbers[0]);

      // 2. School applications: this year's applications per school and intake
      const schoolTitle = text(lang, 'reports.school.title');
      await openMenu(page, schoolTitle, t.group);
      await page.waitForURL((url) => url.pathname === '/reports/schools/school');
      await run(page, '/reports/schools/school-result');
      const schoolRow = await rowOf(page, schoolName);
      const cells = await schoolRow.locator('td').allInnerTexts();
      check(cells.includes('2') && cells.includes('1'), `two applications, one offer: ${cells.join(' | ')}`);
      await page.screenshot({ path: shot('3-school-result'), fullPage: true });
      await exportBoth(page, lang, 'school', text(lang, 'reports.school.columns.school'), [schoolName]);

      // 3. Calendar report: the next fortnight's entries, the deadline among them
      const calendarTitle = text(lang, 'reports.calendar.title');
      await openMenu(page, calendarTitle, t.group);
      await page.waitForURL((url) => url.pathname === '/reports/calendar');
      const dates = text(lang, 'reports.calendar.criteria.date');
      const sep = lang === 'en' ? ': ' : '：';
      await typeDay(page, `${dates}${sep}${lang === 'en' ? 'to' : '至'}`, addDays(today, 14));
      await typeDay(page, `${dates}${sep}${lang === 'en' ? 'from' : '由'}`, today);
      await page.screenshot({ path: shot('4-calendar-criteria'), fullPage: true });
      await run(page, '/reports/calendar-result');
      await rowOf(page, schoolName);
      await page.screenshot({ path: shot('5-calendar-result'), fullPage: true });
      await exportBoth(page, lang, 'calendar', text(lang, 'reports.calendar.columns.date'), [schoolName]);

      // 3b. The money reports, from the Reports menu: each one's criteria (its default range, this month or this
      // year, holds today), run, the day's documents in its rows and one total row per currency; XLSX and PDF
      const moneyReports: {
        name: string;
        path: string;
        preset: string;
        rows: string[];
        totals: string[];
        first: string;
      }[] = [
        {
          name: 'order',
          path: '/reports/orders/order',
          preset: 'this_month',
          rows: invoiceNumbers,
          totals: ['HKD', 'KRW'],
          first: 'order_no',
        },
        {
          name: 'order_items',
          path: '/reports/orders/order-items',
          preset: 'this_month',
          rows: invoiceNumbers,
          totals: ['HKD', 'KRW'],
          first: 'order_no',
        },
        {
          name: 'order_analysis',
          path: '/reports/orders/order-analysis',
          preset: 'this_year',
          rows: ['HKD', 'KRW'],
          totals: ['HKD', 'KRW'],
          first: 'month',
        },
        {
          name: 'receipt',
          path: '/reports/orders/receipt',
          preset: 'this_month',
          rows: [String(receipt.receipt_no)],
          totals: ['HKD'],
          first: 'receipt_no',
        },
        {
          name: 'refund',
          path: '/reports/orders/refund',
          preset: 'this_month',
          rows: [String(refund.refund_no)],
          totals: ['HKD'],
          first: 'refund_no',
        },
      ];
      for (const report of moneyReports) {
        const title = text(lang, `reports.${report.name}.title`);
        await openMenu(page, title, t.group);
        await page.waitForURL((url) => url.pathname === report.path);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.screenshot({ path: shot(`5-${report.name}-criteria`), fullPage: true });
        await run(page, `${report.path}-result`);
        check(
          new URL(page.url()).searchParams.get('date_preset') === report.preset,
          `the ${report.name} report's criteria in the address: ${page.url()}`,
        );
        for (const value of report.rows) await rowOf(page, value);
        const totals = await page.getByTestId('report-total').allInnerTexts();
        for (const currency of report.totals)
          check(
            totals.some((row) => row.includes(currency)),
            `the ${report.name} report totals ${currency} on a row of its own: ${totals.join(' / ')}`,
          );
        check(
          totals.every((row) => !(row.includes('HKD') && row.includes('KRW'))),
          `no total row of the ${report.name} report mixes currencies: ${totals.join(' / ')}`,
        );
        await page.screenshot({ path: shot(`5-${report.name}-result`), fullPage: true });
        await exportBoth(
          page,
          lang,
          report.name,
          text(lang, `reports.${report.name}.columns.${report.first}`),
          report.rows,
        );
        console.log(
          `e2e reports (${lang}): ${report.name} run (${report.preset}), ${report.rows.join(', ')} listed, totals ` +
            `${report.totals.join(' and ')} apart, XLSX and PDF exported`,
        );
      }

      // 4. The dashboard: its charts drawn, the pending documents of the near deadline listed
      await openMenu(page, t.dashboard);
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.locator('.recharts-surface').nth(1).waitFor();
      const pending = page.getByTestId('dashboard-figure-pending_documents');
      await pending.getByText(t.pendingTitle).waitFor();
      // two documents of each of the two students at least (the other journeys' and the demo's besides)
      const count = Number(
        (await pending.locator('.ant-statistic-content-value').innerText()).replace(/[^0-9]/g, ''),
      );
      check(count >= 4, `the documents pending near a deadline: ${count}`);
      // invoiced per month, HKD beside KRW in one chart: a bar series and a key entry per currency
      const series = page.getByTestId('dashboard-figure-month_invoiced_series');
      await series.locator('.recharts-bar-rectangle').first().waitFor();
      const key = await series.innerText();
      check(
        key.includes('HKD') && key.includes('KRW'),
        `the invoiced chart's key names both currencies: ${key}`,
      );
      // the same amounts in words for a screen reader, per currency
      const words = (await series.locator('figcaption').textContent()) ?? '';
      check(
        words.includes('HKD') && words.includes('KRW'),
        `the chart's amounts in words name both currencies: ${words}`,
      );
      const barSeries = await series.locator('.recharts-bar').count();
      check(barSeries === 2, `the invoiced chart draws a series per currency: ${barSeries}`);
      // overdue invoices (HKD, from last month) and receipts awaiting approval (KRW), each amount in its currency
      const overdue = await page.getByTestId('dashboard-figure-overdue_invoices').innerText();
      check(overdue.includes('HKD'), `the overdue invoices' outstanding in HKD: ${overdue}`);
      const awaiting = await page.getByTestId('dashboard-figure-receipts_awaiting_approval').innerText();
      check(awaiting.includes('KRW'), `the receipts awaiting approval in KRW: ${awaiting}`);
      console.log(
        `e2e reports (${lang}): dashboard — invoiced per month, ${barSeries} bar series (HKD, KRW); overdue ${overdue.replace(/\s+/g, ' ')}; ` +
          `awaiting approval ${awaiting.replace(/\s+/g, ' ')}`,
      );
      await page.screenshot({ path: shot('6-dashboard'), fullPage: true });

      // 5. Without dashboard.view, /dashboard sends the user to /home
      const role = await created(page, '/api/roles', {
        name: `No dashboard ${tag} ${rid}`,
        data_scope: 'branch',
        permissions: ['students.view', 'reports.students'],
      });
      const email = `no.dashboard.${tag.toLowerCase()}.${rid.toLowerCase()}@example.com`;
      await created(page, '/api/users', {
        name: `No Dashboard ${tag}`,
        email,
        password: 'Passw0rdOK',
        password_confirmation: 'Passw0rdOK',
        role_id: role.id,
        branch_id: branchId,
        language: lang,
      });
      await signOut(page, base);
      await signIn(page, base, lang, email, 'Passw0rdOK');
      await page.getByTestId('user-menu').waitFor();
      await page.goto(`${base}/dashboard`);
      await page.waitForURL((url) => url.pathname === '/home');
      await page.screenshot({ path: shot('7-no-dashboard-home') });
    },
  };
}

/** The journeys, in Chinese (the staff default) and English. */
export function reportsJourneys(main: RunningServer): Journey[] {
  const rid = Date.now().toString(36).slice(-5).toUpperCase();
  return [journey(main, 'zh_HK', rid), journey(main, 'en', rid)];
}

import type { AddressInfo } from 'node:net';
import type { Locator, Page, Response } from 'playwright-core';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import {
  ADMIN,
  answerConfirmed,
  answerOf,
  apiCall,
  calendarsClosed,
  confirmPassword,
  formItem,
  openCalendar,
  signInAdmin,
  until,
  type Lang,
} from './actions';
import { check, outputPath, type Journey } from './harness';
import { startServer, type RunningServer } from './server';

/**
 * General and SMTP settings, the audit log and dragging an option list into a new order, in each
 * language. The mail and storage settings are admins' alone and their first save asks for the admin's password
 * (the server answers 423 until it is confirmed), then saves. The SMTP journeys run against a fresh server of their own (the SMTP settings cannot be unset
 * once saved, and other journeys must not find them pointing at a mail server that is gone) and a real
 * SMTP server in this process; the general settings changed on the main server are put back afterwards.
 */

const TEXT = {
  en: {
    save: 'Save',
    saved: 'Saved.',
    generalTitle: 'General and email settings',
    general: 'General',
    storageQuota: 'Storage quota',
    maxUpload: 'Maximum upload size',
    currency: 'Default currency',
    smtpTitle: 'Email (SMTP)',
    host: 'SMTP host',
    port: 'Port',
    user: 'User name',
    password: 'Password',
    passwordKept: 'A password is stored; it is never shown. Leave empty to keep it.',
    passwordNone: 'No password stored.',
    from: 'Sender address',
    secure: 'Security',
    starttls: 'STARTTLS or none (port 587/25)',
    testTo: 'Send a test email to',
    sendTest: 'Send test email',
    testSent: 'The test email was sent.',
    smtpMissing: 'Please confirm whether the SMTP settings are completed',
    emailFailed: 'Email failed',
    auditTitle: 'Audit log',
    userId: 'User',
    entity: 'Record type',
    areaKind: 'Area',
    rangeReversed: 'The end date may not be before the start date.',
    action: 'Action',
    dateFrom: 'From',
    dateTo: 'To',
    history: 'History',
    created: 'Create',
    updated: 'Update',
    areaNameLabel: 'English name',
    areaNameZhLabel: 'Chinese name',
    colon: ': ',
    recordTitle: (entity: string, id: string) => `History of ${entity} #${id}`,
    nameEn: 'English name',
    nameZh: 'Chinese name',
    optionTitle: 'Option list: Relationship',
    dragHint: 'Drag rows to reorder.',
    reordered: 'Order saved.',
  },
  zh_HK: {
    save: '儲存',
    saved: '已儲存。',
    generalTitle: '一般及電郵設定',
    general: '一般',
    storageQuota: '儲存空間上限',
    maxUpload: '上載檔案大小上限',
    currency: '預設貨幣',
    smtpTitle: '電郵（SMTP）',
    host: 'SMTP 主機',
    port: '連接埠',
    user: '登入名稱',
    password: '密碼',
    passwordKept: '已儲存密碼，不會顯示。留空即保留現有密碼。',
    passwordNone: '未儲存密碼。',
    from: '寄件人地址',
    secure: '加密方式',
    starttls: 'STARTTLS 或不加密（連接埠 587/25）',
    testTo: '傳送測試電郵至',
    sendTest: '傳送測試電郵',
    testSent: '已傳送測試電郵。',
    smtpMissing: '請確認是否已完成 SMTP 設定',
    emailFailed: '電郵發送失敗',
    auditTitle: '審計紀錄',
    userId: '使用者',
    entity: '紀錄類型',
    areaKind: '地區',
    rangeReversed: '結束日期不可早於開始日期。',
    action: '動作',
    dateFrom: '由',
    dateTo: '至',
    history: '紀錄',
    created: '新增',
    updated: '更新',
    areaNameLabel: '英文名稱',
    areaNameZhLabel: '中文名稱',
    colon: '：',
    recordTitle: (entity: string, id: string) => `${entity} #${id} 的紀錄`,
    nameEn: '英文名稱',
    nameZh: '中文名稱',
    optionTitle: '選項列表：教育程度',
    dragHint: '拖曳列可重新排序。',
    reordered: '已儲存排序。',
  },
} as const;

/** Whether a message is in the interface language: Chinese characters in zh_HK, none in English. */
function inLanguage(text: string, lang: Lang): boolean {
  const han = /\p{Script=Han}/u.test(text);
  return lang === 'en' ? !han && /[A-Za-z]/.test(text) : han;
}

function card(page: Page, title: string): Locator {
  return page
    .locator('.ant-card')
    .filter({ has: page.locator('.ant-card-head-title').getByText(title, { exact: true }) });
}

// ---------------------------------------------------------------------------------------------------------
// A real SMTP server in this process: authentication required, one recipient refused.

interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

const SMTP_USER = 'mailer';
const SMTP_REFUSED = 'nobody@example.com';

class MailCatcher {
  readonly mails: ReceivedMail[] = [];
  readonly failedLogins: string[] = [];
  port = 0;
  private server!: SMTPServer;

  constructor(private readonly password: string) {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === SMTP_USER && auth.password === this.password) {
          callback(null, { user: auth.username });
          return;
        }
        this.failedLogins.push(String(auth.username));
        callback(new Error('Invalid username or password'));
      },
      onRcptTo: (address, _session, callback) => {
        if (address.address === SMTP_REFUSED) {
          const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------------------------------------------------

function smtpJourney(lang: Lang): Journey {
  const t = TEXT[lang];
  const tag = lang === 'en' ? 'en' : 'zh';
  const password = `S3cret-${tag}-pass!`;
  return {
    name: `settings general (${lang}): SMTP — test mail without settings, settings saved (password never sent back), test mail received, refused recipient and wrong password fail`,
    async run(page) {
      // a server of its own: the "not configured" state is the first thing checked
      const server: RunningServer = await startServer(`smtp-${tag}`);
      const smtp = await new MailCatcher(password).start();
      try {
        const base = server.staffUrl;
        // every answer of the SMTP settings' GET, to check that no password ever comes back
        // (an answer the page navigated away from before its body was read has no body to check: null, not a crash)
        const reads: Promise<string | null>[] = [];
        page.on('response', (r: Response) => {
          const path = new URL(r.url()).pathname;
          if (r.request().method() === 'GET' && path.startsWith('/api/settings'))
            reads.push(
              r.text().then(
                (body) => `${path} ${body}`,
                () => null,
              ),
            );
        });
        await signInAdmin(page, base, lang);
        await page.goto(`${base}/settings/general`);
        await page.getByRole('heading', { name: t.generalTitle }).waitFor();
        const mailCard = card(page, t.smtpTitle);
        await mailCard.getByText(t.passwordNone).waitFor();

        const sendTest = async (to: string) => {
          await formItem(mailCard, t.testTo).locator('input').fill(to);
          const answer = await answerOf(page, 'POST', '/api/settings/smtp/test', () =>
            mailCard.getByRole('button', { name: t.sendTest }).click(),
          );
          return answer.status();
        };
        const result = page.getByTestId('smtp-test-result');

        // 1. nothing configured: the spec's message
        check((await sendTest('someone@example.com')) === 422, 'no SMTP settings: 422');
        await result.getByText(t.smtpMissing, { exact: true }).waitFor();

        // 2. the settings of the server started here, saved
        await formItem(mailCard, t.host).locator('input').fill('127.0.0.1');
        await formItem(mailCard, t.port).locator('input').fill(String(smtp.port));
        await formItem(mailCard, t.user).locator('input').fill(SMTP_USER);
        await formItem(mailCard, t.password).locator('input').fill(password);
        await formItem(mailCard, t.from).locator('input').fill(`office-${tag}@example.com`);
        await formItem(mailCard, t.secure).locator('.ant-select').click();
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .getByText(t.starttls)
          .click();
        // the first save asks for the admin's password, then runs again
        const saved = await answerConfirmed(
          page,
          'PUT',
          '/api/settings/smtp',
          () => mailCard.getByRole('button', { name: t.save }).click(),
          lang,
        );
        check(saved.status() === 200, `SMTP settings saved: ${saved.status()} ${await saved.text()}`);
        check(!(await saved.text()).includes(password), 'the save answer holds no password');
        await page.getByText(t.saved).first().waitFor();

        // 3. after a reload: the settings are there, the password field is empty, "a password is stored"
        await page.reload();
        await mailCard.getByText(t.passwordKept).waitFor();
        await until(
          page,
          'the SMTP form after a reload',
          async () => [
            await formItem(mailCard, t.host).locator('input').inputValue(),
            await formItem(mailCard, t.port).locator('input').inputValue(),
            await formItem(mailCard, t.user).locator('input').inputValue(),
            await formItem(mailCard, t.from).locator('input').inputValue(),
          ],
          ['127.0.0.1', String(smtp.port), SMTP_USER, `office-${tag}@example.com`],
        );
        check(
          (await formItem(mailCard, t.password).locator('input').inputValue()) === '',
          'the password field comes back empty',
        );
        check(
          (await formItem(mailCard, t.password).locator('input').getAttribute('type')) === 'password',
          'the password field is masked',
        );
        await mailCard.getByText(t.starttls).waitFor();
        const bodies = (await Promise.all(reads)).filter((b): b is string => b !== null);
        const smtpReads = bodies.filter((b) => b.startsWith('/api/settings/smtp '));
        check(smtpReads.length >= 2, `the SMTP settings were read from the API: ${bodies.length} reads`);
        for (const body of bodies) {
          check(!body.includes(password), `a settings answer holds the password: ${body}`);
          check(!/"(smtp_)?password"\s*:/.test(body), `a settings answer has a password field: ${body}`);
        }
        check(smtpReads.at(-1)!.includes('"password_set":true'), `password_set: ${smtpReads.at(-1)}`);
        await page.screenshot({ path: outputPath(`settings-general-smtp-${lang}.png`), fullPage: true });

        // 4. the test mail reaches the SMTP server, signed in with the stored (decrypted) password
        const to = `student-${tag}@example.com`;
        check((await sendTest(to)) === 200, 'the test mail is sent');
        await result.getByText(t.testSent, { exact: true }).waitFor();
        check(smtp.mails.length === 1, `one mail received, got ${smtp.mails.length}`);
        const mail = smtp.mails[0];
        check(mail.to.length === 1 && mail.to[0] === to, `recipient ${JSON.stringify(mail.to)}`);
        check(mail.from === `office-${tag}@example.com`, `sender ${mail.from}`);
        check(mail.user === SMTP_USER, `signed in as ${mail.user}`);
        // the test mail is written in the language of the admin's account
        const account = JSON.parse((await apiCall(page, 'GET', '/api/user')).body) as {
          user: { language: string };
        };
        const parsed = await simpleParser(mail.raw);
        const expected =
          account.user.language === 'en'
            ? { subject: 'Test mail', text: 'The SMTP settings work.' }
            : { subject: '測試電郵', text: 'SMTP 設定運作正常。' };
        check(parsed.subject === expected.subject, `subject: ${parsed.subject}`);
        check(parsed.text?.includes(expected.text), `text: ${parsed.text}`);
        check(parsed.to && !Array.isArray(parsed.to) && parsed.to.text === to, 'To header');

        // 5. a recipient the SMTP server refuses: "Email failed"
        check((await sendTest(SMTP_REFUSED)) === 502, 'a refused recipient answers 502');
        await result.getByText(t.emailFailed, { exact: true }).waitFor();
        check(smtp.mails.length === 1, 'nothing more was delivered');

        // 6. a wrong password saved: the SMTP server refuses the login, "Email failed"
        await formItem(mailCard, t.password).locator('input').fill('not-the-password');
        const resaved = await answerConfirmed(
          page,
          'PUT',
          '/api/settings/smtp',
          () => mailCard.getByRole('button', { name: t.save }).click(),
          lang,
        );
        check(resaved.status() === 200, `SMTP settings saved again: ${resaved.status()}`);
        check((await sendTest(to)) === 502, 'a refused login answers 502');
        await result.getByText(t.emailFailed, { exact: true }).waitFor();
        check(smtp.failedLogins.includes(SMTP_USER), 'the SMTP server refused the login');
        // the change is told to every admin through the mail settings in force before it (the right password):
        // that notice is the one more mail delivered, in the admin's language; the test mail is not
        await until(page, 'the mails delivered after the change', async () => smtp.mails.length, 2);
        const notice = smtp.mails[1];
        check(notice.to.join() === ADMIN.email, `the notice goes to the admin: ${JSON.stringify(notice.to)}`);
        check(notice.user === SMTP_USER, `the notice went through the old settings: ${notice.user}`);
        const noticeSubject = (await simpleParser(notice.raw)).subject;
        check(
          noticeSubject ===
            (account.user.language === 'en' ? 'Security settings were changed' : '保安設定已被更改'),
          `the notice's subject in the admin's language: ${noticeSubject}`,
        );
        check(!smtp.mails.slice(1).some((m) => m.to.includes(to)), 'the test mail was not delivered');
        await page.screenshot({
          path: outputPath(`settings-general-smtp-failed-${lang}.png`),
          fullPage: true,
        });
        // leave the server before it stops (a failure keeps the page as it was, for its screenshot)
        await page.goto('about:blank');
      } finally {
        await smtp.stop();
        await server.stop();
      }
    },
  };
}

function generalJourney(main: RunningServer, lang: Lang): Journey {
  const t = TEXT[lang];
  const base = main.staffUrl;
  const values = lang === 'en' ? ['2048', '8', 'KRW'] : ['4096', '9', 'USD'];
  return {
    name: `settings general (${lang}): storage quota, upload limit and currency saved and kept after a reload; a quota too large and an unknown currency refused on their fields, in the interface language`,
    async run(page) {
      await signInAdmin(page, base, lang);
      const before = JSON.parse((await apiCall(page, 'GET', '/api/settings')).body) as Record<
        string,
        unknown
      >;
      try {
        await page.goto(`${base}/settings/general`);
        await page.getByRole('heading', { name: t.generalTitle }).waitFor();
        const general = card(page, t.general);
        const quota = formItem(general, t.storageQuota).locator('input');
        const upload = formItem(general, t.maxUpload).locator('input');
        const currency = formItem(general, t.currency).locator('input');
        check((await quota.inputValue()) === String(before.storage_quota_mb), 'the stored quota is shown');

        // a quota over the limit: refused on its field in the interface language, nothing sent
        const sent = { puts: 0 };
        const saves = () => sent.puts;
        // (a 423 asking for the password is no save: the same form goes again once it is confirmed)
        const countPuts = (r: Response) => {
          if (
            r.request().method() === 'PUT' &&
            new URL(r.url()).pathname === '/api/settings' &&
            r.status() !== 423
          )
            sent.puts++;
        };
        page.on('response', countPuts);
        const fieldError = (label: string) =>
          formItem(general, label).locator('.ant-form-item-explain-error').first();
        await quota.fill('20000000');
        await general.getByRole('button', { name: t.save }).click();
        const quotaError = (await fieldError(t.storageQuota).innerText()).trim();
        check(
          quotaError.includes('10000000') && inLanguage(quotaError, lang),
          `the quota's error names the limit in ${lang}: ${quotaError}`,
        );
        check(saves() === 0, 'nothing was sent');

        // a currency that is not on the currency list: refused by the server, on its field
        await quota.fill(values[0]);
        await upload.fill(values[1]);
        await currency.fill('XYZ');
        await fieldError(t.storageQuota).waitFor({ state: 'detached' });
        const refused = await answerOf(page, 'PUT', '/api/settings', () =>
          general.getByRole('button', { name: t.save }).click(),
        );
        check(refused.status() === 422, `an unknown currency refused: ${refused.status()}`);
        const currencyError = (await fieldError(t.currency).innerText()).trim();
        check(inLanguage(currencyError, lang), `the currency's error in ${lang}: ${currencyError}`);

        await currency.fill(values[2]);
        // storage settings: the admin's password is asked first
        const saved = await answerConfirmed(
          page,
          'PUT',
          '/api/settings',
          () => general.getByRole('button', { name: t.save }).click(),
          lang,
        );
        check(saved.status() === 200, `general settings saved: ${saved.status()} ${await saved.text()}`);
        check(saves() === 2, `only the two complete forms were sent (${saves()} saves)`);
        page.off('response', countPuts);
        await page.getByText(t.saved).first().waitFor();

        await page.reload();
        await page.getByRole('heading', { name: t.generalTitle }).waitFor();
        check(
          [await quota.inputValue(), await upload.inputValue(), await currency.inputValue()].join() ===
            values.join(),
          `the saved values after a reload: ${await quota.inputValue()}, ${await upload.inputValue()}, ${await currency.inputValue()}`,
        );
        await page.screenshot({ path: outputPath(`settings-general-${lang}.png`), fullPage: true });
        const stored = JSON.parse((await apiCall(page, 'GET', '/api/settings')).body) as Record<
          string,
          unknown
        >;
        check(
          stored.storage_quota_mb === Number(values[0]) &&
            stored.max_upload_mb === Number(values[1]) &&
            stored.default_currency === values[2],
          `GET /api/settings: ${JSON.stringify(stored)}`,
        );
      } finally {
        // other journeys upload files on this server: the limits go back to what they were
        await confirmPassword(page).catch(() => undefined);
        await apiCall(page, 'PUT', '/api/settings', {
          storage_quota_mb: before.storage_quota_mb,
          max_upload_mb: before.max_upload_mb,
          default_currency: before.default_currency,
        }).catch(() => undefined);
      }
    },
  };
}

/** Today and yesterday as Hong Kong dates (the audit log's date filter is in Hong Kong time). */
function hongKongDates(): { today: string; yesterday: string } {
  const hk = Date.now() + 8 * 3_600_000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { today: day(hk), yesterday: day(hk - 86_400_000) };
}

/** What the audit journey reads of the page's document (the e2e code is compiled without the DOM's types). */
interface PageDocument {
  querySelectorAll(selector: string): Iterable<{
    closest(selector: string): unknown;
    classList: { contains(name: string): boolean };
    getAttribute(name: string): string | null;
  }>;
}

function auditJourney(main: RunningServer, lang: Lang): Journey {
  const t = TEXT[lang];
  const base = main.staffUrl;
  const tag = lang === 'en' ? 'En' : 'Zh';
  const area = `Audited area ${tag}`;
  return {
    name: `audit log (${lang}): an area created and edited, found by user, record type, action and date; its history lists the create and the update`,
    async run(page) {
      await signInAdmin(page, base, lang);
      const me = (
        JSON.parse((await apiCall(page, 'GET', '/api/user')).body) as { user: { id: number; name: string } }
      ).user;
      check(typeof me.id === 'number', 'the signed-in user has an id');

      // an area created and renamed through its screens
      await page.goto(`${base}/settings/area/create`);
      await formItem(page, t.nameEn).locator('input').fill(area);
      await formItem(page, t.nameZh).locator('input').fill(`審計地區${tag}`);
      await page.getByRole('button', { name: t.save }).click();
      await page.waitForURL((url) => url.pathname === '/settings/area');
      await page.goto(`${base}/settings/area?q=${encodeURIComponent(area)}`);
      await page
        .getByRole('row')
        .filter({ hasText: area })
        .getByRole('link', { name: new RegExp(lang === 'en' ? 'Edit' : '編輯') })
        .click();
      await page.waitForURL(/\/settings\/area\/\d+$/);
      const id = new URL(page.url()).pathname.split('/').at(-1)!;
      await formItem(page, t.nameEn).locator('input').fill(`${area} renamed`);
      await page.getByRole('button', { name: t.save }).click();
      await page.waitForURL((url) => url.pathname === '/settings/area');

      // the audit log, narrowed step by step
      await page.goto(`${base}/settings/audit-log`);
      await page.getByRole('heading', { name: t.auditTitle }).waitFor();
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');
      const empty = page.locator('.ant-table-tbody .ant-table-placeholder');
      const ours = rows.filter({ hasText: area });
      const param = (name: string) => new URL(page.url()).searchParams.get(name) ?? '';

      // the record type: picked by its name in the screen's language (never a code typed in)
      await page.getByTestId('filter-entity').click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .getByText(t.areaKind, { exact: true })
        .click();
      await page.waitForURL(() => param('entity') === 'area');
      await ours.first().waitFor();
      await until(
        page,
        'rows of another record type',
        async () =>
          (await rows.locator('td:nth-child(4)').allInnerTexts()).filter((e) => e.trim() !== t.areaKind)
            .length,
        0,
      );

      await page.getByTestId('filter-action').click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .getByText(t.updated, { exact: true })
        .click();
      await page.waitForURL((url) => url.searchParams.get('action') === 'update');
      await until(
        page,
        'only updates',
        async () => {
          const actions = await rows.locator('td:nth-child(3)').allInnerTexts();
          return actions.length > 0 && actions.every((a) => a.trim() === t.updated);
        },
        true,
      );
      const update = rows.filter({ hasText: `${area} renamed` });
      await update.first().waitFor();
      check(
        (await update.count()) === 1 &&
          // the change in the reader's language: the field's label, the values as the record shows them
          (await update.first().innerText()).includes(
            `${t.areaNameLabel}${t.colon}${area} → ${area} renamed`,
          ),
        `the update row shows the changed name: ${await update.first().innerText()}`,
      );

      // the user: a picker searched by email (the users lookup), not a number typed in
      const userFilter = page.getByTestId('filter-actor_id');
      check(
        (await page.locator(`input[type="number"][aria-label="${t.userId}"]`).count()) === 0,
        'the user filter is no number box',
      );
      // (the action's list closes with an animation first)
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
      await userFilter.locator('.ant-select').click();
      const searched = page.waitForResponse(
        (r) => r.url().includes('/api/users/lookup') && r.url().includes(encodeURIComponent(ADMIN.email)),
      );
      await userFilter.locator('input').fill(ADMIN.email);
      await searched;
      // the one user found is the active choice: Enter takes it
      await page
        .locator(`.ant-select-dropdown:visible .ant-select-item-option-active[title="${me.name}"]`)
        .waitFor();
      await userFilter.locator('input').press('Enter');
      await page.waitForURL(() => param('actor_id') === String(me.id));
      await update.first().waitFor();
      check((await update.first().innerText()).includes(ADMIN.email), 'the row names the admin');

      // the dates: a date picker (YYYY-MM-DD in both languages, not the browser's mm/dd/yyyy)
      const dateInput = (name: string) => page.getByTestId(`filter-${name}`).locator('input');
      check((await page.locator('input[type="date"]').count()) === 0, 'no browser date box');
      const pickDate = async (name: string, value: string) => {
        // (the calendar of the date picked before may still be fading out)
        await calendarsClosed(page);
        await dateInput(name).click();
        await openCalendar(page).waitFor();
        await dateInput(name).fill(value);
        await dateInput(name).press('Enter');
        await page.keyboard.press('Escape');
        await calendarsClosed(page);
      };
      const clearDate = async (name: string) => {
        await page.getByTestId(`filter-${name}`).locator('.ant-picker').hover();
        await page.getByTestId(`filter-${name}`).locator('.ant-picker-clear').click();
        await page.waitForURL(() => param(name) === '');
      };
      const { today, yesterday } = hongKongDates();
      await pickDate('date_from', today);
      await page.waitForURL(() => param('date_from') === today);
      await until(page, 'the date as YYYY-MM-DD', () => dateInput('date_from').inputValue(), today);
      check(
        (await dateInput('date_from').getAttribute('placeholder')) === t.dateFrom,
        'the picker is labelled',
      );
      await update.first().waitFor();
      await pickDate('date_to', today);
      await page.waitForURL(() => param('date_to') === today);
      await update.first().waitFor();
      await until(page, 'the end date as YYYY-MM-DD', () => dateInput('date_to').inputValue(), today);
      await page.screenshot({ path: outputPath(`audit-log-${lang}.png`), fullPage: true });
      if (lang === 'zh_HK') {
        // no English left in the screen's own labels: accessible names (icons' and antd's own included) and
        // placeholders; a `title` may carry data (a cell's full text), which stays in the language it was typed in
        const english = await page.evaluate(() =>
          [
            ...(globalThis as unknown as { document: PageDocument }).document.querySelectorAll(
              '[aria-label], [placeholder]',
            ),
          ]
            // the rows' cells and a filter's options carry data (a user or role another journey named in English:
            // "Front Desk en" in the user filter's listbox), not the screen's labels
            .filter((el) => !el.closest('.ant-table-tbody') && !el.closest('[role="listbox"]'))
            .flatMap((el) => ['aria-label', 'placeholder'].map((a) => el.getAttribute(a) ?? ''))
            .filter((text) => /\b(?!XLSX\b|CSV\b|API\b|IP\b|SMTP\b|Demo\b|Admin\b)[A-Za-z]{3,}\b/.test(text)),
        );
        check(english.length === 0, `English labels on the zh_HK audit log: ${JSON.stringify(english)}`);
      }

      // a range that ends before it starts: refused beside the control, not applied
      await pickDate('date_to', yesterday);
      const reversed = page.getByTestId('filter-date_to-error');
      await reversed.waitFor();
      check(
        (await reversed.innerText()).trim() === t.rangeReversed,
        `the message: ${await reversed.innerText()}`,
      );
      check(param('date_to') === today, `the reversed end is not applied: ${page.url()}`);
      await page.screenshot({ path: outputPath(`audit-log-reversed-${lang}.png`), fullPage: true });
      // … and the server refuses one typed in the address, beside the same control
      await page.goto(`${base}/settings/audit-log?date_from=${today}&date_to=${yesterday}`);
      const refusal = page.getByTestId('query-refused-date_to');
      await refusal.waitFor();
      check(
        (await refusal.innerText()).trim() === t.rangeReversed,
        `the server's message: ${await refusal.innerText()}`,
      );

      await page.goto(`${base}/settings/audit-log?entity=area&action=update&actor_id=${me.id}`);
      await update.first().waitFor();
      await pickDate('date_to', yesterday);
      await page.waitForURL(() => param('date_to') === yesterday);
      await empty.waitFor();
      await clearDate('date_to');
      await update.first().waitFor();

      // the record's own history: the create, then the update with the changed field
      await update
        .first()
        .getByRole('link', { name: new RegExp(t.history) })
        .click();
      await page.waitForURL((url) => url.pathname === `/settings/audit-log/area/${id}`);
      await page.getByRole('heading', { name: t.recordTitle(t.areaKind, id) }).waitFor();
      const history = page.getByTestId('audit-history').locator('.ant-table-tbody tr.ant-table-row');
      await history.first().waitFor();
      const lines = await history.allInnerTexts();
      check(lines.length === 2, `two changes in the history: ${JSON.stringify(lines)}`);
      check(
        lines[0].includes(t.created) && lines[0].includes(`${t.areaNameLabel}${t.colon}— → ${area}`),
        `first the create: ${lines[0]}`,
      );
      check(
        lines[1].includes(t.updated) &&
          lines[1].includes(`${t.areaNameLabel}${t.colon}${area} → ${area} renamed`),
        `then the update: ${lines[1]}`,
      );
      check(!lines[1].includes(t.areaNameZhLabel), `the update shows only the changed field: ${lines[1]}`);
      check(!/created_at|created_by|\bid:/.test(lines[0]), `the create shows no bookkeeping: ${lines[0]}`);
      await page.screenshot({ path: outputPath(`audit-record-${lang}.png`), fullPage: true });
    },
  };
}

function reorderJourney(main: RunningServer, lang: Lang): Journey {
  const t = TEXT[lang];
  const base = main.staffUrl;
  // a list of its own for each language, so each starts from the seeded order
  const key = lang === 'en' ? 'relationship' : 'education_level';
  return {
    name: `option list (${lang}): rows dragged with the mouse into a new order, kept after a reload and in the API; on page 2 of a long list and in a filtered view too`,
    async run(page) {
      await signInAdmin(page, base, lang);
      await page.goto(`${base}/settings/option/${key}`);
      await page.getByRole('heading', { name: t.optionTitle }).waitFor();
      await page.getByText(t.dragHint).waitFor();
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();
      const shown = async () => (await rows.locator('td:first-child').allInnerTexts()).map((s) => s.trim());
      const apiOrder = async () =>
        (
          JSON.parse((await apiCall(page, 'GET', `/api/options/${key}?per_page=100`)).body) as {
            items: { value: string }[];
          }
        ).items.map((i) => i.value);
      const start = await shown();
      check(start.length >= 4, `a list to reorder: ${JSON.stringify(start)}`);
      check(JSON.stringify(start) === JSON.stringify(await apiOrder()), 'the screen shows the API order');

      /** Presses on one row's code cell, moves in steps onto another row's and lets go. */
      const drag = async (from: string, onto: string) => {
        const cell = (value: string) => rows.locator('td:first-child').getByText(value, { exact: true });
        const a = await cell(from).boundingBox();
        const b = await cell(onto).boundingBox();
        check(a && b, 'both rows are on screen');
        const answer = answerOf(page, 'PUT', `/api/options/${key}/order`, async () => {
          await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
          await page.mouse.down();
          for (let i = 1; i <= 10; i++) {
            await page.mouse.move(
              a.x + a.width / 2 + ((b.x - a.x) * i) / 10,
              a.y + a.height / 2 + ((b.y - a.y) * i) / 10,
            );
          }
          await page.mouse.up();
        });
        const response = await answer;
        if (response.status() !== 204)
          throw new Error(`the order was not saved: ${response.status()} ${await response.text()}`);
        await page.getByText(t.reordered).first().waitFor();
      };

      // the last row dragged up onto the first: it goes before it
      const last = start.at(-1)!;
      await drag(last, start[0]);
      const afterUp = [last, ...start.slice(0, -1)];
      await until(page, 'the order on screen after dragging up', shown, afterUp);

      // the (now) second row dragged down onto the fourth: it goes after it
      await drag(afterUp[1], afterUp[3]);
      const afterDown = [afterUp[0], afterUp[2], afterUp[3], afterUp[1], ...afterUp.slice(4)];
      await until(page, 'the order on screen after dragging down', shown, afterDown);
      await page.screenshot({ path: outputPath(`option-reorder-${lang}.png`), fullPage: true });

      await page.reload();
      await page.getByRole('heading', { name: t.optionTitle }).waitFor();
      await rows.first().waitFor();
      await until(page, 'the order after a reload', shown, afterDown);
      check(
        JSON.stringify(await apiOrder()) === JSON.stringify(afterDown),
        `GET /api/options/${key}: ${JSON.stringify(await apiOrder())}`,
      );

      // a list longer than a page: a row dragged on page 2 takes its place within the whole list
      for (let i = afterDown.length + 1; i <= 22; i++) {
        const created = await apiCall(page, 'POST', `/api/options/${key}`, {
          value: `extra-${i}`,
          label_en: `Extra ${i}`,
          label_zh: `額外${i}`,
        });
        check(created.status === 201, `entry ${i} created: ${created.status} ${created.body}`);
      }
      const full = await apiOrder();
      check(full.length === 22, `22 entries: ${full.length}`);
      await page.goto(`${base}/settings/option/${key}?page=2`);
      await until(page, 'page 2', shown, full.slice(20));
      await drag(full[21], full[20]);
      const swapped = [...full.slice(0, 20), full[21], full[20]];
      await until(page, 'page 2 after the drag', shown, swapped.slice(20));
      check(
        JSON.stringify(await apiOrder()) === JSON.stringify(swapped),
        `the whole list after dragging on page 2: ${JSON.stringify(await apiOrder())}`,
      );

      // a filtered view (active entries only, here all of them): the same
      await page.goto(`${base}/settings/option/${key}?is_active=true`);
      await until(page, 'the active entries', shown, swapped.slice(0, 20));
      await drag(swapped[2], swapped[0]);
      const moved = [swapped[2], swapped[0], swapped[1], ...swapped.slice(3)];
      await until(page, 'the active entries after the drag', shown, moved.slice(0, 20));
      check(
        JSON.stringify(await apiOrder()) === JSON.stringify(moved),
        `the whole list after dragging in a filtered view: ${JSON.stringify(await apiOrder())}`,
      );
    },
  };
}

export function settingsGeneralJourneys(main: RunningServer): Journey[] {
  return (['en', 'zh_HK'] as const).flatMap((lang) => [
    generalJourney(main, lang),
    smtpJourney(lang),
    auditJourney(main, lang),
    reorderJourney(main, lang),
  ]);
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import knex from 'knex';
import type { Page } from 'playwright-core';
import { CATALOG, type MessageKey } from '../shared/messages';
import { clickTo, answerOf, apiCall, choose, formItem, openMenu, signInAdmin, type Lang } from './actions';
import { check, outputPath, type Journey } from './harness';
import { makePdf } from './schools-journeys';
import type { RunningServer } from './server';

/**
 * Issue 13 as a consultant goes through it, in each language: a student created from the menu (numbered by the
 * branch's format), a father and two schools (primary, secondary) on the family & education tab, an application
 * to the intake the demo student applied to (school → intake → subject), a passport scan uploaded into its
 * checklist (P → U), marked submitted (U → S), taken back after confirming (S → N); another person then cancels
 * that document, and the stale "mark submitted" is refused with the reason in words; finally the student's
 * submitted information (the portal's step, issue 14, stood in for in the database) is reopened after confirming.
 */

const root = resolve(import.meta.dirname, '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as T;

type Strings = { [key: string]: string | Strings };
const RESOURCES: Record<Lang, Strings> = {
  en: readJson<{ resources: Strings }>('shared/resources/locales/en.json').resources,
  zh_HK: readJson<{ resources: Strings }>('shared/resources/locales/zh_HK.json').resources,
};
const STUDENTS: Record<Lang, Strings> = {
  en: readJson<{ students: Strings }>('client/src/features/students/locales/en.json').students,
  zh_HK: readJson<{ students: Strings }>('client/src/features/students/locales/zh_HK.json').students,
};
const ZH_MESSAGES = readJson<{ serverMessages: Record<string, string> }>(
  'client/src/locales/messages.zh_HK.json',
).serverMessages;

/** A string of a locale file by its dotted key (the journey reads the screen's words where the screen does). */
function text(from: Strings, key: string): string {
  let node: string | Strings = from;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || !(part in node)) throw new Error(`no string ${key}`);
    node = node[part];
  }
  if (typeof node !== 'string') throw new Error(`${key} is not a string`);
  return node;
}

function serverMessage(key: MessageKey, lang: Lang): string {
  return lang === 'en' ? CATALOG[key] : ZH_MESSAGES[key];
}

const SAVE: Record<Lang, string> = { en: 'Save', zh_HK: '儲存' };
/** The interface's common words (a dialog's Cancel). */
const COMMON: Record<Lang, { cancel: string }> = {
  en: readJson<{ common: { cancel: string } }>('client/src/locales/en.json').common,
  zh_HK: readJson<{ common: { cancel: string } }>('client/src/locales/zh_HK.json').common,
};

interface Row {
  [key: string]: unknown;
}

/** Saves the form on screen and waits for the answer of `method path`: its body. */
async function save(page: Page, lang: Lang, method: string, path: string, status: number): Promise<Row> {
  const answer = await answerOf(page, method, path, () =>
    page.getByRole('button', { name: SAVE[lang] }).click(),
  );
  check(answer.status() === status, `${method} ${path}: ${answer.status()} ${await answer.text()}`);
  return (await answer.json()) as Row;
}

function journey(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const R = (key: string) => text(RESOURCES[lang], key);
  const S = (key: string) => text(STUDENTS[lang], key);
  const tag = lang === 'en' ? 'EN' : 'ZH';
  const shot = (step: string) => outputPath(`students-${lang}-${step}.png`);
  const surname = `E2E${tag}`;
  const given = `Journey ${rid}`;
  return {
    name: `students (${lang}): a student created, family and education added, an application with its checklist — a passport scan uploaded (P→U), submitted (U→S), taken back (S→N), a stale move refused — and the information reopened`,
    async run(page) {
      await signInAdmin(page, base, lang);

      // what the demo student applied to: this intake is open today and has a checklist
      const demo = await apiCall(page, 'GET', '/api/students?q=student%40example.com');
      check(demo.status === 200, `the demo student: ${demo.status}`);
      const demoId = (JSON.parse(demo.body) as { items: Row[] }).items[0]?.id;
      // (named in the screen's language, as the pickers name them)
      const applied = await page.request.get(`${base}/api/students/${String(demoId)}/applications`, {
        headers: { Accept: 'application/json', 'Accept-Language': lang === 'en' ? 'en' : 'zh-HK' },
      });
      const target = ((await applied.json()) as { items: Row[] }).items[0];
      check(target, `the demo student has an application: ${await applied.text()}`);

      // 1. Students → Students, New: the form at /students/create; the number comes from the branch's format
      await openMenu(page, R('student.title'), R('student.title'));
      await page.waitForURL((url) => url.pathname === '/students');
      await clickTo(page, page.getByTestId('resource-create'), (url) => url.pathname === '/students/create');
      await formItem(page, R('student.fields.surname_en')).locator('input').fill(surname);
      await formItem(page, R('student.fields.given_name_en')).locator('input').fill(given);
      await formItem(page, R('student.fields.name_zh')).locator('input').fill(`測試${rid}`);
      await formItem(page, R('student.fields.passport_no')).locator('input').fill(`E${tag}${rid}`);
      await formItem(page, R('student.fields.email'))
        .locator('input')
        .fill(`e2e-${tag.toLowerCase()}-${rid}@example.com`);
      const student = await save(page, lang, 'POST', '/api/students', 201);
      const id = Number(student.id);
      check(
        /^STU-MK-\d{4}-\d{5}$/.test(String(student.student_no)),
        `the student is numbered by the branch's format: ${String(student.student_no)}`,
      );
      await page.waitForURL((url) => url.pathname === `/students/basic/${id}`);
      await page.getByText(String(student.student_no)).first().waitFor();

      // 2. Family & education: a father, then primary and secondary schooling
      await page.getByRole('tab', { name: R('student.tabs.family') }).click();
      await page.waitForURL((url) => url.pathname === `/students/family/${id}`);
      const family = page.getByTestId('tab-child-student_family');
      await clickTo(
        page,
        family.getByTestId('resource-create'),
        (url) => url.pathname === `/students/family/${id}/member/create`,
      );
      const father = lang === 'en' ? 'Father' : '父親';
      await choose(page, formItem(page, R('student_family.fields.relationship')), father);
      await formItem(page, R('student_family.fields.name_en')).locator('input').fill(`${surname} Senior`);
      await save(page, lang, 'POST', `/api/students/${id}/family`, 201);
      await page.waitForURL((url) => url.pathname === `/students/family/${id}`);
      await family.getByText(`${surname} Senior`).waitFor();
      const education = page.getByTestId('tab-child-student_education');
      for (const [level, school] of [
        [lang === 'en' ? 'Primary school' : '小學', `Primary ${rid}`],
        [lang === 'en' ? 'Secondary school' : '中學', `Secondary ${rid}`],
      ]) {
        await clickTo(
          page,
          education.getByTestId('resource-create'),
          (url) => url.pathname === `/students/family/${id}/education/create`,
        );
        await choose(page, formItem(page, R('student_education.fields.level')), level);
        await formItem(page, R('student_education.fields.school_name')).locator('input').fill(school);
        await save(page, lang, 'POST', `/api/students/${id}/educations`, 201);
        await page.waitForURL((url) => url.pathname === `/students/family/${id}`);
        await education.getByText(school).waitFor();
      }
      await page.screenshot({ path: shot('1-family'), fullPage: true });

      // 3. An application: the school, then one of its intakes, then a subject that intake opens
      await page.getByRole('tab', { name: R('student.tabs.application') }).click();
      await page.waitForURL((url) => url.pathname === `/students/application/${id}`);
      await clickTo(
        page,
        page.getByTestId('resource-list-student_application').getByTestId('resource-create'),
        (url) => url.pathname === `/students/application/${id}/create`,
      );
      await choose(
        page,
        formItem(page, R('student_application.fields.school_id')),
        String(target.school_name),
      );
      await choose(
        page,
        formItem(page, R('student_application.fields.admission_id')),
        String(target.admission_name),
      );
      await choose(
        page,
        formItem(page, R('student_application.fields.subject_id')),
        String(target.subject_name),
      );
      const application = await save(page, lang, 'POST', `/api/students/${id}/applications`, 201);
      await page.waitForURL((url) => url.pathname === `/students/application/${id}`);
      await page
        .getByTestId('resource-list-student_application')
        .locator('.ant-table-row')
        .first()
        .locator(`a[href$="/${String(application.id)}"]`)
        .click();
      await page.waitForURL(
        (url) => url.pathname === `/students/application/${id}/${String(application.id)}`,
      );

      // 4. The checklist: every document pending (P), with the legend
      const checklist = page.getByTestId('document-checklist');
      await checklist.getByTestId('checklist-legend').waitFor();
      const rows = checklist.locator('.ant-table-tbody .ant-table-row');
      await rows.first().waitFor();
      const codes = (await rows.getByTestId('document-code').allInnerTexts()).map((s) => s.trim());
      check(codes.length > 0 && codes.every((c) => c === 'P'), `a new checklist is all pending: ${codes}`);
      const first = rows.first();
      const code = () => first.getByTestId('document-code');
      const waitCode = (letter: string) =>
        first
          .getByTestId('document-code')
          .filter({ hasText: new RegExp(`^${letter}$`) })
          .waitFor();

      // a passport scan into the first row: P → U
      const scan = `passport-${tag.toLowerCase()}-${rid}.pdf`;
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        first.getByRole('button', { name: new RegExp(`^${S('checklist.upload')} `) }).click(),
      ]);
      const documentId = await (async () => {
        const answer = page.waitForResponse(
          (r) => r.request().method() === 'POST' && /\/api\/application-documents\/\d+\/file$/.test(r.url()),
        );
        await chooser.setFiles({
          name: scan,
          mimeType: 'application/pdf',
          buffer: makePdf(`Passport ${rid}`),
        });
        const done = await answer;
        check(done.status() === 200, `the scan is stored: ${done.status()} ${await done.text()}`);
        return Number(((await done.json()) as Row).id);
      })();
      await waitCode('U');
      await first.getByTestId('document-file').filter({ hasText: scan }).waitFor();

      // issue 31 item 11: each move named by what it does, never a dialog's Cancel
      const dialogCancel = COMMON[lang].cancel;
      const moveLabels = (await first.locator('button[data-action]').allInnerTexts()).map((s) => s.trim());
      console.log(`    checklist moves offered at U (${lang}): ${moveLabels.join(', ')}`);
      check(
        moveLabels.length > 0 && !moveLabels.includes(dialogCancel),
        `a move reads like a dialog's ${dialogCancel}: ${moveLabels.join(', ')}`,
      );
      // U → S: marked submitted, after confirming (as taking back and reopening ask first)
      const submit = R('application_document.actions.submit');
      await first.getByRole('button', { name: new RegExp(`^${submit} `) }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: submit }).click();
      await waitCode('S');
      // S → N: taken back, after confirming
      const unsubmit = R('application_document.actions.unsubmit');
      await first.getByRole('button', { name: new RegExp(`^${unsubmit} `) }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: unsubmit }).click();
      await waitCode('N');
      await page.screenshot({ path: shot('2-checklist'), fullPage: true });

      // someone else cancels it meanwhile; this screen still offers "mark submitted": refused, with the reason
      const cancelled = await apiCall(page, 'POST', `/api/application-documents/${documentId}/cancel`);
      check(cancelled.status === 200, `cancelled elsewhere: ${cancelled.status} ${cancelled.body}`);
      await first.getByRole('button', { name: new RegExp(`^${submit} `) }).click();
      const refused = await answerOf(page, 'POST', `/api/application-documents/${documentId}/submit`, () =>
        page.locator('.ant-popconfirm:visible').getByRole('button', { name: submit }).click(),
      );
      check(refused.status() === 409, `the stale move is refused: ${refused.status()}`);
      await checklist
        .getByTestId('checklist-error')
        .filter({ hasText: serverMessage('documentCannotSubmit', lang) })
        .waitFor();
      // the checklist is read again: the document is cancelled, and only "restore" is offered
      await waitCode('C');
      const offered = await first
        .locator('button[data-action]')
        .evaluateAll((buttons) =>
          buttons.map((b) => (b as unknown as { dataset: { action: string } }).dataset.action),
        );
      check(
        JSON.stringify(offered) === '["restore"]',
        `a cancelled document offers restore only: ${offered}`,
      );
      check((await code().innerText()).trim() === 'C', 'the code is C');
      await page.screenshot({ path: shot('3-refused'), fullPage: true });

      // 5. The student submitted their information in the portal (issue 14's screen; stood in for here)
      const db = knex({
        client: 'better-sqlite3',
        connection: { filename: main.databaseFile },
        useNullAsDefault: true,
      });
      try {
        await db('students').where({ id }).update({ info_submitted_at: '2026-11-20 02:30:00' });
      } finally {
        await db.destroy();
      }
      await page.getByRole('tab', { name: R('student.tabs.basic') }).click();
      await page.waitForURL((url) => url.pathname === `/students/basic/${id}`);
      await page.reload();
      const card = page.getByTestId('portal-access');
      // shown in Hong Kong time: 02:30 UTC is 10:30 there
      await card.getByTestId('portal-submitted').filter({ hasText: '10:30' }).waitFor();
      const reopen = S('portal.reopen');
      await card.getByTestId('portal-reopen').click();
      const reopened = await answerOf(page, 'POST', `/api/students/${id}/reopen`, () =>
        page
          .locator('.ant-popconfirm:visible, .ant-modal:visible')
          .getByRole('button', { name: reopen })
          .click(),
      );
      check(reopened.status() === 200, `reopened: ${reopened.status()} ${await reopened.text()}`);
      check(((await reopened.json()) as Row).info_submitted_at === null, 'the submission is cleared');
      await card.getByText(S('portal.notSubmitted')).waitFor();
      await page.screenshot({ path: shot('4-reopened'), fullPage: true });
    },
  };
}

export function studentsJourneys(main: RunningServer): Journey[] {
  const rid = String(Date.now()).slice(-6);
  return [journey(main, 'zh_HK', rid), journey(main, 'en', rid)];
}

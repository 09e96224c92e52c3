import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { CATALOG, type MessageKey } from '../shared/messages';
import {
  clickTo,
  createLink,
  answerOf,
  apiCall,
  calendarsClosed,
  choose,
  formItem,
  openCalendar,
  openMenu,
  openOptions,
  rowOf,
  signInAdmin,
  type Lang,
} from './actions';
import { makePng } from './files-journeys';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Issue 12 as a person goes through it, in each language: a school created from the menu (an area, then one of
 * its districts — the district picker waits for the area and offers only its districts) with a logo; subjects
 * imported from a CSV made here (a file with a bad row refused by row and column, importing nothing; a good one
 * importing all); an intake whose application deadline falls in this month, offering one subject, with three
 * checklist documents reordered by dragging; a PDF attached; the PDF and the logo found in the media manager
 * under the school, the PDF previewed; the deadline on the calendar's month on its day and in its list, which
 * opens the intake.
 */

const root = resolve(import.meta.dirname, '..');

// page.waitForFunction runs in the browser; the e2e code is type-checked without DOM types.
declare const document: { querySelectorAll(selector: string): { length: number } };
const readJson = <T>(path: string): T => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as T;

/** The server's messages as the client shows them: the catalogue in English, the client's zh_HK copy. */
const ZH_MESSAGES = readJson<{ serverMessages: Record<string, string> }>(
  'client/src/locales/messages.zh_HK.json',
).serverMessages;

function serverMessage(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  const template = lang === 'en' ? CATALOG[key] : ZH_MESSAGES[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name]));
}

/** The subject fields' labels in each language (the import template's headers). */
const SUBJECT_LABELS: Record<Lang, Record<string, string>> = {
  en: readJson<{ resources: { school_subject: { fields: Record<string, string> } } }>(
    'shared/resources/locales/en.json',
  ).resources.school_subject.fields,
  zh_HK: readJson<{ resources: { school_subject: { fields: Record<string, string> } } }>(
    'shared/resources/locales/zh_HK.json',
  ).resources.school_subject.fields,
};

/** The intake's checklist, in the order added (names in both languages, whatever the screen's). */
const DOCUMENTS = [
  { en: 'Passport copy', zh: '護照副本' },
  { en: 'Academic transcript', zh: '成績單' },
  { en: 'Study plan', zh: '讀書計劃' },
];

const TEXT = {
  en: {
    schools: 'Schools',
    newSchool: 'New: Schools',
    code: 'School code',
    nameEn: 'English name',
    nameZh: 'Chinese name',
    area: 'Area',
    district: 'District',
    areaName: 'Busan',
    districts: ['Busanjin-gu', 'Haeundae-gu'],
    save: 'Save',
    upload: 'Upload',
    logo: 'Logo',
    tabs: { subject: 'Subjects', admission: 'Admission times', attachment: 'Attachments' },
    importTitle: 'Import from a file',
    importChoose: 'Click or drag an XLSX or CSV file here',
    imported: (n: number) => `${n} record(s) imported.`,
    yes: 'yes',
    newIntake: 'New: Admission time',
    year: 'Year',
    start: 'Application start',
    deadline: 'Application deadline',
    subjectsOffered: 'Subjects offered',
    addDocument: 'Add a document',
    uploadFiles: 'Upload files',
    uploaded: (name: string) => `File “${name}” uploaded.`,
    media: 'Media manager',
    searchFiles: 'Search file names',
    ownerAttachment: 'School attachment',
    ownerLogo: 'School logo',
    preview: 'Preview',
    close: 'Close',
    calendar: 'Calendar',
    list: 'List',
    deadlineEntry: (school: string, intake: string) => `Application deadline: ${school} ${intake}`,
  },
  zh_HK: {
    schools: '學校',
    newSchool: '新增：學校',
    code: '學校編號',
    nameEn: '英文名稱',
    nameZh: '中文名稱',
    area: '地區',
    district: '分區',
    areaName: '釜山',
    districts: ['海雲臺區', '釜山鎮區'],
    save: '儲存',
    upload: '上載',
    logo: '標誌',
    tabs: { subject: '學科', admission: '入學期', attachment: '附件' },
    importTitle: '從檔案匯入',
    importChoose: '按此或將 XLSX／CSV 檔案拖放到這裏',
    imported: (n: number) => `已匯入 ${n} 筆紀錄。`,
    yes: '是',
    newIntake: '新增：入學期',
    year: '年份',
    start: '申請開始日期',
    deadline: '申請截止日期',
    subjectsOffered: '開辦學科',
    addDocument: '新增文件',
    uploadFiles: '上載檔案',
    uploaded: (name: string) => `已上載檔案「${name}」。`,
    media: '媒體管理',
    searchFiles: '搜尋檔案名稱',
    ownerAttachment: '學校附件',
    ownerLogo: '學校標誌',
    preview: '預覽',
    close: '關閉',
    calendar: '日曆',
    list: '列表',
    deadlineEntry: (school: string, intake: string) => `申請截止：${school} ${intake}`,
  },
} as const;
type Text = (typeof TEXT)[Lang];

// ---------------------------------------------------------------------------------------------------------
// A real PDF, made here: one page with a line of Helvetica, its cross-reference table at the right offsets.

export function makePdf(line: string): Buffer {
  const content = `BT /F1 18 Tf 24 64 Td (${line.replace(/[()\\]/g, '\\$&')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// ---------------------------------------------------------------------------------------------------------

/**
 * Picks a day in an antd date picker's calendar, as a person does (Enter in its input would submit the form); a
 * click landing while the calendar is still opening is lost: then it is picked again.
 */
async function pickDate(page: Page, item: Locator, date: string): Promise<void> {
  const input = item.locator('input');
  for (let attempt = 1; ; attempt++) {
    await calendarsClosed(page);
    await input.click();
    await openCalendar(page).locator(`td[title="${date}"]`).click();
    const picked = await page
      .waitForFunction(
        ([element, value]) => (element as unknown as { value: string }).value === value,
        [await input.elementHandle(), date] as const,
        { timeout: 2_000 },
      )
      .then(() => true)
      .catch(() => false);
    if (picked) break;
    if (attempt === 3) throw new Error(`the date picker does not show ${date}: ${await input.inputValue()}`);
    await page.keyboard.press('Escape');
  }
  await calendarsClosed(page);
}

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
 * The day of this month with the fewest calendar entries on it (read from the feed), so that the month view
 * shows a new entry on it rather than behind "+ more": the intake's deadline.
 */
async function quietDayThisMonth(page: Page): Promise<string> {
  const today = hongKongToday();
  const first = `${today.slice(0, 8)}01`;
  const next = new Date(`${first}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const end = next.toISOString().slice(0, 10);
  const feed = await apiCall(page, 'GET', `/api/calendars?type=basic&start=${first}&end=${end}`);
  check(feed.status === 200, `the calendar feed: ${feed.status} ${feed.body}`);
  const items = (JSON.parse(feed.body) as { items: { start: string; end: string | null }[] }).items;
  let best = { day: today, count: Infinity };
  // from the 2nd (the application start is the day before), the latest of the quietest days
  for (let day = `${today.slice(0, 8)}02`; day < end; day = addDays(day, 1)) {
    const count = items.filter((e) => {
      const start = e.start.slice(0, 10);
      return e.end ? start <= day && day < e.end.slice(0, 10) : start === day;
    }).length;
    if (count <= best.count) best = { day, count };
  }
  return best.day;
}

async function uploadThroughChooser(
  page: Page,
  trigger: Locator,
  name: string,
  mimeType: string,
  buffer: Buffer,
) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), trigger.click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

/** Searches the media manager for a file name: the one row it finds, once the search's answer is shown. */
async function searchFiles(page: Page, t: Text, name: string): Promise<Locator> {
  const search = page.getByRole('searchbox', { name: t.searchFiles });
  await search.fill(name);
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/files' && new URL(r.url()).searchParams.get('q') === name,
    ),
    search.press('Enter'),
  ]);
  const found = ((await answer.json()) as { items: { original_name: string }[] }).items;
  check(
    found.length === 1 && found[0].original_name === name,
    `the search finds the one file ${name}: ${JSON.stringify(found.map((f) => f.original_name))}`,
  );
  const rows = page.locator('.ant-table-tbody .ant-table-row');
  await rows.filter({ hasText: name }).waitFor();
  // the earlier answer's rows go once this one is drawn
  await page.waitForFunction(
    (selector) => document.querySelectorAll(selector).length === 1,
    '.ant-table-tbody .ant-table-row',
  );
  return rows.first();
}

/** The first cell (the code) of each row of the embedded list. */
async function listCodes(page: Page): Promise<string[]> {
  const rows = page.locator('.ant-table-tbody .ant-table-row');
  return (await rows.locator('td:first-child').allInnerTexts()).map((s) => s.trim());
}

function journey(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const t: Text = TEXT[lang];
  const tag = lang === 'en' ? 'EN' : 'ZH';
  const code = `E2E-${tag}-${rid}`;
  const school = { en: `E2E School ${tag} ${rid}`, zh: `測試學校${tag}${rid}` };
  const intake = { en: `Spring intake ${tag} ${rid}`, zh: `春季入學${tag}${rid}` };
  const schoolName = lang === 'en' ? school.en : school.zh;
  const intakeName = lang === 'en' ? intake.en : intake.zh;
  const shot = (step: string) => outputPath(`schools-${lang}-${step}.png`);
  return {
    name: `schools (${lang}): a school with area → district and logo, subjects imported (a bad row refused), an intake with a dragged checklist, a PDF attached, found in the media manager, the deadline on the calendar`,
    async run(page) {
      await signInAdmin(page, base, lang);

      // 1. Schools → Schools, New: the district waits for the area and offers only its districts
      await openMenu(page, t.schools, t.schools);
      await page.waitForURL((url) => url.pathname === '/schools');
      await clickTo(
        page,
        createLink(page, '/schools/basic/create'),
        (url) => url.pathname === '/schools/basic/create',
      );
      await page.getByRole('heading', { name: t.newSchool }).waitFor();
      await formItem(page, t.code).locator('input').fill(code);
      await formItem(page, t.nameEn).first().locator('input').fill(school.en);
      await formItem(page, t.nameZh).first().locator('input').fill(school.zh);
      const district = formItem(page, t.district);
      check(await district.getByRole('combobox').isDisabled(), 'the district picker waits for the area');
      await choose(page, formItem(page, t.area), t.areaName);
      await district.locator('.ant-select:not(.ant-select-disabled)').waitFor();
      await district.locator('.ant-select').click();
      await openOptions(page).filter({ hasText: t.districts[0] }).first().waitFor();
      const offered = (await openOptions(page).allInnerTexts()).map((s) => s.trim()).sort();
      check(
        JSON.stringify(offered) === JSON.stringify([...t.districts].sort()),
        `the district picker offers the area's districts only: ${JSON.stringify(offered)}`,
      );
      await choose(page, district, t.districts[1]);
      const created = await answerOf(page, 'POST', '/api/schools', () =>
        page.getByRole('button', { name: t.save }).click(),
      );
      check(created.status() === 201, `the school is created: ${created.status()} ${await created.text()}`);
      const schoolId = ((await created.json()) as { id: number }).id;
      await page.waitForURL((url) => url.pathname === `/schools/basic/${schoolId}`);
      await page.getByRole('heading', { name: schoolName, exact: true }).waitFor();
      await district.getByText(t.districts[1]).waitFor();

      // its logo, uploaded on the form (a PNG made here)
      const logoName = `logo-${tag.toLowerCase()}-${rid}.png`;
      const logoField = page.getByTestId('file-field-logo_file_id');
      const logoAnswer = await answerOf(page, 'POST', `/api/schools/${schoolId}/logo`, () =>
        uploadThroughChooser(
          page,
          logoField.getByRole('button', { name: t.upload }),
          logoName,
          'image/png',
          makePng(64, lang === 'en' ? 5 : 6),
        ),
      );
      check(
        logoAnswer.status() === 200,
        `the logo is stored: ${logoAnswer.status()} ${await logoAnswer.text()}`,
      );
      const logoId = ((await logoAnswer.json()) as { logo_file_id: number }).logo_file_id;
      await logoField
        .getByRole('img', { name: t.logo })
        .and(page.locator(`[src="/api/files/${logoId}?inline=1"]`))
        .waitFor();
      await page.screenshot({ path: shot('1-school'), fullPage: true });

      // 2. Subjects: imported from a CSV with the template's headers; a bad row refuses the whole file
      await page.getByRole('tab', { name: t.tabs.subject }).click();
      await page.waitForURL((url) => url.pathname === `/schools/subject/${schoolId}`);
      const template = await apiCall(
        page,
        'GET',
        `/api/schools/${schoolId}/subjects/import/template?format=csv&lang=${lang}`,
      );
      check(template.status === 200, `the template: ${template.status}`);
      const headers = template.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(',');
      const labels = SUBJECT_LABELS[lang];
      const columns = ['code', 'name_en', 'name_zh', 'faculty', 'duration_months', 'is_active'];
      for (const field of columns)
        check(headers.includes(labels[field]), `the template has "${labels[field]}": ${headers.join(',')}`);
      const subjects = [
        { code: `MATH-${rid}`, en: `Mathematics ${rid}`, zh: `數學${rid}`, faculty: 'Science' },
        { code: `PHYS-${rid}`, en: `Physics ${rid}`, zh: `物理${rid}`, faculty: 'Science' },
        { code: `ECON-${rid}`, en: `Economics ${rid}`, zh: `經濟${rid}`, faculty: 'Social Sciences' },
      ];
      const csv = (active: (i: number) => string) =>
        Buffer.from(
          '\uFEFF' +
            [
              headers.join(','),
              ...subjects.map((s, i) => {
                const cells: Record<string, string> = {
                  code: s.code,
                  name_en: s.en,
                  name_zh: s.zh,
                  faculty: s.faculty,
                  duration_months: '48',
                  is_active: active(i),
                };
                return headers.map((h) => cells[columns.find((f) => labels[f] === h) ?? ''] ?? '').join(',');
              }),
            ].join('\r\n') +
            '\r\n',
        );
      const importPath = `/api/schools/${schoolId}/subjects/import`;
      await page.getByRole('tabpanel', { name: t.tabs.subject }).getByTestId('resource-import').click();
      const dialog = page.getByRole('dialog', { name: t.importTitle });
      await dialog.waitFor();
      const dropZone = dialog.getByRole('button', { name: t.importChoose });

      // the second subject's "Active" is neither yes nor no: row 3 of the file (the header is row 1)
      const refused = await answerOf(page, 'POST', importPath, () =>
        uploadThroughChooser(
          page,
          dropZone,
          `subjects-bad-${rid}.csv`,
          'text/csv',
          csv((i) => (i === 1 ? 'maybe' : t.yes)),
        ),
      );
      check(refused.status() === 422, `the bad file is refused: ${refused.status()} ${await refused.text()}`);
      const errors = dialog.getByTestId('resource-import-errors');
      await errors.waitFor();
      const expectedRow = serverMessage('importCell', lang, {
        row: 3,
        column: labels.is_active,
        message: serverMessage('importYesNo', lang),
      });
      const errorText = await errors.innerText();
      check(
        errorText.includes(expectedRow),
        `the refusal names the row and column: "${errorText}", expected "${expectedRow}"`,
      );
      check(
        errorText.includes(serverMessage('importRowsBad', lang, { count: 1 })),
        `the refusal says nothing was imported: "${errorText}"`,
      );
      await page.screenshot({ path: shot('2-import-refused') });
      const none = await apiCall(page, 'GET', `/api/schools/${schoolId}/subjects`);
      check(
        (JSON.parse(none.body) as { total: number }).total === 0,
        `nothing imported from the bad file: ${none.body}`,
      );

      const imported = await answerOf(page, 'POST', importPath, () =>
        uploadThroughChooser(
          page,
          dropZone,
          `subjects-${rid}.csv`,
          'text/csv',
          csv(() => t.yes),
        ),
      );
      check(imported.status() === 200, `the good file: ${imported.status()} ${await imported.text()}`);
      await dialog.locator('.ant-alert-success').getByText(t.imported(3)).waitFor();
      check((await errors.count()) === 0, 'the earlier refusal is gone');
      await dialog.locator('.ant-modal-footer').getByRole('button', { name: t.close }).click();
      await dialog.waitFor({ state: 'hidden' });
      for (const s of subjects) await rowOf(page, s.code);
      const codes = await listCodes(page);
      check(
        JSON.stringify(codes) === JSON.stringify(subjects.map((s) => s.code).sort()),
        `the list shows the three subjects: ${JSON.stringify(codes)}`,
      );
      await page.screenshot({ path: shot('3-subjects'), fullPage: true });

      // 3. Admissions: an intake closing this month, one subject, three documents reordered by dragging
      const deadline = await quietDayThisMonth(page);
      const start = addDays(deadline, -1);
      await page.getByRole('tab', { name: t.tabs.admission }).click();
      await page.waitForURL((url) => url.pathname === `/schools/admission/${schoolId}`);
      await clickTo(
        page,
        page.getByRole('tabpanel', { name: t.tabs.admission }).getByTestId('resource-create'),
        (url) => url.pathname === `/schools/admission/${schoolId}/create`,
      );
      const form = page.getByTestId('child-record-school_admission');
      await form.getByText(t.newIntake).waitFor();
      await formItem(form, t.nameEn).first().locator('input').fill(intake.en);
      await formItem(form, t.nameZh).first().locator('input').fill(intake.zh);
      await formItem(form, t.year).locator('input').fill(deadline.slice(0, 4));
      // issue 31 §1: a date typed and confirmed with Enter stays a date in the form: nothing is saved, the
      // form stays open (it was saved with only a name, a year and a date, and the list shown)
      let intakePosts = 0;
      const countPosts = (request: { method(): string; url(): string }) => {
        if (request.method() === 'POST' && request.url().includes(`/api/schools/${schoolId}/admissions`))
          intakePosts += 1;
      };
      page.on('request', countPosts);
      const startInput = formItem(form, t.start).locator('input');
      await startInput.click();
      await startInput.fill(start);
      await startInput.press('Enter');
      await formItem(form, t.nameEn).first().locator('input').press('Enter');
      await page.waitForTimeout(500);
      page.off('request', countPosts);
      check(
        intakePosts === 0 && page.url().endsWith(`/schools/admission/${schoolId}/create`),
        `Enter in the date and a name field saves nothing (${intakePosts} POST) and stays on the form: ${page.url()}`,
      );
      check(
        (await startInput.inputValue()) === start,
        `Enter confirmed the typed date: ${await startInput.inputValue()}`,
      );
      await pickDate(page, formItem(form, t.start), start);
      await pickDate(page, formItem(form, t.deadline), deadline);
      await choose(page, formItem(form, t.subjectsOffered), subjects[0].code, true);
      const docs = form.getByTestId('collection-documents');
      const docName = (n: number) => docs.getByRole('textbox', { name: `${t.nameEn} ${n}`, exact: true });
      const docNameZh = (n: number) => docs.getByRole('textbox', { name: `${t.nameZh} ${n}`, exact: true });
      for (const [i, doc] of DOCUMENTS.entries()) {
        await form.getByRole('button', { name: t.addDocument }).click();
        if (i < DOCUMENTS.length - 1) {
          await docName(i + 1).fill(doc.en);
          await docNameZh(i + 1).fill(doc.zh);
          continue;
        }
        // issue 31 §13: the last row named by choosing its document type (the seeded list's), both languages
        await choose(
          page,
          docs.locator(`tr[data-row-index="${i}"] td`).nth(1),
          lang === 'en' ? doc.en : doc.zh,
        );
        const filled = [await docName(i + 1).inputValue(), await docNameZh(i + 1).inputValue()];
        check(
          filled[0] === doc.en && filled[1] === doc.zh,
          `choosing the document type names the row in both languages: ${filled.join(' / ')}`,
        );
      }
      const shownOrder = async () => Promise.all(DOCUMENTS.map((_d, i) => docName(i + 1).inputValue()));
      // the first row dragged by its handle onto the last: the others move up
      await docs.getByTestId('documents-drag-0').dragTo(docs.locator('tr[data-row-index="2"]'));
      const expected = [DOCUMENTS[1].en, DOCUMENTS[2].en, DOCUMENTS[0].en];
      const order = await shownOrder();
      check(
        JSON.stringify(order) === JSON.stringify(expected),
        `the dragged row went last: ${JSON.stringify(order)}`,
      );
      await page.screenshot({ path: shot('4-intake-form'), fullPage: true });
      const intakeAnswer = await answerOf(page, 'POST', `/api/schools/${schoolId}/admissions`, () =>
        form.getByRole('button', { name: t.save }).click(),
      );
      check(
        intakeAnswer.status() === 201,
        `the intake is created: ${intakeAnswer.status()} ${await intakeAnswer.text()}`,
      );
      const admissionId = ((await intakeAnswer.json()) as { id: number }).id;
      await page.waitForURL((url) => url.pathname === `/schools/admission/${schoolId}`);
      await rowOf(page, intakeName);
      const stored = await apiCall(page, 'GET', `/api/schools/${schoolId}/admissions/${admissionId}`);
      const intakeRecord = JSON.parse(stored.body) as {
        application_start: string;
        application_deadline: string;
        subject_ids: number[];
        documents: { name_en: string; name_zh: string }[];
      };
      check(
        JSON.stringify(intakeRecord.documents.map((d) => d.name_en)) === JSON.stringify(expected),
        `the documents are stored in the dragged order: ${JSON.stringify(intakeRecord.documents)}`,
      );
      check(intakeRecord.documents[2].name_zh === DOCUMENTS[0].zh, 'each document keeps its Chinese name');
      check(
        intakeRecord.application_deadline === deadline && intakeRecord.application_start === start,
        `the dates: ${intakeRecord.application_start} – ${intakeRecord.application_deadline}`,
      );
      const subjectList = await apiCall(
        page,
        'GET',
        `/api/schools/${schoolId}/subjects?q=${subjects[0].code}`,
      );
      const mathId = (JSON.parse(subjectList.body) as { items: { id: number }[] }).items[0]?.id;
      check(
        JSON.stringify(intakeRecord.subject_ids) === JSON.stringify([mathId]),
        `the intake offers ${subjects[0].code}: ${JSON.stringify(intakeRecord.subject_ids)}`,
      );

      // 4. Attachments: a PDF uploaded, listed in the tab
      const pdfName = `brochure-${tag.toLowerCase()}-${rid}.pdf`;
      await page.getByRole('tab', { name: t.tabs.attachment }).click();
      await page.waitForURL((url) => url.pathname === `/schools/attachment/${schoolId}`);
      const attachments = page.getByTestId(`file-attachments-school-${schoolId}`);
      const pdfAnswer = await answerOf(page, 'POST', '/api/files', () =>
        uploadThroughChooser(
          page,
          attachments.getByRole('button', { name: t.uploadFiles }),
          pdfName,
          'application/pdf',
          makePdf(`${schoolName.replace(/[^\x20-\x7e]/g, '')} brochure`),
        ),
      );
      check(pdfAnswer.status() === 201, `the PDF is stored: ${pdfAnswer.status()} ${await pdfAnswer.text()}`);
      const pdf = (await pdfAnswer.json()) as { id: number; mime_type: string; preview_url: string | null };
      check(pdf.mime_type === 'application/pdf', `stored as a PDF: ${pdf.mime_type}`);
      await page.getByText(t.uploaded(pdfName)).first().waitFor();
      await attachments.locator('.ant-table-row').filter({ hasText: pdfName }).waitFor();
      await page.screenshot({ path: shot('5-attachments'), fullPage: true });

      // 5. Media manager: the PDF found by name, the school its owner (a link), previewed in a frame
      await openMenu(page, t.media);
      await page.waitForURL((url) => url.pathname === '/media');
      const fileRow = await searchFiles(page, t, pdfName);
      const owner = fileRow.getByTestId('file-owner');
      await owner.getByText(t.ownerAttachment, { exact: true }).waitFor();
      const ownerLink = owner.getByRole('link', { name: schoolName, exact: true });
      check(
        (await ownerLink.getAttribute('href')) === `/schools/attachment/${schoolId}`,
        `the owner links to the school's attachments: ${await ownerLink.getAttribute('href')}`,
      );
      await fileRow.getByRole('button', { name: `${t.preview} ${pdfName}` }).click();
      const frame = page.getByTestId('file-preview').locator('iframe');
      await frame.waitFor();
      const src = await frame.getAttribute('src');
      check(src && src === pdf.preview_url, `the preview frame shows the PDF: ${src} (${pdf.preview_url})`);
      const inline = await page.request.get(`${base}${src}`);
      check(
        inline.status() === 200 && inline.headers()['content-type'] === 'application/pdf',
        `the preview is the PDF: ${inline.status()} ${inline.headers()['content-type']}`,
      );
      check(
        /^inline/.test(inline.headers()['content-disposition'] ?? ''),
        `the preview is served inline: ${inline.headers()['content-disposition']}`,
      );
      // the picture once the dialog has finished zooming in
      await page.locator('.ant-modal[class*="ant-zoom"]').waitFor({ state: 'detached' });
      await page.screenshot({ path: shot('6-media-preview') });
      await page
        .getByRole('dialog')
        .locator('.ant-modal-footer')
        .getByRole('button', { name: t.close })
        .click();
      await frame.waitFor({ state: 'detached' });

      // the logo too, under the school
      const logoRow = await searchFiles(page, t, logoName);
      await logoRow.getByTestId('file-owner').getByText(t.ownerLogo, { exact: true }).waitFor();
      await logoRow.getByTestId('file-owner').getByRole('link', { name: schoolName, exact: true }).waitFor();

      // the PDF's owner link opens the school's attachments
      await (
        await searchFiles(page, t, pdfName)
      )
        .getByRole('link', { name: schoolName, exact: true })
        .click();
      await page.waitForURL((url) => url.pathname === `/schools/attachment/${schoolId}`);
      await attachments.locator('.ant-table-row').filter({ hasText: pdfName }).waitFor();

      // 6. Calendar: the deadline on its day in the month, then in the list, which opens the intake
      await openMenu(page, t.calendar);
      await page.waitForURL((url) => url.pathname === '/calendar');
      const title = t.deadlineEntry(schoolName, intakeName);
      const entry = page
        .locator(`[role=cell][data-date="${deadline}"]`)
        .locator('a')
        .filter({ hasText: title });
      await entry.waitFor();
      check(
        (await entry.getAttribute('href')) === `/schools/admission/${schoolId}/${admissionId}`,
        `the entry links to the intake: ${await entry.getAttribute('href')}`,
      );
      await page.screenshot({ path: shot('7-calendar-month'), fullPage: true });

      await page.getByTestId('calendar-view-switch').getByText(t.list, { exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/calendar/list');
      const listed = page.getByTestId('calendar-view').getByText(title, { exact: true });
      await listed.waitFor();
      await page.screenshot({ path: shot('8-calendar-list'), fullPage: true });
      await listed.click();
      await page.waitForURL((url) => url.pathname === `/schools/admission/${schoolId}/${admissionId}`);
      const opened = page.getByTestId('child-record-school_admission');
      await opened.getByText(intakeName, { exact: true }).waitFor();
      const nameInput = formItem(opened, t.nameEn).first().locator('input');
      await page.waitForFunction(
        ([input, value]) => (input as unknown as { value: string }).value === value,
        [await nameInput.elementHandle(), intake.en] as const,
      );
      await page.screenshot({ path: shot('9-intake-opened'), fullPage: true });
    },
  };
}

/** The journeys, in Chinese (the staff default) and English. */
export function schoolsJourneys(main: RunningServer): Journey[] {
  const rid = Date.now().toString(36).slice(-5).toUpperCase();
  return [journey(main, 'zh_HK', rid), journey(main, 'en', rid)];
}

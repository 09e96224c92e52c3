import type { Locator, Page } from 'playwright-core';
import {
  clickTo,
  ADMIN,
  apiCall,
  exportedRows,
  firstId,
  formItem,
  rowOf,
  searchList,
  signInAdmin,
  type Lang,
} from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * The organisation settings screens (companies, branches, roles with the permission grid, users) in both
 * languages: the list, a free-text search finding the new record, create, edit (the value still there after
 * a reload), a duplicate refused on its field, a referenced record's delete refused with the reference
 * message in words, and the XLSX export of the current filter read back, headed in the screen's language.
 */

const TEXT = {
  en: {
    languageName: 'English',
    save: 'Save',
    saved: 'Saved.',
    delete: 'Delete',
    edit: 'Edit',
    exportXlsx: 'Export XLSX',
    duplicate: 'This Data is already exist.',
    companies: 'Companies',
    newCompany: 'New: Companies',
    branches: 'Branches',
    roles: 'Roles',
    newRole: 'New: Roles',
    users: 'Users',
    code: 'Code',
    nameEn: 'Name (English)',
    nameZh: 'Name (Chinese)',
    phone: 'Phone',
    email: 'Email',
    company: 'Company',
    name: 'Name',
    description: 'Description',
    dataScope: 'Data scope',
    scopeAll: 'All branches',
    permissions: 'Permissions',
    exportedPermissions:
      'Schools – View, Schools – Create, Schools – Update, Schools – Delete, Students – View, Students – Create, Students – Update',
    role: 'Role',
    branch: 'Branch',
    language: 'Language',
    password: 'Password',
    passwordConfirmation: 'Confirm password',
    yes: 'Yes',
    english: 'English',
    studentsView: 'Students – View',
    studentsCreate: 'Students – Create',
    studentsUpdate: 'Students – Update',
    studentsDelete: 'Students – Delete',
    allSchools: 'All of Schools',
    companyRefused: 'This company is still used by 1 branch(es). Deactivate the company instead.',
    branchRefused: 'This branch is still used by 1 user(s). Deactivate the branch instead.',
    roleRefused: 'This role is still used by 1 user(s). Move its users to another role first.',
    companyHeader: ['Code', 'Name (English)', 'Name (Chinese)', 'Phone', 'Email', 'BR number', 'Active'],
    branchHeader: ['Code', 'Company', 'Name (English)', 'Name (Chinese)', 'Phone', 'Email', 'Active'],
    roleHeader: [
      'Name',
      'Name (Chinese)',
      'Description',
      'Description (Chinese)',
      'Data scope',
      'Permissions',
    ],
    userHeader: ['Name', 'Email', 'Role', 'Branch', 'Admin', 'Language', 'Active', '2FA', 'Last sign-in'],
  },
  zh_HK: {
    languageName: '繁體中文',
    save: '儲存',
    saved: '已儲存。',
    delete: '刪除',
    edit: '編輯',
    exportXlsx: '匯出 XLSX',
    duplicate: '此資料已存在。',
    companies: '公司',
    newCompany: '新增：公司',
    branches: '分行',
    roles: '角色',
    newRole: '新增：角色',
    users: '使用者',
    code: '編號',
    nameEn: '名稱（英文）',
    nameZh: '名稱（中文）',
    phone: '電話',
    email: '電郵',
    company: '公司',
    name: '名稱',
    description: '描述',
    dataScope: '資料範圍',
    scopeAll: '所有分行',
    permissions: '權限',
    exportedPermissions:
      '學校 – 檢視、學校 – 新增、學校 – 修改、學校 – 刪除、學生 – 檢視、學生 – 新增、學生 – 修改',
    role: '角色',
    branch: '分行',
    language: '語言',
    password: '密碼',
    passwordConfirmation: '確認密碼',
    yes: '是',
    english: '英文',
    studentsView: '學生 – 檢視',
    studentsCreate: '學生 – 新增',
    studentsUpdate: '學生 – 修改',
    studentsDelete: '學生 – 刪除',
    allSchools: '學校全部權限',
    companyRefused: '此公司仍被 1 間分行 使用。請改為停用此公司。',
    branchRefused: '此分行仍被 1 名使用者 使用。請改為停用此分行。',
    roleRefused: '此角色仍被 1 名使用者 使用。請先把其使用者轉到其他角色。',
    companyHeader: ['編號', '名稱（英文）', '名稱（中文）', '電話', '電郵', '商業登記號碼', '啟用'],
    branchHeader: ['編號', '公司', '名稱（英文）', '名稱（中文）', '電話', '電郵', '啟用'],
    roleHeader: ['名稱', '名稱（中文）', '描述', '描述（中文）', '資料範圍', '權限'],
    userHeader: ['姓名', '電郵', '角色', '分行', '管理員', '語言', '啟用', '雙重認證', '最後登入'],
  },
} as const;
type Text = (typeof TEXT)[Lang];

/** The users screen names its name column 姓名 in Chinese (a person), the others 名稱. */
const USER_NAME = { en: 'Name', zh_HK: '姓名' } as const;

const USER_PASSWORD = 'Clerk12345';

/** Waits until an input shows the expected value. */
async function hasValue(input: Locator, expected: string): Promise<void> {
  await input.waitFor();
  const handle = await input.elementHandle();
  await input
    .page()
    .waitForFunction(({ el, v }) => (el as unknown as { value: string }).value === v, {
      el: handle,
      v: expected,
    })
    .catch(async () => {
      throw new Error(`the input should show "${expected}", it shows "${await input.inputValue()}"`);
    });
}

/** Opens the antd Select of a form item, types to narrow its choices and picks the one holding `option`. */
async function choose(page: Page, item: Locator, option: string, typed?: string): Promise<void> {
  await item.locator('.ant-select').click();
  if (typed) {
    await item.getByRole('combobox').fill(typed);
    // a lookup asks the server for the typed text (after a pause): pick from its answer, not from the list
    // shown before it, which is replaced under the pointer
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    for (let tries = 0; ; tries++) {
      const texts = await options.allInnerTexts();
      if (texts.length > 0 && texts.every((text) => text.includes(typed))) break;
      if (tries > 150) throw new Error(`the lookup never answered "${typed}": ${JSON.stringify(texts)}`);
      await page.waitForTimeout(100);
    }
    await options.filter({ hasText: option }).first().waitFor();
  }
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
  await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden' });
}

async function save(page: Page, t: Text): Promise<void> {
  await page.getByRole('button', { name: t.save }).click();
}

/** Saves the form and waits for the list it returns to, and the success message. */
async function saveToList(page: Page, t: Text, listPath: string): Promise<void> {
  await save(page, t);
  await page.waitForURL((url) => url.pathname === listPath);
  await page.getByText(t.saved).first().waitFor();
}

/** Searches the list and waits for the row holding `found` while the row holding `gone` leaves. */
async function search(page: Page, text: string, found: string, gone: string): Promise<void> {
  await searchList(page, text);
  await page.getByRole('row').filter({ hasText: gone }).first().waitFor({ state: 'detached' });
  await rowOf(page, found);
  check((await page.locator('.ant-table-tbody .ant-table-row').count()) === 1, `one row found for "${text}"`);
}

/** The visible column headers of the list. */
async function columnTitles(page: Page): Promise<string[]> {
  await page.locator('.ant-table-thead th').first().waitFor();
  return (await page.locator('.ant-table-thead th').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

/** Opens a row's edit form and returns the record's id from the address. */
async function openEdit(page: Page, t: Text, row: Locator, routePath: string): Promise<number> {
  await row.getByRole('link', { name: new RegExp(t.edit) }).click();
  await page.waitForURL(new RegExp(`${routePath}/\\d+$`));
  return Number(new URL(page.url()).pathname.split('/').pop());
}

/** Deletes a row through its confirmation and waits for the refusal in words. */
async function deleteRefused(page: Page, t: Text, row: Locator, refusal: string): Promise<void> {
  await row.getByRole('button', { name: new RegExp(`^${t.delete} `) }).click();
  await page.getByRole('tooltip').getByRole('button', { name: t.delete }).click();
  await page.getByTestId('resource-notice').getByText(refusal, { exact: true }).waitFor();
  await page.getByRole('tooltip').waitFor({ state: 'hidden' });
}

function same(actual: unknown, expected: unknown, what: string): void {
  check(
    JSON.stringify(actual) === JSON.stringify(expected),
    `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
  );
}

function companiesAndBranches(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const t = TEXT[lang];
  const tag = lang === 'en' ? 'En' : 'Zh';
  const slug = tag.toLowerCase();
  return {
    name: `settings org (${lang}): companies and branches — list, search, create, edit kept after reload, duplicate code, referenced delete refused in words, XLSX export`,
    async run(page) {
      await signInAdmin(page, base, lang);

      // companies: the list in the screen's language, with the demo company
      await page.goto(`${base}/settings/companies`);
      await page.getByRole('heading', { name: t.companies, exact: true }).waitFor();
      await rowOf(page, 'HKSA');
      const companyColumns = await columnTitles(page);
      for (const title of [t.code, t.nameEn, t.nameZh, t.phone, t.email])
        check(companyColumns.includes(title), `the companies list shows "${title}": ${companyColumns}`);

      // create
      const companyCode = `ORG-${tag.toUpperCase()}-${rid}`;
      const companyName = `Org ${tag} ${rid}`;
      const companyNameZh = `機構${tag}${rid}`;
      await clickTo(page, page.getByTestId('resource-create'), /\/settings\/companies\/create$/);
      await page.getByRole('heading', { name: t.newCompany }).waitFor();
      await formItem(page, t.code).locator('input').fill(companyCode);
      await formItem(page, t.nameEn).locator('input').fill(companyName);
      await formItem(page, t.nameZh).locator('input').fill(companyNameZh);
      await formItem(page, t.email).locator('input').fill(`org-${slug}-${rid.toLowerCase()}@example.com`);
      await saveToList(page, t, '/settings/companies');

      // search finds it (and only it); edit the phone and the name, kept after a reload
      await search(page, companyCode, companyCode, 'HKSA');
      const companyId = await openEdit(page, t, await rowOf(page, companyCode), '/settings/companies');
      await formItem(page, t.phone).locator('input').fill('+852 2111 2222');
      await formItem(page, t.nameEn).locator('input').fill(`${companyName} Ltd`);
      await saveToList(page, t, '/settings/companies');
      await page.goto(`${base}/settings/companies/${companyId}`);
      await hasValue(formItem(page, t.phone).locator('input'), '+852 2111 2222');
      await hasValue(formItem(page, t.nameEn).locator('input'), `${companyName} Ltd`);

      // the same code again: refused on the code field, the form stays
      await page.goto(`${base}/settings/companies/create`);
      await formItem(page, t.code).locator('input').fill(companyCode);
      await formItem(page, t.nameEn).locator('input').fill('Copy');
      await formItem(page, t.nameZh).locator('input').fill('副本');
      await save(page, t);
      await formItem(page, t.code).getByText(t.duplicate, { exact: true }).waitFor();
      check(page.url().endsWith('/settings/companies/create'), 'the duplicate stays on the form');

      // branches: the list, with the demo branches
      await page.goto(`${base}/settings/branches`);
      await page.getByRole('heading', { name: t.branches, exact: true }).waitFor();
      await rowOf(page, 'CWB');
      const branchColumns = await columnTitles(page);
      for (const title of [t.code, t.company, t.nameEn, t.nameZh])
        check(branchColumns.includes(title), `the branches list shows "${title}": ${branchColumns}`);

      // a branch of the new company
      const branchCode = `B${tag.toUpperCase()}${rid}`;
      const branchName = `Branch ${tag} ${rid}`;
      await clickTo(page, page.getByTestId('resource-create'), /\/settings\/branches\/create$/);
      await choose(page, formItem(page, t.company), companyCode, companyCode);
      await formItem(page, t.code).locator('input').fill(branchCode);
      await formItem(page, t.nameEn).locator('input').fill(branchName);
      await formItem(page, t.nameZh).locator('input').fill(`分行${tag}${rid}`);
      await saveToList(page, t, '/settings/branches');
      await search(page, branchName, branchCode, 'CWB');
      const companyLabel = lang === 'en' ? `${companyName} Ltd` : companyNameZh;
      // the company by the name the server gives the row (`company_name`), never `#id`
      await (await rowOf(page, branchCode)).getByText(`${companyCode} ${companyLabel}`).waitFor();

      const branchId = await openEdit(page, t, await rowOf(page, branchCode), '/settings/branches');
      await formItem(page, t.phone).locator('input').fill('+852 2333 4444');
      await saveToList(page, t, '/settings/branches');
      await page.goto(`${base}/settings/branches/${branchId}`);
      await hasValue(formItem(page, t.phone).locator('input'), '+852 2333 4444');
      await formItem(page, t.company).getByText(`${companyCode} ${companyLabel}`).waitFor();

      // the same branch code again (typed in lower case: codes are upper case): refused on the code
      await page.goto(`${base}/settings/branches/create`);
      await choose(page, formItem(page, t.company), 'HKSA', 'HKSA');
      await formItem(page, t.code).locator('input').fill(branchCode.toLowerCase());
      await formItem(page, t.nameEn).locator('input').fill('Copy');
      await formItem(page, t.nameZh).locator('input').fill('副本');
      await save(page, t);
      await formItem(page, t.code).getByText(t.duplicate, { exact: true }).waitFor();
      check(page.url().endsWith('/settings/branches/create'), 'the duplicate stays on the form');

      // the company has a branch: its delete is refused, in words
      await page.goto(`${base}/settings/companies?q=${encodeURIComponent(companyCode)}`);
      await deleteRefused(page, t, await rowOf(page, companyCode), t.companyRefused);
      await rowOf(page, companyCode);
      await page.screenshot({ path: outputPath(`org-companies-${lang}.png`), fullPage: true });

      // the branch has a user (made through the API here; the users screen is the other journey's)
      const user = await apiCall(page, 'POST', '/api/users', {
        role_id: await firstId(page, '/api/roles', 'Consultant'),
        name: `Branch User ${tag} ${rid}`,
        email: `branch-user-${slug}-${rid.toLowerCase()}@example.com`,
        branch_id: branchId,
        password: USER_PASSWORD,
        password_confirmation: USER_PASSWORD,
      });
      check(user.status === 201, `POST /api/users should answer 201, got ${user.status}: ${user.body}`);
      await page.goto(`${base}/settings/branches?q=${encodeURIComponent(branchCode)}`);
      await deleteRefused(page, t, await rowOf(page, branchCode), t.branchRefused);
      await page.screenshot({ path: outputPath(`org-branches-${lang}.png`), fullPage: true });

      // the exports of the current search: the header in the screen's language, the record's row
      const branchRows = await exportedRows(page, t.exportXlsx);
      same(branchRows[0] ?? [], t.branchHeader, 'the branches export header');
      same(
        branchRows.slice(1),
        [
          [
            branchCode,
            `${companyCode} ${companyLabel}`,
            branchName,
            `分行${tag}${rid}`,
            '+852 2333 4444',
            '',
            t.yes,
          ],
        ],
        'the branches export rows',
      );
      await page.goto(`${base}/settings/companies?q=${encodeURIComponent(companyCode)}`);
      await rowOf(page, companyCode);
      const companyRows = await exportedRows(page, t.exportXlsx);
      same(companyRows[0] ?? [], t.companyHeader, 'the companies export header');
      same(
        companyRows.slice(1),
        [
          [
            companyCode,
            `${companyName} Ltd`,
            companyNameZh,
            '+852 2111 2222',
            `org-${slug}-${rid.toLowerCase()}@example.com`,
            '',
            t.yes,
          ],
        ],
        'the companies export rows',
      );
    },
  };
}

function rolesAndUsers(main: RunningServer, lang: Lang, rid: string): Journey {
  const base = main.staffUrl;
  const t = TEXT[lang];
  const tag = lang === 'en' ? 'En' : 'Zh';
  const slug = tag.toLowerCase();
  return {
    name: `settings org (${lang}): roles (permission grid) and users — list, search, create, edit kept after reload, duplicate name and email, role in use refused in words, XLSX export`,
    async run(page) {
      await signInAdmin(page, base, lang);

      // roles: the list with the demo roles
      await page.goto(`${base}/settings/roles`);
      await page.getByRole('heading', { name: t.roles, exact: true }).waitFor();
      // the seeded roles have their Chinese names (the users list and pickers show them in zh_HK)
      await (await rowOf(page, 'Consultant')).getByText('顧問', { exact: true }).waitFor();
      const roleColumns = await columnTitles(page);
      for (const title of [t.name, t.description, t.dataScope])
        check(roleColumns.includes(title), `the roles list shows "${title}": ${roleColumns}`);

      // a role: data scope and a few keys of the grid (one module whole)
      const roleName = `Org Role ${tag} ${rid}`;
      const roleNameZh = `機構角色${tag}${rid}`;
      // the role as the screens name it: in Chinese in zh_HK
      const roleShown = lang === 'en' ? roleName : roleNameZh;
      await clickTo(page, page.getByTestId('resource-create'), /\/settings\/roles\/create$/);
      await page.getByRole('heading', { name: t.newRole }).waitFor();
      await formItem(page, t.name).locator('input').fill(roleName);
      await formItem(page, t.nameZh).locator('input').fill(roleNameZh);
      await formItem(page, t.description).locator('input').fill('Front desk');
      await choose(page, formItem(page, t.dataScope), t.scopeAll);
      const grid = page.getByTestId('role-grid');
      await grid.getByLabel(t.studentsView, { exact: true }).check();
      await grid.getByLabel(t.studentsCreate, { exact: true }).check();
      await grid.getByLabel(t.allSchools, { exact: true }).check();
      await saveToList(page, t, '/settings/roles');
      await search(page, roleName, roleName, 'Consultant');
      const roleRow = await rowOf(page, roleName);
      await roleRow.getByText(t.scopeAll, { exact: true }).waitFor();
      await roleRow.getByRole('cell', { name: '6', exact: true }).waitFor();

      // edit: one more key and the description; after a reload the grid holds what was saved
      const roleId = await openEdit(page, t, roleRow, '/settings/roles');
      check(await grid.getByLabel(t.studentsView, { exact: true }).isChecked(), 'Students – View kept');
      check(
        !(await grid.getByLabel(t.studentsUpdate, { exact: true }).isChecked()),
        'Students – Update not given yet',
      );
      await grid.getByLabel(t.studentsUpdate, { exact: true }).check();
      await formItem(page, t.description).locator('input').fill('Front desk and enrolment');
      await saveToList(page, t, '/settings/roles');
      await page.goto(`${base}/settings/roles/${roleId}`);
      await hasValue(formItem(page, t.description).locator('input'), 'Front desk and enrolment');
      await grid.getByLabel(t.studentsUpdate, { exact: true }).waitFor();
      check(await grid.getByLabel(t.studentsUpdate, { exact: true }).isChecked(), 'Students – Update saved');
      check(
        !(await grid.getByLabel(t.studentsDelete, { exact: true }).isChecked()),
        'Students – Delete never given',
      );
      await page.screenshot({ path: outputPath(`org-roles-${lang}.png`), fullPage: true });

      // the same name again: refused on the name
      await page.goto(`${base}/settings/roles/create`);
      await formItem(page, t.name).locator('input').fill(roleName);
      await choose(page, formItem(page, t.dataScope), t.scopeAll);
      await save(page, t);
      await formItem(page, t.name).getByText(t.duplicate, { exact: true }).waitFor();
      check(page.url().endsWith('/settings/roles/create'), 'the duplicate stays on the form');

      // users: the list with the demo admin
      await page.goto(`${base}/settings/users`);
      await page.getByRole('heading', { name: t.users, exact: true }).waitFor();
      await rowOf(page, ADMIN.email);
      const userColumns = await columnTitles(page);
      for (const title of [USER_NAME[lang], t.email, t.role, t.branch])
        check(userColumns.includes(title), `the users list shows "${title}": ${userColumns}`);

      // a user with the new role in the Causeway Bay branch
      const userName = `Org User ${tag} ${rid}`;
      const email = `org-user-${slug}-${rid.toLowerCase()}@example.com`;
      await clickTo(page, page.getByTestId('resource-create'), /\/settings\/users\/create$/);
      await formItem(page, USER_NAME[lang]).locator('input').fill(userName);
      await formItem(page, t.email).locator('input').fill(email);
      await choose(page, formItem(page, t.role), roleShown, roleShown);
      await choose(page, formItem(page, t.branch), 'CWB', 'CWB');
      await choose(page, formItem(page, t.language), t.english);
      await formItem(page, t.password).locator('input').fill(USER_PASSWORD);
      await formItem(page, t.passwordConfirmation).locator('input').fill(USER_PASSWORD);
      await saveToList(page, t, '/settings/users');
      await search(page, email, email, ADMIN.email);
      const userRow = await rowOf(page, email);
      await userRow.getByText(roleShown, { exact: true }).waitFor();
      await userRow.getByText(lang === 'en' ? 'CWB Causeway Bay' : 'CWB 銅鑼灣', { exact: true }).waitFor();

      // edit the name, kept after a reload (a fresh load of the record's address)
      const userId = await openEdit(page, t, userRow, '/settings/users');
      await formItem(page, USER_NAME[lang]).locator('input').fill(`${userName} Edited`);
      await saveToList(page, t, '/settings/users');
      await page.goto(`${base}/settings/users/${userId}`);
      await hasValue(formItem(page, USER_NAME[lang]).locator('input'), `${userName} Edited`);
      await formItem(page, t.role).getByText(roleShown, { exact: true }).waitFor();

      // the same email again (another case): refused on the email
      await page.goto(`${base}/settings/users/create`);
      await formItem(page, USER_NAME[lang]).locator('input').fill('Someone Else');
      await formItem(page, t.email).locator('input').fill(email.toUpperCase());
      await formItem(page, t.password).locator('input').fill(USER_PASSWORD);
      await formItem(page, t.passwordConfirmation).locator('input').fill(USER_PASSWORD);
      // without a role and branch the form refuses before sending: both marked required
      await save(page, t);
      for (const label of [t.role, t.branch])
        await formItem(page, label).locator('.ant-form-item-explain-error').first().waitFor();
      check(
        (await page.locator('.ant-form-item-required').filter({ hasText: t.role }).count()) > 0,
        'the role is marked required',
      );
      await choose(page, formItem(page, t.role), roleShown, roleShown);
      await choose(page, formItem(page, t.branch), 'CWB', 'CWB');
      await save(page, t);
      await formItem(page, t.email).getByText(t.duplicate, { exact: true }).waitFor();
      check(page.url().endsWith('/settings/users/create'), 'the duplicate stays on the form');

      // the role has a user: its delete is refused, in words
      await page.goto(`${base}/settings/roles?q=${encodeURIComponent(roleName)}`);
      await deleteRefused(page, t, await rowOf(page, roleName), t.roleRefused);
      const roleRows = await exportedRows(page, t.exportXlsx);
      same(roleRows[0] ?? [], t.roleHeader, 'the roles export header');
      same(
        roleRows.slice(1),
        [
          [
            roleName,
            roleNameZh,
            'Front desk and enrolment',
            // no Chinese description typed
            '',
            // the scope by its name in the export's language, as the screen shows it
            t.scopeAll,
            // each permission by its name, as the role grid says it
            t.exportedPermissions,
          ],
        ],
        'the roles export rows',
      );

      // the users export of the search
      await page.goto(`${base}/settings/users?q=${encodeURIComponent(email)}`);
      await rowOf(page, email);
      await page.screenshot({ path: outputPath(`org-users-${lang}.png`), fullPage: true });
      const userRows = await exportedRows(page, t.exportXlsx);
      same(userRows[0] ?? [], t.userHeader, 'the users export header');
      check(userRows.length === 2, `one user exported: ${JSON.stringify(userRows)}`);
      const [name, mail, role, branch, admin, language, active] = userRows[1];
      check(
        name === `${userName} Edited` &&
          mail === email &&
          role === roleShown &&
          branch === (lang === 'en' ? 'CWB Causeway Bay' : 'CWB 銅鑼灣'),
        `the users export row: ${JSON.stringify(userRows[1])}`,
      );
      check(
        admin === (lang === 'en' ? 'No' : '否') &&
          language === (lang === 'en' ? 'English' : '英文') &&
          active === t.yes,
        `the users export's yes/no and language in the screen's language: ${JSON.stringify(userRows[1])}`,
      );
    },
  };
}

export function settingsOrgJourneys(main: RunningServer): Journey[] {
  // unique per run: codes and names never meet an earlier run's records on a shared server
  const rid = Date.now().toString(36).slice(-4).toUpperCase();
  return (['en', 'zh_HK'] as const).flatMap((lang) => [
    companiesAndBranches(main, lang, rid),
    rolesAndUsers(main, lang, rid),
  ]);
}

import type { Page } from 'playwright-core';
import speakeasy from 'speakeasy';
import { ADMIN, apiCall, rowOf, switchLanguage, until } from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Accounts and access (issue 4), in each language: an admin creates a role with a few permissions and a
 * user in it; that user signs in, sees only those menus, is refused a screen outside them, enables 2FA by
 * reading the secret (the code computed here, as the phone would), signs out and back in through the
 * challenge, creates an API token and calls the API with it.
 */

const PASSWORD = 'Clerk12345';

const LABELS = {
  en: {
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    name: 'Name',
    roleName: 'Name',
    language: 'Language',
    languageName: 'English',
    role: 'Role',
    branch: 'Branch',
    confirmPassword: 'Confirm password',
    save: 'Save',
    companiesView: 'Companies – View',
    branchesView: 'Branches – View',
    companies: 'Companies',
    branches: 'Branches',
    users: 'Users',
    roles: 'Roles',
    enable2fa: 'Enable',
    code: 'Code',
    confirm: 'Confirm',
    create: 'Create',
  },
  zh_HK: {
    email: '電郵',
    password: '密碼',
    signIn: '登入',
    name: '姓名',
    roleName: '名稱',
    language: '語言',
    languageName: '繁體中文',
    role: '角色',
    branch: '分行',
    confirmPassword: '確認密碼',
    save: '儲存',
    companiesView: '公司 – 檢視',
    branchesView: '分行 – 檢視',
    companies: '公司',
    branches: '分行',
    users: '使用者',
    roles: '角色',
    enable2fa: '啟用',
    code: '驗證碼',
    confirm: '確認',
    create: '新增',
  },
} as const;
type Language = keyof typeof LABELS;

export async function signIn(page: Page, base: string, language: Language, email: string, password: string) {
  const l = LABELS[language];
  await page.goto(`${base}/login?language=${language}`);
  await page.getByLabel(l.email).fill(email);
  await page.getByLabel(l.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: l.signIn, exact: true }).click();
}

/** Picks an option of the open antd Select: the one with this label, or the first. */
async function chooseOption(page: Page, label?: string) {
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await (label ? options.filter({ hasText: label }).first() : options.first()).click();
  // the list closes with an animation: the next Select's list is the only one open after it
  await until(page, 'the list closed', () => page.locator('.ant-select-dropdown:visible').count(), 0);
}

export async function signOut(page: Page, base: string) {
  await page.goto(`${base}/logout`);
  await page.waitForURL((url) => url.pathname === '/login');
}

/** Answers the password-confirmation modal when the server asks for it (a fresh session always does). */
export async function confirmPasswordIfAsked(page: Page, password: string, language: Language) {
  const modal = page.getByRole('dialog').filter({ has: page.getByTestId('confirm-password-submit') });
  const asked = await modal
    .waitFor({ timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (!asked) return;
  const input = modal.getByLabel(LABELS[language].password);
  await input.fill(password);
  await input.press('Enter');
  // on a loaded machine the first submit may land while the dialog is still opening: submit once more
  const closed = await modal
    .waitFor({ state: 'hidden', timeout: 8_000 })
    .then(() => true)
    .catch(() => false);
  if (!closed) {
    await page.getByTestId('confirm-password-submit').click();
    await modal.waitFor({ state: 'hidden' });
  }
}

export async function menuLabels(page: Page): Promise<string[]> {
  const menu = page.getByTestId('left-menu');
  // open every group so that its entries are in the page
  const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let i = 0; i < 10 && (await closed.count()) > 0; i++) {
    await closed.first().click();
    await page.waitForTimeout(300);
  }
  return (await menu.locator('.ant-menu-item').allInnerTexts()).map((s) => s.trim());
}

export function totp(secret: string, offsetSeconds = 0): string {
  return speakeasy.totp({
    secret,
    encoding: 'base32',
    time: Math.floor(Date.now() / 1000) + offsetSeconds,
  });
}

function accountsJourney(main: RunningServer, language: Language): Journey {
  const base = main.staffUrl;
  const l = LABELS[language];
  const tag = language === 'en' ? 'en' : 'zh';
  const roleName = `Front desk ${tag}`;
  const email = `frontdesk-${tag}@example.com`;
  return {
    name: `accounts (${language}): role and user by the admin; the user sees only their menus, enables 2FA, signs in through the challenge, calls the API with a token`,
    async run(page) {
      // 1. the admin creates a role with two permissions …
      await signIn(page, base, language, ADMIN.email, ADMIN.password);
      await page.getByTestId('user-menu').waitFor();
      await switchLanguage(page, language);
      await page.goto(`${base}/settings/roles/create`);
      const roleForm = page.getByTestId('resource-form-role');
      await roleForm.getByLabel(l.roleName, { exact: true }).fill(roleName);
      await page.getByLabel(l.companiesView).check();
      await page.getByLabel(l.branchesView).check();
      await page.screenshot({ path: outputPath(`accounts-${tag}-1-role-grid.png`), fullPage: true });
      await roleForm.getByRole('button', { name: l.save }).click();
      await page.waitForURL((url) => url.pathname === '/settings/roles');
      await page.getByText(roleName).waitFor();

      // … and a user in it
      await page.goto(`${base}/settings/users/create`);
      const userForm = page.getByTestId('resource-form-user');
      await userForm.getByLabel(l.name, { exact: true }).fill(`Front Desk ${tag}`);
      await userForm.getByLabel(l.email, { exact: true }).fill(email);
      // the role is looked up as one types (`GET /api/roles/lookup?q=`)
      await userForm.getByLabel(l.role, { exact: true }).click();
      await userForm.getByLabel(l.role, { exact: true }).fill(roleName);
      await chooseOption(page, roleName);
      await userForm.getByLabel(l.branch, { exact: true }).click();
      await chooseOption(page);
      await userForm.getByLabel(l.language, { exact: true }).click();
      await chooseOption(page, l.languageName);
      await userForm.getByLabel(l.password, { exact: true }).fill(PASSWORD);
      await userForm.getByLabel(l.confirmPassword, { exact: true }).fill(PASSWORD);
      await page.screenshot({ path: outputPath(`accounts-${tag}-2-user-form.png`), fullPage: true });
      await userForm.getByRole('button', { name: l.save }).click();
      await page.waitForURL((url) => url.pathname === '/settings/users');
      await page.getByText(email).waitFor();
      await signOut(page, base);

      // 2. the user signs in and sees only the menus of the role
      await signIn(page, base, language, email, PASSWORD);
      await page.getByTestId('user-menu').waitFor();
      await page.goto(`${base}/home`);
      await page.getByTestId('home-links').waitFor();
      const labels = await menuLabels(page);
      check(
        labels.includes(l.companies) && labels.includes(l.branches),
        `menu should hold companies and branches: ${labels}`,
      );
      check(
        !labels.includes(l.users) && !labels.includes(l.roles),
        `menu should not hold users or roles: ${labels}`,
      );
      await page.screenshot({ path: outputPath(`accounts-${tag}-3-restricted-menu.png`), fullPage: true });
      // a direct visit outside the role answers the permission-denied page
      await page.goto(`${base}/settings/users`);
      await page.waitForURL((url) => url.pathname === '/error-403');

      // 3. two-factor authentication: read the secret, answer with the code the phone would show
      await page.goto(`${base}/user/profile`);
      const twoFactor = page.getByTestId('two-factor-section');
      await twoFactor.getByRole('button', { name: l.enable2fa, exact: true }).click();
      await confirmPasswordIfAsked(page, PASSWORD, language);
      const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
      check(/^[A-Z2-7]{16,}$/.test(secret), `a base32 secret should be shown: ${secret}`);
      check(await page.getByTestId('two-factor-qr').isVisible(), 'the QR code should be shown');
      await twoFactor.getByLabel(l.code).fill(totp(secret));
      await twoFactor.getByRole('button', { name: l.confirm, exact: true }).click();
      const codes = (await page.getByTestId('recovery-codes').innerText())
        .split('\n')
        .filter((s) => s.trim());
      check(codes.length === 8, `8 recovery codes should be shown, got ${codes.length}`);
      await page.screenshot({ path: outputPath(`accounts-${tag}-4-two-factor-on.png`), fullPage: true });
      await signOut(page, base);

      // 4. back in through the challenge (a code works once: the next time-step's code, inside the window)
      await signIn(page, base, language, email, PASSWORD);
      await page.waitForURL((url) => url.pathname === '/two-factor-challenge');
      await page.getByLabel(l.code).fill(totp(secret, 30));
      await page.getByRole('button', { name: l.confirm, exact: true }).click();
      await page.getByTestId('user-menu').waitFor();

      // 5. an API token with one ability, shown once, then used as a bearer token
      await page.goto(`${base}/user/api-tokens`);
      await page.getByLabel(l.roleName, { exact: true }).fill(`script-${tag}`);
      await page.locator('form#create-api-token [data-ability="companies.view"]').click();
      await page.getByRole('button', { name: l.create, exact: true }).click();
      await confirmPasswordIfAsked(page, PASSWORD, language);
      const token = (await page.getByTestId('api-token-plain').innerText()).trim();
      check(token.startsWith('sa_'), 'the plain token should be shown once');
      await page.screenshot({ path: outputPath(`accounts-${tag}-5-api-token.png`), fullPage: true });

      const call = (path: string) =>
        fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const companies = await call('/api/companies');
      check(
        companies.status === 200,
        `GET /api/companies with the token should answer 200, got ${companies.status}`,
      );
      const body = (await companies.json()) as { items: unknown[] };
      check(Array.isArray(body.items) && body.items.length > 0, 'the token should list the companies');
      const branches = await call('/api/branches');
      check(branches.status === 403, `an ability the token lacks should answer 403, got ${branches.status}`);
      const users = await call('/api/users');
      check(users.status === 403, `a permission the user lacks should answer 403, got ${users.status}`);
    },
  };
}

/**
 * A read-only staff user (a role with only `branches.view` and `users.view`) sees the related records by name —
 * each branch's company, each user's role and branch — as the server names them on the rows, never `#id`.
 */
function readOnlyNamesJourney(main: RunningServer, language: Language): Journey {
  const base = main.staffUrl;
  const l = LABELS[language];
  const tag = `${language === 'en' ? 'en' : 'zh'}${Date.now().toString(36).slice(-4)}`;
  const email = `viewer-${tag}@example.com`;
  const roleName = `Viewer ${tag}`;
  return {
    name: `accounts (${language}): a read-only staff user sees company, role and branch names in the lists, never #id`,
    async run(page) {
      await signIn(page, base, language, ADMIN.email, ADMIN.password);
      await page.getByTestId('user-menu').waitFor();
      const role = await apiCall(page, 'POST', '/api/roles', {
        name: roleName,
        data_scope: 'all',
        permissions: ['branches.view', 'users.view'],
      });
      check(role.status === 201, `POST /api/roles should answer 201, got ${role.status}: ${role.body}`);
      const branches = JSON.parse((await apiCall(page, 'GET', '/api/branches?q=CWB')).body) as {
        items: { id: number; code: string }[];
      };
      const cwb = branches.items.find((b) => b.code === 'CWB')!;
      const user = await apiCall(page, 'POST', '/api/users', {
        name: `Read-only ${tag}`,
        email,
        role_id: (JSON.parse(role.body) as { id: number }).id,
        branch_id: cwb.id,
        language,
        password: PASSWORD,
        password_confirmation: PASSWORD,
      });
      check(user.status === 201, `POST /api/users should answer 201, got ${user.status}: ${user.body}`);
      await signOut(page, base);

      await signIn(page, base, language, email, PASSWORD);
      await page.getByTestId('user-menu').waitFor();
      // the branches: the demo branch's company by its code and name
      await page.goto(`${base}/settings/branches`);
      const branchRow = await rowOf(page, 'CWB');
      await branchRow.getByText(/^HKSA \S/).waitFor();
      check(
        !/#\d/.test(await branchRow.innerText()),
        `no #id in the branch row: ${await branchRow.innerText()}`,
      );
      // the users: the viewer's own row names its role and branch
      await page.goto(`${base}/settings/users?q=${encodeURIComponent(email)}`);
      const userRow = await rowOf(page, email);
      await userRow.getByText(roleName, { exact: true }).waitFor();
      await userRow
        .getByText(language === 'en' ? 'CWB Causeway Bay' : 'CWB 銅鑼灣', { exact: true })
        .waitFor();
      check(!/#\d/.test(await userRow.innerText()), `no #id in the user row: ${await userRow.innerText()}`);
      check(
        (await page.getByRole('columnheader', { name: l.role, exact: true }).count()) === 1,
        'the users list has its role column',
      );
      await page.screenshot({
        path: outputPath(`accounts-${tag.slice(0, 2)}-read-only-names.png`),
        fullPage: true,
      });
      await signOut(page, base);
    },
  };
}

export function accountJourneys(main: RunningServer): Journey[] {
  return [
    accountsJourney(main, 'en'),
    accountsJourney(main, 'zh_HK'),
    readOnlyNamesJourney(main, 'en'),
    readOnlyNamesJourney(main, 'zh_HK'),
  ];
}

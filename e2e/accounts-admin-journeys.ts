import type { Page } from 'playwright-core';
import { menuLabels, signIn, signOut, totp } from './accounts-journeys';
import { ADMIN, answerConfirmed, answerOf, apiCall, firstId, switchLanguage } from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * The admin side of staff accounts (issue 4), in each language: the admin switches the API-tokens feature
 * off on Settings → security and features (its menu entry, its page and its API go at once) and on again;
 * sets a user's password on the user's page and resets their 2FA (enrolled through the API with a code
 * computed here), after which the user signs in with the new password and no challenge; and is refused
 * when taking the admin flag from the last admin.
 */

const FIRST_PASSWORD = 'Clerk12345';
const NEW_PASSWORD = 'Reset2Start';

const LABELS = {
  en: {
    apiTokens: 'API tokens',
    save: 'Save',
    saved: 'Saved.',
    securityMenu: 'Security and features',
    tab: 'Password and 2FA',
    on: 'Enabled',
    off: 'Not enabled',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
    setPassword: 'Set password',
    passwordSet: 'The new password is set.',
    reset: 'Reset two-factor authentication',
    wasReset: 'Two-factor authentication is reset.',
    isAdmin: 'Admin',
    lastAdmin: 'The last active admin must stay an admin: make another user an admin first.',
  },
  zh_HK: {
    apiTokens: 'API 權杖',
    save: '儲存',
    saved: '已儲存。',
    securityMenu: '安全及功能',
    tab: '密碼及雙重認證',
    on: '已啟用',
    off: '未啟用',
    newPassword: '新密碼',
    confirmNewPassword: '確認新密碼',
    setPassword: '設定密碼',
    passwordSet: '已設定新密碼。',
    reset: '重設雙重認證',
    wasReset: '已重設雙重認證。',
    isAdmin: '管理員',
    lastAdmin: '最後一位啟用中的管理員必須保留管理員身分：請先把另一位使用者設為管理員。',
  },
} as const;
type Language = keyof typeof LABELS;

/** A signed-in API caller outside the browser (the user's own device): its cookie and CSRF token. */
class ApiSession {
  private cookies = new Map<string, string>();
  private token = '';

  constructor(private readonly base: string) {}

  async call(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (this.token) headers['x-csrf-token'] = this.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return res;
  }

  async expect(status: number, method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await this.call(method, path, body);
    const text = await res.text();
    check(res.status === status, `${method} ${path} should answer ${status}, got ${res.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  }

  async refreshToken(): Promise<void> {
    this.token = ((await this.expect(200, 'GET', '/api/csrf-token')) as { token: string }).token;
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.refreshToken();
    await this.expect(200, 'POST', '/api/login', { email, password });
    await this.refreshToken();
  }
}

async function setApiTokens(page: Page, base: string, language: Language, on: boolean) {
  const l = LABELS[language];
  await page.goto(`${base}/settings/security`);
  const form = page.getByTestId('security-settings-form');
  const toggle = form.getByRole('switch', { name: l.apiTokens, exact: true });
  check(
    (await toggle.getAttribute('aria-checked')) === String(!on),
    `the API-tokens switch should start ${on ? 'off' : 'on'}`,
  );
  await toggle.click();
  // a security setting: the first save asks for the admin's password, then runs again
  const saved = await answerConfirmed(
    page,
    'PUT',
    '/api/settings/accounts',
    () => form.getByRole('button', { name: l.save }).click(),
    language,
  );
  check(saved.status() === 200, `the security settings saved: ${saved.status()} ${await saved.text()}`);
  await page.getByText(l.saved, { exact: true }).first().waitFor();
  check((await toggle.getAttribute('aria-checked')) === String(on), 'the switch should show the saved value');
}

function adminJourney(main: RunningServer, language: Language): Journey {
  const base = main.staffUrl;
  const l = LABELS[language];
  const tag = language === 'en' ? 'en' : 'zh';
  const email = `lost-device-${tag}@example.com`;
  return {
    name: `accounts admin (${language}): API tokens switched off and on, a user's password set and 2FA reset (the user signs in with it, no challenge), the last admin kept`,
    async run(page) {
      await signIn(page, base, language, ADMIN.email, ADMIN.password);
      await page.getByTestId('user-menu').waitFor();
      await switchLanguage(page, language);

      // 1. the API-tokens feature off: its menu entry goes without a reload, its page and its API answer 404
      const before = await menuLabels(page);
      check(before.includes(l.securityMenu), `the settings menu should hold the new screen: ${before}`);
      check(before.includes(l.apiTokens), `the menu should hold API tokens first: ${before}`);
      await setApiTokens(page, base, language, false);
      const without = await menuLabels(page);
      check(!without.includes(l.apiTokens), `API tokens should leave the menu at once: ${without}`);
      await page.screenshot({
        path: outputPath(`accounts-admin-${tag}-1-api-tokens-off.png`),
        fullPage: true,
      });
      const offApi = await apiCall(page, 'GET', '/api/user/api-tokens');
      check(offApi.status === 404, `GET /api/user/api-tokens should answer 404, got ${offApi.status}`);
      await page.goto(`${base}/user/api-tokens`);
      await page.waitForURL((url) => url.pathname === '/error-404');

      // … and on again
      await setApiTokens(page, base, language, true);
      const again = await menuLabels(page);
      check(again.includes(l.apiTokens), `API tokens should be back in the menu: ${again}`);
      const onApi = await apiCall(page, 'GET', '/api/user/api-tokens');
      check(onApi.status === 200, `GET /api/user/api-tokens should answer 200 again, got ${onApi.status}`);

      // 2. a user who enrolled 2FA on their phone (the API here, the code computed as the phone would)
      const created = await apiCall(page, 'POST', '/api/users', {
        role_id: await firstId(page, '/api/roles', 'Consultant'),
        branch_id: await firstId(page, '/api/branches', 'MK'),
        name: `Lost Device ${tag}`,
        email,
        password: FIRST_PASSWORD,
        password_confirmation: FIRST_PASSWORD,
        language: 'en',
      });
      check(created.status === 201, `the user should be created, got ${created.status}`);
      const userId = (JSON.parse(created.body) as { id: number }).id;
      const phone = new ApiSession(base);
      await phone.signIn(email, FIRST_PASSWORD);
      await phone.expect(200, 'POST', '/api/user/confirm-password', { password: FIRST_PASSWORD });
      const { secret } = (await phone.expect(200, 'POST', '/api/user/two-factor-authentication')) as {
        secret: string;
      };
      await phone.expect(200, 'POST', '/api/user/confirmed-two-factor-authentication', {
        code: totp(secret),
      });

      // 3. the admin sets a new password and resets the 2FA on the user's page
      await page.goto(`${base}/settings/users/${userId}`);
      await page.getByRole('tab', { name: l.tab }).click();
      const twoFactor = page.getByTestId('user-two-factor-section');
      await twoFactor.getByText(l.on, { exact: true }).waitFor();
      const password = page.getByTestId('user-password-section');
      await password.getByLabel(l.newPassword, { exact: true }).fill(NEW_PASSWORD);
      await password.getByLabel(l.confirmNewPassword, { exact: true }).fill(NEW_PASSWORD);
      await password.getByRole('button', { name: l.setPassword }).click();
      await page.getByText(l.passwordSet).first().waitFor();
      const ended = await phone.call('GET', '/api/user');
      check(ended.status === 401, `the user's other session should have ended, got ${ended.status}`);

      await twoFactor.getByTestId('reset-two-factor').click();
      await page.getByRole('tooltip').getByRole('button', { name: l.reset }).click();
      await page.getByText(l.wasReset).first().waitFor();
      await twoFactor.getByTestId('reset-two-factor').waitFor({ state: 'detached' });
      await twoFactor.getByText(l.off, { exact: true }).waitFor();
      await page.screenshot({ path: outputPath(`accounts-admin-${tag}-2-user-reset.png`), fullPage: true });
      await signOut(page, base);

      // 4. the user signs in with the new password, without the challenge
      await signIn(page, base, language, email, NEW_PASSWORD);
      await page.getByTestId('user-menu').waitFor();
      check(
        new URL(page.url()).pathname !== '/two-factor-challenge',
        'no two-factor challenge should be asked after the reset',
      );
      await signOut(page, base);

      // 5. the last admin keeps the admin flag: the refusal is shown on the switch
      await signIn(page, base, language, ADMIN.email, ADMIN.password);
      await page.getByTestId('user-menu').waitFor();
      await switchLanguage(page, language);
      const me = JSON.parse((await apiCall(page, 'GET', '/api/user')).body) as {
        user: { id: number };
      };
      await page.goto(`${base}/settings/users/${me.user.id}`);
      const form = page.getByTestId('resource-form-user');
      const isAdmin = form.getByRole('switch', { name: l.isAdmin, exact: true });
      check((await isAdmin.getAttribute('aria-checked')) === 'true', 'the admin should be shown as admin');
      await isAdmin.click();
      await form.getByRole('button', { name: l.save }).click();
      await form.getByText(l.lastAdmin).waitFor();
      await page.screenshot({ path: outputPath(`accounts-admin-${tag}-3-last-admin.png`), fullPage: true });
      const still = JSON.parse((await apiCall(page, 'GET', `/api/users/${me.user.id}`)).body) as {
        is_admin: boolean;
      };
      check(still.is_admin === true, 'the last admin should still be an admin');
    },
  };
}

const MANAGER_TEXT = {
  en: {
    users: 'Users',
    view: 'View',
    edit: 'Edit',
    delete: 'Delete',
    name: 'Name',
    save: 'Save',
    stronger: 'You cannot change an account that has more rights than yours.',
    readOnly: 'It is shown read-only. Ask an admin if it needs a change.',
    email: 'Email',
    currentPassword: 'Current password',
    wrongPassword: 'The provided password does not match your current password.',
  },
  zh_HK: {
    users: '使用者',
    view: '檢視',
    edit: '編輯',
    delete: '刪除',
    name: '姓名',
    save: '儲存',
    stronger: '您不可更改權限比您多的帳戶。',
    readOnly: '此紀錄只供檢視。如需更改，請聯絡管理員。',
    email: '電郵',
    currentPassword: '目前密碼',
    wrongPassword: '輸入的密碼與您目前的密碼不符。',
  },
} as const;

/**
 * The access rules on the users screen, as someone who manages users but is no admin sees them: the admin's
 * account is listed with "View" and a disabled delete that says why; its page is read-only with the reason;
 * and a delete the server refuses because the account became an admin meanwhile is explained in words, the
 * list staying where it is. Then the manager changes their own email address on the profile, where the current
 * password is asked for (a wrong one refused on its field).
 */
function managerJourney(main: RunningServer, language: Language): Journey {
  const base = main.staffUrl;
  const t = MANAGER_TEXT[language];
  const tag = language === 'en' ? 'en' : 'zh';
  const rid = Date.now().toString(36).slice(-4);
  const managerEmail = `users-manager-${tag}-${rid}@example.com`;
  const targetEmail = `promoted-${tag}-${rid}@example.com`;
  return {
    name: `access rules (${language}): a users manager sees the admin's account read-only with the reason, and a delete refused (the account became an admin meanwhile) explained in words; their own email changed on the profile with the current password`,
    async run(page) {
      // the admin (a session of its own, as another person at another desk) sets the scene
      const admin = new ApiSession(base);
      await admin.signIn(ADMIN.email, ADMIN.password);
      const role = (await admin.expect(201, 'POST', '/api/roles', {
        name: `Users manager ${tag} ${rid}`,
        data_scope: 'all',
        permissions: ['users.view', 'users.create', 'users.update', 'users.delete'],
      })) as { id: number };
      const mk = (
        (await admin.expect(200, 'GET', '/api/branches?q=MK&per_page=1')) as { items: { id: number }[] }
      ).items[0].id;
      await admin.expect(201, 'POST', '/api/users', {
        branch_id: mk,
        name: `Users Manager ${tag}`,
        email: managerEmail,
        password: FIRST_PASSWORD,
        password_confirmation: FIRST_PASSWORD,
        role_id: role.id,
        language,
      });
      const target = (await admin.expect(201, 'POST', '/api/users', {
        role_id: role.id,
        branch_id: mk,
        name: `Promoted ${tag} ${rid}`,
        email: targetEmail,
        password: FIRST_PASSWORD,
        password_confirmation: FIRST_PASSWORD,
        language,
      })) as { id: number };
      try {
        await signIn(page, base, language, managerEmail, FIRST_PASSWORD);
        await page.getByTestId('user-menu').waitFor();
        await switchLanguage(page, language);

        // 1. the admin's account in the list: "View", and a delete that is disabled and says why
        await page.goto(`${base}/settings/users?q=${encodeURIComponent(ADMIN.email)}`);
        await page.getByRole('heading', { name: t.users, exact: true }).waitFor();
        const adminRow = page.locator('.ant-table-tbody .ant-table-row').filter({ hasText: ADMIN.email });
        await adminRow.waitFor();
        check(
          (await adminRow.getByRole('link', { name: new RegExp(`^${t.edit}`) }).count()) === 0,
          'no edit link on the admin account',
        );
        const refusedDelete = adminRow.getByTestId('resource-delete-refused');
        check(await refusedDelete.getByRole('button').isDisabled(), 'the delete of the admin is disabled');
        await refusedDelete.hover();
        const tip = page.getByRole('tooltip').filter({ hasText: t.stronger });
        await tip.waitFor();
        await page.screenshot({ path: outputPath(`access-rules-${tag}-1-list.png`), fullPage: true });

        // 2. its page: read-only, saying why
        await adminRow.getByRole('link', { name: new RegExp(`^${t.view}`) }).click();
        await page.waitForURL(/\/settings\/users\/\d+$/);
        const note = page.getByTestId('resource-read-only');
        await note.getByText(t.stronger, { exact: true }).waitFor();
        await note.getByText(t.readOnly, { exact: true }).waitFor();
        const form = page.getByTestId('resource-form-user');
        check(await form.getByLabel(t.name, { exact: true }).isDisabled(), 'the name cannot be typed in');
        check((await form.getByRole('button', { name: t.save }).count()) === 0, 'no save button');
        check((await form.getByRole('button', { name: t.delete }).count()) === 0, 'no delete button');
        check(
          new URL(page.url()).pathname !== '/error-403',
          'the page of the admin account is shown, not the permission-denied page',
        );
        await page.screenshot({ path: outputPath(`access-rules-${tag}-2-read-only.png`), fullPage: true });

        // 3. an account within reach, made an admin by the admin while the list is open: the delete is refused
        await page.goto(`${base}/settings/users?q=${encodeURIComponent(targetEmail)}`);
        const row = page.locator('.ant-table-tbody .ant-table-row').filter({ hasText: targetEmail });
        await row.getByRole('link', { name: new RegExp(`^${t.edit}`) }).waitFor();
        await admin.expect(200, 'PUT', `/api/users/${target.id}`, { is_admin: true });
        await row.getByRole('button', { name: new RegExp(`^${t.delete}`) }).click();
        const answer = page.waitForResponse(
          (r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname === `/api/users/${target.id}`,
        );
        await page.getByRole('tooltip').getByRole('button', { name: t.delete }).click();
        const refused = await answer;
        check(refused.status() === 403, `the delete should be refused with 403, got ${refused.status()}`);
        const body = (await refused.json()) as { code?: string };
        check(body.code === 'insufficient_rights', `the refusal's code: ${JSON.stringify(body)}`);
        await page.getByTestId('resource-refusal').getByText(t.stronger, { exact: true }).waitFor();
        check(new URL(page.url()).pathname === '/settings/users', `the list stays: ${page.url()}`);
        // the list, read again, shows the account as it is now: out of reach
        await row.getByTestId('resource-delete-refused').waitFor();
        await page.screenshot({
          path: outputPath(`access-rules-${tag}-3-delete-refused.png`),
          fullPage: true,
        });
        const still = await admin.call('GET', `/api/users/${target.id}`);
        check(still.status === 200, `the account is still there: ${still.status}`);

        // 4. one's own email address changes on the profile, with the current password
        await page.goto(`${base}/user/profile`);
        const info = page.getByTestId('profile-information');
        const current = info.getByLabel(t.currentPassword, { exact: true });
        check((await current.count()) === 0, 'no password asked before the address changes');
        const newEmail = `users-manager-${tag}-${rid}-new@example.com`;
        await info.getByLabel(t.email, { exact: true }).fill(newEmail);
        await current.fill('Not-the-password1');
        const save = () => info.getByRole('button', { name: t.save }).click();
        const wrong = await answerOf(page, 'PUT', '/api/user/profile', save);
        check(wrong.status() === 422, `a wrong current password is refused: ${wrong.status()}`);
        await info.getByText(t.wrongPassword, { exact: true }).waitFor();
        await current.fill(FIRST_PASSWORD);
        const changed = await answerOf(page, 'PUT', '/api/user/profile', save);
        check(changed.status() === 200, `the address changed: ${changed.status()} ${await changed.text()}`);
        await current.waitFor({ state: 'detached' });
        const account = JSON.parse((await apiCall(page, 'GET', '/api/user')).body) as {
          user: { email: string };
        };
        check(account.user.email === newEmail, `the account's address: ${account.user.email}`);
        await page.screenshot({ path: outputPath(`access-rules-${tag}-4-own-email.png`), fullPage: true });
      } finally {
        // no second admin stays on the shared server (the last-admin journey counts on one)
        await admin.call('DELETE', `/api/users/${target.id}`).catch(() => undefined);
      }
    },
  };
}

export function accountsAdminJourneys(main: RunningServer): Journey[] {
  return [
    adminJourney(main, 'en'),
    adminJourney(main, 'zh_HK'),
    managerJourney(main, 'en'),
    managerJourney(main, 'zh_HK'),
  ];
}

import type { Page } from 'playwright-core';
import { menuLabels, signIn, signOut, totp } from './accounts-journeys';
import { ADMIN, apiCall, switchLanguage } from './actions';
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
    isAdmin: 'Is admin',
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
    lastAdmin: '最後一位啟用中的管理員必須保留管理員身分：請先把另一位用户設為管理員。',
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
  await form.getByRole('button', { name: l.save }).click();
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

export function accountsAdminJourneys(main: RunningServer): Journey[] {
  return [adminJourney(main, 'en'), adminJourney(main, 'zh_HK')];
}

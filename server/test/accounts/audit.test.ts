import { sha256 } from '../../src/lib/crypto';
import { totpCode } from '../../src/modules/two-factor/totp';
import { Client, createTestApp, createUser, type TestApp } from '../harness';
import { confirmPassword, enableTwoFactor, signedIn, TestSmtp } from './helpers';

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await new TestSmtp().start();
  t = await createTestApp(smtp.env());
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

describe('audit log of accounts (quality §27)', () => {
  it('records logins, 2FA and password changes, denials and writes, and never a password, code, token or session id', async () => {
    const secrets: string[] = [];
    const { user, client } = await signedIn(t, { permissions: ['settings.view'] });
    secrets.push(user.password, sha256(client.cookie()!), client.cookie()!);
    await new Client(t.app).login(user.email, 'WrongPass1');
    secrets.push('WrongPass1');

    // a denial
    expect((await client.get('/api/users')).status).toBe(403);
    // 2FA
    const { secret, recoveryCodes } = await enableTwoFactor(client, user.password);
    secrets.push(secret, ...recoveryCodes);
    const pending = new Client(t.app);
    await pending.login(user.email, user.password);
    await pending.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] }).expect(200);
    secrets.push(sha256(pending.cookie()!), pending.cookie()!);
    // password change
    await client
      .put('/api/user/password', {
        current_password: user.password,
        password: 'Another9Pass',
        password_confirmation: 'Another9Pass',
      })
      .expect(200);
    secrets.push('Another9Pass');
    // a token
    await confirmPassword(client, 'Another9Pass');
    const token = await client
      .post('/api/user/api-tokens', { name: 'cli', abilities: ['settings.view'] })
      .expect(201);
    secrets.push(token.body.token, sha256(token.body.token));
    // a reset request
    const other = await createUser(t.db);
    const anon = new Client(t.app);
    await anon.refreshToken();
    await anon.post('/api/forgot-password', { email: other.email }).expect(200);
    const mail = await smtp.waitFor(other.email);
    const resetToken = new URLSearchParams(/\/password\/reset\?(\S+)/.exec(mail.text)![1]).get('token')!;
    secrets.push(resetToken, sha256(resetToken));
    await anon
      .post('/api/reset-password', {
        token: resetToken,
        email: other.email,
        password: 'Reset9Pass',
        password_confirmation: 'Reset9Pass',
      })
      .expect(200);
    secrets.push('Reset9Pass', totpCode(secret));

    const rows = await t.db('audit_logs').orderBy('id');
    const actions = new Set(rows.map((r) => r.action));
    for (const action of [
      'login',
      'login_failed',
      'permission_denied',
      'two_factor_enabled',
      'two_factor_recovery_code_used',
      'password_changed',
      'create',
      'password_reset_requested',
      'password_reset',
    ]) {
      expect({ action, present: actions.has(action) }).toEqual({ action, present: true });
    }
    const denial = rows.find((r) => r.action === 'permission_denied');
    expect(JSON.parse(denial.changes)).toMatchObject({ permission: 'users.view', path: '/api/users' });
    expect(denial.actor_id).toBe(user.id);
    for (const r of rows) expect(r.ip).toBeTruthy();
    const dump = JSON.stringify(rows);
    for (const s of secrets) expect({ leaked: dump.includes(s) ? s : null }).toEqual({ leaked: null });
  });
});

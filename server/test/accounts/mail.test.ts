import { MESSAGES } from '../../../shared/errors';
import { PERMISSIONS } from '../../../shared/permissions';
import { clock } from '../../src/lib/clock';
import { logger } from '../../src/lib/logger';
import { RESET_SENT } from '../../src/modules/password-reset/password-reset.service';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { auditRows, signedIn, TestSmtp } from './helpers';

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await new TestSmtp().start();
});
afterAll(() => smtp.stop());
afterEach(() => clock.reset());

async function anon(t: TestApp) {
  const c = new Client(t.app);
  await c.refreshToken();
  return c;
}

function resetLink(text: string) {
  const m = /\/password\/reset\?(\S+)/.exec(text);
  if (!m) throw new Error(`no reset link in ${text}`);
  const q = new URLSearchParams(m[1]);
  return { token: q.get('token')!, email: q.get('email')! };
}

describe('password reset through SMTP from the environment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...smtp.env(), APP_URL: 'https://office.example.com' });
  });
  afterAll(() => t.close());

  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const user = await createUser(t.db);
    const known = await (await anon(t)).post('/api/forgot-password', { email: user.email });
    const unknown = await (await anon(t)).post('/api/forgot-password', { email: 'nobody-here@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const mail = await smtp.waitFor(user.email);
    expect(mail.from).toBe('office@example.com');
    expect(mail.text).toContain('https://office.example.com/password/reset?');
    expect(smtp.for('nobody-here@example.com')).toHaveLength(0);
    const row = await t.db('password_reset_tokens').where({ email: user.email }).first();
    expect(row.token_hash).toMatch(/^[a-f0-9]{64}$/);
    expect(mail.text).not.toContain(row.token_hash);
  });

  it("writes the mail in the account's language (zh_HK: Traditional Chinese)", async () => {
    const english = await createUser(t.db);
    const chinese = await createUser(t.db);
    await t.db('users').where({ id: chinese.id }).update({ language: 'zh_HK' });
    await (await anon(t)).post('/api/forgot-password', { email: english.email }).expect(200);
    await (await anon(t)).post('/api/forgot-password', { email: chinese.email }).expect(200);
    const en = await smtp.waitFor(english.email);
    const zh = await smtp.waitFor(chinese.email);
    expect(en.subject).toBe('Reset your password');
    expect(zh.subject).toBe('重設密碼');
    expect(zh.text).toContain('請於 60 分鐘內開啟以下連結');
    expect(resetLink(zh.text).email).toBe(chinese.email);
  });

  it('throttles to one request a minute per address', async () => {
    const user = await createUser(t.db);
    await (await anon(t)).post('/api/forgot-password', { email: user.email }).expect(200);
    const again = await (await anon(t)).post('/api/forgot-password', { email: user.email.toUpperCase() });
    expect(again.status).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('resets once with the mailed token, never signs in, and ends every session', async () => {
    const user = await createUser(t.db);
    const { client } = { client: new Client(t.app) };
    await client.login(user.email, user.password);
    await (await anon(t)).post('/api/forgot-password', { email: user.email }).expect(200);
    const link = resetLink((await smtp.waitFor(user.email)).text);
    const c = await anon(t);
    const weak = await c.post('/api/reset-password', {
      ...link,
      password: 'weak',
      password_confirmation: 'weak',
    });
    expect(weak.status).toBe(422);
    const wrongToken = await c.post('/api/reset-password', {
      ...link,
      token: 'x'.repeat(43),
      password: 'Brand9New',
      password_confirmation: 'Brand9New',
    });
    expect(wrongToken.status).toBe(422);
    const ok = await c.post('/api/reset-password', {
      ...link,
      password: 'Brand9New',
      password_confirmation: 'Brand9New',
    });
    expect(ok.status).toBe(200);
    expect((await c.get('/api/heartbeat')).body.auth).toBe(false);
    expect((await client.get('/api/user')).status).toBe(401);
    const replay = await c.post('/api/reset-password', {
      ...link,
      password: 'Other9New',
      password_confirmation: 'Other9New',
    });
    expect(replay.status).toBe(422);
    expect((await new Client(t.app).login(user.email, 'Brand9New')).status).toBe(200);
    const audit = await auditRows(t, { entity: 'user', entity_id: user.id, action: 'password_reset' });
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(await auditRows(t, { entity: 'user', entity_id: user.id }))).not.toContain(
      link.token,
    );
  });

  it('answers a visitor alike when the SMTP server cannot be reached, and logs the failure', async () => {
    const down = await createTestApp({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '1',
      SMTP_FROM: 'office@example.com',
    });
    const warn = jest.spyOn(logger, 'warn');
    try {
      const user = await createUser(down.db);
      const res = await (await anon(down)).post('/api/forgot-password', { email: user.email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: RESET_SENT });
      await down.background.flush();
      expect(warn).toHaveBeenCalledWith('mail not sent', expect.objectContaining({ to: user.email }));
    } finally {
      warn.mockRestore();
      await down.close();
    }
  });

  it('lets a token expire after 60 minutes', async () => {
    const user = await createUser(t.db);
    await (await anon(t)).post('/api/forgot-password', { email: user.email }).expect(200);
    const link = resetLink((await smtp.waitFor(user.email)).text);
    clock.advance(61 * 60_000);
    const res = await (
      await anon(t)
    ).post('/api/reset-password', { ...link, password: 'Brand9New', password_confirmation: 'Brand9New' });
    expect(res.status).toBe(422);
  });
});

describe('SMTP settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('tells an anonymous visitor nothing about the mail setup: the same answer as when mailed, the reason logged', async () => {
    const warn = jest.spyOn(logger, 'warn');
    try {
      const user = await createUser(t.db);
      const known = await (await anon(t)).post('/api/forgot-password', { email: user.email });
      const unknown = await (
        await anon(t)
      ).post('/api/forgot-password', { email: 'nobody-here@example.com' });
      expect(known.status).toBe(200);
      expect(known.body).toEqual({ message: RESET_SENT });
      expect(unknown.body).toEqual(known.body);
      expect(JSON.stringify(known.body)).not.toMatch(/SMTP/i);
      await t.background.flush();
      expect(warn).toHaveBeenCalledWith(
        'password reset link not sent: SMTP is not configured',
        expect.objectContaining({ user_id: user.id }),
      );
      // no link was made that no one received
      expect(await t.db('password_reset_tokens').where({ email: user.email }).first()).toBeUndefined();
    } finally {
      warn.mockRestore();
    }
  });

  it('answers the spec message to the admin when SMTP is not configured', async () => {
    const admin = await signedInAdmin(t);
    const test = await admin.post('/api/settings/smtp/test', { to: 'me@example.com' });
    expect(test.body.message).toBe(MESSAGES.smtpMissing);
    expect((await admin.get('/api/settings/smtp')).body).toMatchObject({
      host: null,
      source: null,
      password_set: false,
    });
  });

  it('stores the settings (password encrypted, never shown) and sends a test mail through them', async () => {
    const admin = await signedInAdmin(t);
    const saved = await admin.put('/api/settings/smtp', {
      host: '127.0.0.1',
      port: smtp.port,
      user: null,
      password: 'smtp-Secret-9',
      from: 'settings@example.com',
      secure: false,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      host: '127.0.0.1',
      port: smtp.port,
      password_set: true,
      source: 'settings',
    });
    expect(JSON.stringify(saved.body)).not.toContain('smtp-Secret-9');
    const stored = await t.db('settings').where({ key: 'smtp_password' }).first();
    expect(stored.value).toBeTruthy();
    expect(stored.value).not.toContain('smtp-Secret-9');
    const audit = await t.db('audit_logs').where({ entity: 'settings', action: 'update' });
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].changes).after).toMatchObject({
      smtp_host: '127.0.0.1',
      smtp_from: 'settings@example.com',
    });
    expect(JSON.stringify(audit)).not.toContain('smtp-Secret-9');
    expect(audit[0].changes).not.toContain('smtp_password');

    await admin.post('/api/settings/smtp/test', { to: 'tester@example.com' }).expect(200);
    const mail = await smtp.waitFor('tester@example.com');
    expect(mail.from).toBe('settings@example.com');

    // omitting the password keeps it
    await admin
      .put('/api/settings/smtp', {
        host: '127.0.0.1',
        port: smtp.port,
        from: 'settings@example.com',
        secure: false,
      })
      .expect(200);
    expect((await admin.get('/api/settings/smtp')).body.password_set).toBe(true);
  });

  it('answers Email failed when the server refuses or cannot be reached', async () => {
    const admin = await signedInAdmin(t);
    smtp.refuse = true;
    try {
      const refused = await admin.post('/api/settings/smtp/test', { to: 'tester2@example.com' });
      expect(refused.status).toBe(502);
      expect(refused.body.message).toBe(MESSAGES.emailFailed);
    } finally {
      smtp.refuse = false;
    }
    const closed = new TestSmtp();
    await closed.start();
    const port = closed.port;
    await closed.stop();
    await admin
      .put('/api/settings/smtp', { host: '127.0.0.1', port, from: 'x@example.com', secure: false })
      .expect(200);
    const unreachable = await admin.post('/api/settings/smtp/test', { to: 'tester3@example.com' });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.message).toBe(MESSAGES.emailFailed);
  });

  it('is for admins only: whoever sets the mail server reads every password reset link', async () => {
    const { client } = await signedIn(t, {
      permissions: PERMISSIONS.filter((p) => p.startsWith('settings.')),
    });
    expect((await client.get('/api/settings/smtp')).status).toBe(403);
    expect((await client.put('/api/settings/smtp', {})).status).toBe(403);
    expect((await client.post('/api/settings/smtp/test', { to: 'a@example.com' })).status).toBe(403);
  });
});

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const body = (email: string, extra: object = {}) => ({
    name: 'New Staff',
    email,
    password: 'Register9',
    password_confirmation: 'Register9',
    terms: true,
    ...extra,
  });

  it('is off by default (404), and when on creates an inactive account that waits for an admin', async () => {
    expect((await (await anon(t)).post('/api/register', body('reg1@example.com'))).status).toBe(404);
    expect((await new Client(t.app).get('/api/app-config')).body.registration_enabled).toBe(false);
    const admin = await signedInAdmin(t);
    await admin.put('/api/settings/accounts', { registration_enabled: true }).expect(200);
    expect((await new Client(t.app).get('/api/app-config')).body.registration_enabled).toBe(true);

    const noTerms = await (await anon(t)).post('/api/register', body('reg1@example.com', { terms: false }));
    expect(noTerms.status).toBe(422);
    expect(noTerms.body.errors.terms).toBeDefined();
    const weak = await (
      await anon(t)
    ).post('/api/register', body('reg1@example.com', { password: 'weak', password_confirmation: 'weak' }));
    expect(weak.status).toBe(422);
    const extra = await (await anon(t)).post('/api/register', body('reg1@example.com', { is_admin: true }));
    expect(extra.status).toBe(422);

    const c = await anon(t);
    const res = await c.post('/api/register', body('reg1@example.com'));
    expect(res.status).toBe(201);
    expect((await c.get('/api/heartbeat')).body.auth).toBe(false);
    const row = await t.db('users').where({ email: 'reg1@example.com' }).first();
    expect(Boolean(row.is_active)).toBe(false);
    expect(Boolean(row.is_admin)).toBe(false);
    expect(row.role_id).toBeNull();
    expect(row.terms_accepted_at).toBeTruthy();
    expect((await new Client(t.app).login('reg1@example.com', 'Register9')).status).toBe(422);
    const dup = await (await anon(t)).post('/api/register', body('reg1@example.com'));
    expect(dup.body.errors.email).toEqual([MESSAGES.duplicate]);

    await admin.put(`/api/users/${row.id}`, { is_active: true }).expect(200);
    expect((await new Client(t.app).login('reg1@example.com', 'Register9')).status).toBe(200);
  });
});

import bcrypt from 'bcrypt';
import { MESSAGES } from '../../../shared/errors';
import { FIELD_MESSAGES } from '../../../shared/messages';
import { clock } from '../../src/lib/clock';
import { Client, createStudent, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { auditRows, confirmPassword, signedIn, TestSmtp } from './helpers';

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await new TestSmtp().start();
  t = await createTestApp({ ...smtp.env(), APP_URL: 'http://office.localhost' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
afterEach(() => clock.reset());

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function loginWithAgent(email: string, password: string, ua: string) {
  const c = new Client(t.app);
  await c.refreshToken();
  await c.post('/api/login', { email, password }).set('User-Agent', ua).expect(200);
  await c.refreshToken();
  return c;
}

describe('profile', () => {
  it('shows and updates name and language; refuses unknown fields', async () => {
    const { client } = await signedIn(t);
    const shown = await client.get('/api/user/profile').expect(200);
    expect(shown.body.user).toMatchObject({ language: 'en', two_factor_enabled: false });
    expect(shown.body.user).not.toHaveProperty('password_hash');
    expect(shown.body.features.canUpdateProfileInformation).toBe(true);
    const res = await client
      .put('/api/user/profile', { name: 'Chan Tai Man', language: 'zh_HK' })
      .expect(200);
    expect(res.body.user).toMatchObject({ name: 'Chan Tai Man', language: 'zh_HK' });
    expect(res.body.verification).toBeNull();
    const extra = await client.put('/api/user/profile', { is_admin: true });
    expect(extra.status).toBe(422);
    expect(Object.keys(extra.body.errors)).toEqual(['is_admin']);
    expect((await client.put('/api/user/profile', { email: 'bad' })).body.errors.email).toEqual([
      MESSAGES.invalidEmail,
    ]);
  });

  it('a new email address clears the verification and mails a link that verifies it', async () => {
    const { user, client } = await signedIn(t);
    await t.db('users').where({ id: user.id }).update({ email_verified_at: '2026-01-01 00:00:00' });
    const taken = await createUser(t.db);
    const current_password = user.password;
    const dup = await client.put('/api/user/profile', { email: taken.email, current_password });
    expect(dup.body.errors.email).toEqual([MESSAGES.duplicate]);

    const address = `new-${user.id}@example.com`;
    // the address is where reset links go: a change needs the current password (a stolen session is not enough)
    const without = await client.put('/api/user/profile', { email: address });
    expect(without.status).toBe(422);
    expect(without.body.errors.current_password).toEqual([FIELD_MESSAGES.currentPasswordRequired]);
    const wrong = await client.put('/api/user/profile', { email: address, current_password: 'Wrong1234' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.current_password).toHaveLength(1);
    expect((await t.db('users').where({ id: user.id }).first()).email).toBe(user.email);

    const res = await client.put('/api/user/profile', { email: address, current_password }).expect(200);
    expect(res.body.verification).toBe('sent');
    expect(res.body.user.email_verified_at).toBeNull();
    // the old address is told, in case it was not its owner who changed it
    const notice = await smtp.waitFor(user.email);
    expect(notice.subject).toBe('Your email address was changed');
    expect(notice.text).toContain(address);
    const mail = await smtp.waitFor(address);
    const link = /http:\/\/office\.localhost\/email\/verify\?(\S+)/.exec(mail.text);
    expect(link).toBeTruthy();
    const q = new URLSearchParams(link![1]);
    const body = {
      id: Number(q.get('id')),
      expires: Number(q.get('expires')),
      signature: q.get('signature')!,
    };
    const anon = new Client(t.app);
    await anon.refreshToken();
    expect((await anon.post('/api/email/verify', { ...body, signature: 'f'.repeat(64) })).status).toBe(422);
    expect((await anon.post('/api/email/verify', { ...body, id: 99999999 })).body.message).toBe(
      MESSAGES.userNotFound,
    );
    await anon.post('/api/email/verify', body).expect(200);
    expect((await client.get('/api/user/profile')).body.user.email_verified_at).not.toBeNull();
    // resend on demand
    await client.post('/api/user/email/verification-notification').expect(202);
    await smtp.waitFor(address, 2);
  });
});

describe('password update', () => {
  it('needs the right current password, the rule, the confirmation, and at most 72 bytes', async () => {
    const { user, client } = await signedIn(t);
    const put = (body: object) => client.put('/api/user/password', body);
    const wrong = await put({
      current_password: 'Wrong1234',
      password: 'NewPass123',
      password_confirmation: 'NewPass123',
    });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['current_password']);
    const missing = await put({ password: 'NewPass123', password_confirmation: 'NewPass123' });
    expect(missing.body.errors.current_password).toBeDefined();
    for (const bad of ['short1A', 'nouppercase1', 'NOLOWERCASE1', 'NoDigitsAtAll', `Aa1${'ü'.repeat(35)}`]) {
      const res = await put({ current_password: user.password, password: bad, password_confirmation: bad });
      expect({ bad, status: res.status, field: Object.keys(res.body.errors) }).toEqual({
        bad,
        status: 422,
        field: ['password'],
      });
    }
    const mismatch = await put({
      current_password: user.password,
      password: 'NewPass123',
      password_confirmation: 'NewPass124',
    });
    expect(Object.keys(mismatch.body.errors)).toEqual(['password_confirmation']);
    await put({
      current_password: user.password,
      password: 'NewPass123',
      password_confirmation: 'NewPass123',
    }).expect(200);
    const row = await t.db('users').where({ id: user.id }).first();
    expect(row.password_hash.startsWith(`$2b$${String(t.config.bcryptCost).padStart(2, '0')}$`)).toBe(true);
    expect(await bcrypt.compare('NewPass123', row.password_hash)).toBe(true);
    const audit = await auditRows(t, { entity: 'user', entity_id: user.id, action: 'password_changed' });
    expect(audit).toHaveLength(1);
    expect(String(audit[0].changes)).not.toContain('NewPass123');
  });

  it('ends the other sessions of the account and keeps this one', async () => {
    const { user, client } = await signedIn(t);
    const other = new Client(t.app);
    await other.login(user.email, user.password);
    await other.get('/api/user').expect(200);
    await client
      .put('/api/user/password', {
        current_password: user.password,
        password: 'Changed123',
        password_confirmation: 'Changed123',
      })
      .expect(200);
    await client.get('/api/user').expect(200);
    expect((await other.get('/api/user')).status).toBe(401);
  });
});

describe('browser sessions', () => {
  it('lists the caller’s sessions with IP, browser, last active and this device', async () => {
    const user = await createUser(t.db);
    const a = await loginWithAgent(user.email, user.password, CHROME);
    await loginWithAgent(user.email, user.password, FIREFOX);
    const res = await a.get('/api/user/sessions').set('User-Agent', CHROME).expect(200);
    expect(res.body.items).toHaveLength(2);
    const current = res.body.items.find((s: { is_current: boolean }) => s.is_current);
    expect(current).toMatchObject({ browser: 'Chrome', platform: 'Windows' });
    expect(current.ip).toBeTruthy();
    expect(Date.parse(current.last_active)).not.toBeNaN();
    const firefox = res.body.items.find((s: { is_current: boolean }) => !s.is_current);
    expect(firefox).toMatchObject({ browser: 'Firefox', platform: 'Linux' });
    expect(JSON.stringify(res.body)).not.toMatch(/session_id_hash|[a-f0-9]{64}/);
  });

  it('logs out the other sessions (after a password confirmation): their cookies answer 401', async () => {
    const user = await createUser(t.db);
    const a = await loginWithAgent(user.email, user.password, CHROME);
    const b = await loginWithAgent(user.email, user.password, FIREFOX);
    const c = await loginWithAgent(user.email, user.password, FIREFOX);
    expect((await a.post('/api/user/sessions/logout-others')).status).toBe(423);
    await confirmPassword(a, user.password);
    const res = await a.post('/api/user/sessions/logout-others').expect(200);
    expect(res.body.ended).toBe(2);
    expect((await b.get('/api/user')).status).toBe(401);
    expect((await c.get('/api/user')).status).toBe(401);
    await a.get('/api/user').expect(200);
    // the cookie replayed on another instance is dead too (shared store)
    const replay = new Client(t.restart().app);
    replay.agent.jar.setCookie(`sa_session=${b.cookie()}`, '127.0.0.1', '/');
    expect((await replay.get('/api/user')).status).toBe(401);
    expect((await a.get('/api/user/sessions')).body.items).toHaveLength(1);
  });
});

describe('account deletion', () => {
  it('needs a password confirmation, deletes the account and signs it out everywhere', async () => {
    const { user, client } = await signedIn(t);
    const elsewhere = new Client(t.app);
    await elsewhere.login(user.email, user.password);
    expect((await client.delete('/api/user')).status).toBe(423);
    await confirmPassword(client, user.password);
    await client.delete('/api/user').expect(204);
    expect(await t.db('users').where({ id: user.id }).first()).toBeUndefined();
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await elsewhere.get('/api/user')).status).toBe(401);
    expect(await auditRows(t, { entity: 'user', entity_id: user.id, action: 'delete' })).toHaveLength(1);
  });

  it('refuses to delete an account still referred to (consultant of students) with 409', async () => {
    const { user, client } = await signedIn(t);
    const student = await createStudent(t.db);
    await t.db('students').where({ id: student.id }).update({ consultant_user_id: user.id });
    await confirmPassword(client, user.password);
    const res = await client.delete('/api/user');
    expect(res.status).toBe(409);
    expect(res.body.references).toEqual({ students: 1 });
    await client.get('/api/user').expect(200);
  });
});

describe('feature flags', () => {
  it('come with the session and app-config; a disabled feature’s routes answer 404', async () => {
    const admin = await signedInAdmin(t);
    const { client } = await signedIn(t);
    expect((await client.get('/api/user')).body.features.hasApiFeatures).toBe(true);
    await admin
      .put('/api/settings/accounts', { features: { hasApiFeatures: false, canUpdatePassword: false } })
      .expect(200);
    try {
      const config = await new Client(t.app).get('/api/app-config').expect(200);
      expect(config.body.features).toMatchObject({
        hasApiFeatures: false,
        canUpdatePassword: false,
        canManageTwoFactorAuthentication: true,
      });
      expect((await client.get('/api/user')).body.features.hasApiFeatures).toBe(false);
      expect((await client.get('/api/user/api-tokens')).status).toBe(404);
      expect((await client.put('/api/user/password', {})).status).toBe(404);
      await client.get('/api/user/two-factor-authentication').expect(200);
    } finally {
      await admin
        .put('/api/settings/accounts', { features: { hasApiFeatures: true, canUpdatePassword: true } })
        .expect(200);
    }
    await client.get('/api/user/api-tokens').expect(200);
  });
});

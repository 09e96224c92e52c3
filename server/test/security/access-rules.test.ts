import request from 'supertest';
import { FIELD_MESSAGES } from '../../../shared/messages';
import { PERMISSIONS } from '../../../shared/permissions';
import { clock, toDbDateTime } from '../../src/lib/clock';
import { PORTAL_STUDENT_FIELDS } from '../../src/modules/portal/portal.routes';
import { sweepExpiredSessions } from '../../src/sessions/sweep';
import {
  Client,
  PORTAL_HOST,
  STAFF_HOST,
  createBranch,
  createRole,
  createStudent,
  createTestApp,
  createUser,
  onRedis,
  type TestApp,
} from '../harness';
import { auditRows, confirmPassword, enableTwoFactor, signedIn, TestSmtp } from '../accounts/helpers';

/**
 * The security issue's findings, one `describe` each (issue "Security: no caller reaches an account, a setting
 * or a power stronger than its own"). Every test here failed on the code before the fix. The caller × target ×
 * action walk lives in authz/stronger-accounts.test.ts, the hostile bodies in hostile/hostile-suite.ts, the
 * spreadsheet and image bounds in files/bounds.test.ts.
 */

let smtpA: TestSmtp;
let smtpB: TestSmtp;
let t: TestApp;

beforeAll(async () => {
  smtpA = await new TestSmtp().start();
  smtpB = await new TestSmtp().start();
  // the mail settings in force at first come from the environment: server A
  t = await createTestApp({ ...smtpA.env(), APP_URL: 'https://office.example.com' });
});
afterAll(async () => {
  await t.close();
  await smtpA.stop();
  await smtpB.stop();
});
afterEach(() => clock.reset());

async function anonymous(): Promise<Client> {
  const c = new Client(t.app);
  await c.refreshToken();
  return c;
}

async function setting(key: string): Promise<string | null> {
  return (await t.db('settings').where({ key }).first())?.value ?? null;
}

function bearer(token: string) {
  return request(t.app).get('/api/user').set('Host', STAFF_HOST).set('Authorization', `Bearer ${token}`);
}

async function tokenFor(client: Client, password: string, abilities: string[] = []): Promise<string> {
  await confirmPassword(client, password);
  const res = await client.post('/api/user/api-tokens', { name: 'script', abilities });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

describe('1. mail, security and storage settings are for admins with a fresh password, announced to every admin', () => {
  it('refuses a settings manager every protected setting, and changes nothing', async () => {
    const { client } = await signedIn(t, {
      permissions: PERMISSIONS.filter((p) => p.startsWith('settings.')),
    });
    const before = await t.db('settings').orderBy('key');
    const smtp = await client.put('/api/settings/smtp', {
      host: '127.0.0.1',
      port: smtpB.port,
      from: 'evil@example.com',
      secure: false,
    });
    expect(smtp.status).toBe(403);
    expect((await client.put('/api/settings/accounts', { require_two_factor: false })).status).toBe(403);
    expect((await client.put('/api/settings/accounts', { registration_enabled: true })).status).toBe(403);
    for (const body of [{ storage_suspended: true }, { storage_quota_mb: 1 }, { max_upload_mb: 1 }]) {
      const res = await client.put('/api/settings', body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'insufficient_rights',
        message: FIELD_MESSAGES.adminOnlySettings,
      });
    }
    expect(await t.db('settings').orderBy('key')).toEqual(before);
    // the settings that hand over nothing stay theirs
    await client.put('/api/settings', { default_currency: 'HKD' }).expect(200);
  });

  it('asks an admin for its password again when the last confirmation is older than 15 minutes', async () => {
    const { user, client } = await signedIn(t, { is_admin: true });
    const unconfirmed = await client.put('/api/settings', { storage_suspended: true });
    expect(unconfirmed.status).toBe(423);
    expect(unconfirmed.body.code).toBe('password_confirmation_required');
    await confirmPassword(client, user.password);
    await client.put('/api/settings', { storage_suspended: true }).expect(200);
    clock.advance(16 * 60_000);
    expect((await client.put('/api/settings', { storage_suspended: false })).status).toBe(423);
    expect(await setting('storage_suspended')).toBe('true');
    await confirmPassword(client, user.password);
    await client.put('/api/settings', { storage_suspended: false }).expect(200);
  });

  it('tells every active admin through the mail settings in force before the change, and audits it', async () => {
    const admin = await signedIn(t, { is_admin: true });
    const other = await createUser(t.db, { is_admin: true });
    const retired = await createUser(t.db, { is_admin: true, is_active: false });
    await confirmPassword(admin.client, admin.user.password);
    const auditsBefore = (await auditRows(t, { entity: 'settings' })).length;
    // the admin points mail at server B: the notice still goes out through A, the server in force before
    await admin.client
      .put('/api/settings/smtp', {
        host: '127.0.0.1',
        port: smtpB.port,
        from: 'office@example.com',
        secure: false,
      })
      .expect(200);
    const notice = await smtpA.waitFor(other.email);
    expect(notice.subject).toBe('Security settings were changed');
    expect(notice.text).toContain('Mail server port');
    await smtpA.waitFor(admin.user.email);
    await t.background.flush();
    expect(smtpB.for(other.email)).toHaveLength(0);
    expect(smtpA.for(retired.email)).toHaveLength(0);
    expect((await auditRows(t, { entity: 'settings' })).length).toBe(auditsBefore + 1);
    // the next change is told through B, now in force
    await admin.client.put('/api/settings/accounts', { registration_enabled: true }).expect(200);
    const second = await smtpB.waitFor(other.email);
    expect(second.text).toContain('Self-registration');
    await admin.client.put('/api/settings/accounts', { registration_enabled: false }).expect(200);
    await admin.client
      .put('/api/settings/smtp', {
        host: '127.0.0.1',
        port: smtpA.port,
        from: 'office@example.com',
        secure: false,
      })
      .expect(200);
  });
});

describe('2. a stored SMTP password is never sent to a server it was not saved for', () => {
  it('clears the password when the host or port changes without a new one', async () => {
    const { user, client } = await signedIn(t, { is_admin: true });
    await confirmPassword(client, user.password);
    const onA = { host: '127.0.0.1', port: smtpA.port, from: 'office@example.com', secure: false };
    await client.put('/api/settings/smtp', { ...onA, user: 'mailer', password: 'SmtpSecret1' }).expect(200);
    await client.post('/api/settings/smtp/test', { to: 'probe-a@example.com' }).expect(200);
    expect(smtpA.auths).toContainEqual({ username: 'mailer', password: 'SmtpSecret1' });

    // same server, other fields: the password stays
    await client.put('/api/settings/smtp', { ...onA, user: 'mailer', from: 'desk@example.com' }).expect(200);
    expect(await setting('smtp_password')).not.toBeNull();

    // another port, no new password: the saved one is gone, and B never hears it
    const saved = await client
      .put('/api/settings/smtp', { ...onA, port: smtpB.port, user: 'mailer' })
      .expect(200);
    expect(saved.body.has_password ?? saved.body.password_set ?? false).toBe(false);
    expect(await setting('smtp_password')).toBeNull();
    await client.post('/api/settings/smtp/test', { to: 'probe-b@example.com' });
    await t.background.flush();
    expect(smtpB.auths.filter((a) => a.password === 'SmtpSecret1')).toHaveLength(0);

    // back to A with the password given again
    await client.put('/api/settings/smtp', { ...onA, user: null, password: null }).expect(200);
  });
});

describe('3, 4, 8. users.update and users.delete do not reach an admin account', () => {
  it('refuses a users manager the email, the 2FA and the deletion of an admin, and changes nothing', async () => {
    const manager = await signedIn(t, { permissions: ['users.view', 'users.update', 'users.delete'] });
    const admin = await signedIn(t, { is_admin: true });
    await enableTwoFactor(admin.client, admin.user.password);
    const before = await t.db('users').where({ id: admin.user.id }).first();
    const email = await manager.client.put(`/api/users/${admin.user.id}`, { email: 'mine@example.com' });
    expect(email.status).toBe(403);
    expect(email.body).toMatchObject({
      code: 'insufficient_rights',
      message: FIELD_MESSAGES.accountStronger,
    });
    expect(
      (await manager.client.delete(`/api/users/${admin.user.id}/two-factor-authentication`)).status,
    ).toBe(403);
    expect((await manager.client.delete(`/api/users/${admin.user.id}`)).status).toBe(403);
    expect(await t.db('users').where({ id: admin.user.id }).first()).toEqual(before);
    // the list says so before anyone tries
    const row = (await manager.client.get(`/api/users/${admin.user.id}`).expect(200)).body;
    expect(row.allowed_actions).toEqual([]);
    expect(row.refusal).toBe('accountStronger');
    const weaker = await createUser(t.db);
    const reachable = (await manager.client.get(`/api/users/${weaker.id}`).expect(200)).body;
    expect(reachable).toMatchObject({ allowed_actions: ['update', 'delete'], refusal: null });
  });
});

describe('5. data scope is a grant: a branch-scoped role manager cannot widen its own role or make an `all` role', () => {
  it('refuses its own role, an `all` role, and a role held in other branches', async () => {
    const own = await createBranch(t.db);
    const elsewhere = await createBranch(t.db);
    const perms = ['roles.view', 'roles.create', 'roles.update', 'users.view'];
    const { user, client } = await signedIn(t);
    const roleId = await createRole(t.db, perms, 'branch');
    await t.db('users').where({ id: user.id }).update({ role_id: roleId, branch_id: own });

    const widen = await client.put(`/api/roles/${roleId}`, { data_scope: 'all' });
    expect(widen.status).toBe(403);
    expect(widen.body.message).toBe(FIELD_MESSAGES.roleOwn);
    const allRole = await client.post('/api/roles', {
      name: 'Everywhere',
      data_scope: 'all',
      permissions: [],
    });
    expect(allRole.status).toBe(422);
    expect(allRole.body.errors.data_scope).toEqual([FIELD_MESSAGES.scopeNotHeld]);
    const mine = await client
      .post('/api/roles', { name: 'Front desk', data_scope: 'branch', permissions: ['users.view'] })
      .expect(201);
    const toAll = await client.put(`/api/roles/${mine.body.id}`, { data_scope: 'all' });
    expect(toAll.status).toBe(422);

    const shared = await createRole(t.db, ['users.view'], 'branch');
    const holder = await createUser(t.db);
    await t.db('users').where({ id: holder.id }).update({ role_id: shared, branch_id: elsewhere });
    const reach = await client.put(`/api/roles/${shared}`, { permissions: ['users.view', 'roles.view'] });
    expect(reach.status).toBe(403);
    expect(reach.body.message).toBe(FIELD_MESSAGES.roleOtherBranches);
    const roles = await t.db('roles').whereIn('id', [roleId, mine.body.id, shared]).orderBy('id');
    expect(roles.map((r) => [r.data_scope, JSON.parse(r.permissions).length])).toEqual([
      ['branch', perms.length],
      ['branch', 1],
      ['branch', 1],
    ]);
  });

  it('refuses even an all-scope role manager its own role', async () => {
    const { user, client } = await signedIn(t, { permissions: ['roles.view', 'roles.update'] });
    const res = await client.put(`/api/roles/${user.roleId}`, { permissions: PERMISSIONS });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(FIELD_MESSAGES.roleOwn);
  });
});

describe('7. a change of admin flag, role, branch or active applies on the next request; deactivation ends everything', () => {
  it('ends a deactivated account’s sessions and API tokens at once', async () => {
    const admin = await signedIn(t, { is_admin: true });
    const { user, client } = await signedIn(t, { permissions: ['users.view'] });
    const token = await tokenFor(client, user.password, ['users.view']);
    await bearer(token).expect(200);
    await admin.client.put(`/api/users/${user.id}`, { is_active: false }).expect(200);
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await bearer(token)).status).toBe(401);
    expect(await t.db('api_tokens').where({ user_id: user.id })).toHaveLength(0);
  });

  it('moves a branch-scoped user to its new branch on its next request', async () => {
    const admin = await signedIn(t, { is_admin: true });
    const [a, b] = [await createBranch(t.db), await createBranch(t.db)];
    const { user, client } = await signedIn(t);
    const roleId = await createRole(t.db, ['users.view'], 'branch');
    await t.db('users').where({ id: user.id }).update({ role_id: roleId, branch_id: a });
    const inB = await createUser(t.db);
    await t.db('users').where({ id: inB.id }).update({ branch_id: b });
    expect((await client.get(`/api/users/${inB.id}`)).status).toBe(404);
    await admin.client.put(`/api/users/${user.id}`, { branch_id: b }).expect(200);
    await client.get(`/api/users/${inB.id}`).expect(200);
  });
});

describe('9. one’s own email changes only with the current password, and the old address is told', () => {
  it('refuses the change through the users screen, where no password is asked', async () => {
    const { user, client } = await signedIn(t, { permissions: ['users.view', 'users.update'] });
    const res = await client.put(`/api/users/${user.id}`, { email: 'taken-over@example.com' });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toEqual([FIELD_MESSAGES.ownEmailOnProfile]);
    expect((await t.db('users').where({ id: user.id }).first()).email).toBe(user.email);
  });
  // the profile route's password and notice: accounts/profile.test.ts
});

describe('10. a password reset ends every session and token; a change ends the others, tokens by choice', () => {
  it('revokes every session and API token on reset, and mails a notice', async () => {
    const { user, client } = await signedIn(t, { permissions: ['users.view'] });
    const token = await tokenFor(client, user.password, ['users.view']);
    const anon = await anonymous();
    await anon.post('/api/forgot-password', { email: user.email }).expect(200);
    const mail = await smtpA.waitFor(user.email);
    const link = new URLSearchParams(/\/password\/reset\?(\S+)/.exec(mail.text)![1]);
    await anon
      .post('/api/reset-password', {
        token: link.get('token'),
        email: user.email,
        password: 'Reset9Pass',
        password_confirmation: 'Reset9Pass',
      })
      .expect(200);
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await bearer(token)).status).toBe(401);
    const notice = await smtpA.waitFor(user.email, 2);
    expect(notice.subject).toBe('Your password was changed');
  });

  it('revokes the tokens on a change unless asked to keep them; the other sessions end either way', async () => {
    const { user, client } = await signedIn(t, { permissions: ['users.view'] });
    const elsewhere = new Client(t.app);
    await elsewhere.login(user.email, user.password);
    const token = await tokenFor(client, user.password, ['users.view']);
    const kept = await client
      .put('/api/user/password', {
        current_password: user.password,
        password: 'Second9Pass',
        password_confirmation: 'Second9Pass',
        revoke_tokens: false,
      })
      .expect(200);
    expect(kept.body.tokens_revoked).toBe(0);
    await bearer(token).expect(200);
    expect((await elsewhere.get('/api/user')).status).toBe(401);
    const revoked = await client
      .put('/api/user/password', {
        current_password: 'Second9Pass',
        password: 'Third9Pass',
        password_confirmation: 'Third9Pass',
      })
      .expect(200);
    expect(revoked.body.tokens_revoked).toBe(1);
    expect((await bearer(token)).status).toBe(401);
    await client.get('/api/user').expect(200);
  });
});

describe('11. forgot-password answers a known and an unknown address alike, before any mail is sent', () => {
  it('answers while the mail server still holds the message', async () => {
    const user = await createUser(t.db);
    const release = smtpA.hold();
    try {
      const known = await (await anonymous()).post('/api/forgot-password', { email: user.email });
      const unknown = await (
        await anonymous()
      ).post('/api/forgot-password', { email: 'nobody-11@example.com' });
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(known.body).toEqual(unknown.body);
      // the reply came while the mail server had not accepted the link: nothing of it was waited for
      expect(smtpA.for(user.email)).toHaveLength(0);
    } finally {
      release();
    }
    const mail = await smtpA.waitFor(user.email);
    expect(mail.text).toMatch(/\/password\/reset\?/);
  });
});

describe('13. long values: sized columns, cut audit values, 422 past the limits', () => {
  it('keeps 70 KB terms, cuts their audit values with a marker, and refuses more than the limit', async () => {
    const { user, client } = await signedIn(t, { is_admin: true });
    await confirmPassword(client, user.password);
    // 4-byte characters: 70,000 of them are 280 KB in utf8mb4, past MySQL's TEXT
    const long = '😀'.repeat(35_000);
    const res = await client.post('/api/order-terms', {
      title_en: 'Long',
      title_zh: '長',
      content_en: `<p>${long}</p>`,
      content_zh: `<p>${long}</p>`,
    });
    expect(res.status).toBe(201);
    const stored = await t.db('order_terms').where({ id: res.body.id }).first();
    expect(stored.content_en).toContain(long);
    const [audit] = await auditRows(t, { entity: 'order_terms', entity_id: res.body.id, action: 'create' });
    expect(String(audit.changes)).toMatch(/…\[\+\d+\]/);
    expect(String(audit.changes).length).toBeLessThan(20_000);
    const tooLong = await client.post('/api/order-terms', {
      title_en: 'Too long',
      title_zh: '太長',
      content_en: 'x'.repeat(200_001),
      content_zh: 'x',
    });
    expect(tooLong.status).toBe(422);
    expect(Object.keys(tooLong.body.errors)).toEqual(['content_en']);
  });
});

describe('14. an anonymous visitor stores nothing; expired sessions are swept', () => {
  async function storedSessions(): Promise<number> {
    if (onRedis) return (await t.redis!.keys(`${t.redisPrefix}*sess:*`)).length;
    return Number((await t.db('sessions').count({ n: '*' }))[0].n);
  }

  it('hands out CSRF tokens without storing a session, and still signs in with one', async () => {
    const before = await storedSessions();
    for (let i = 0; i < 50; i++) await new Client(t.app).get('/api/csrf-token').expect(200);
    expect(await storedSessions()).toBe(before);
    const user = await createUser(t.db);
    const c = await anonymous();
    const bad = await c
      .send('post', '/api/login', { email: user.email, password: user.password })
      .set('X-CSRF-Token', 'not-the-token-of-this-visitor');
    expect(bad.status).toBe(403);
    await c.post('/api/login', { email: user.email, password: user.password }).expect(200);
    expect(await storedSessions()).toBe(before + 1);
  });

  it('sweeps the browser-session rows of expired sessions', async () => {
    const user = await createUser(t.db);
    const old = toDbDateTime(clock.now() - t.config.session.absoluteMs - 60_000);
    await t.db('user_sessions').insert({
      session_id_hash: `expired-${user.id}`,
      user_id: user.id,
      ip: '127.0.0.1',
      user_agent: 'test',
      last_active_at: old,
      created_at: old,
      updated_at: old,
    });
    const { user: live } = await signedIn(t);
    await sweepExpiredSessions(t.db, t.config);
    expect(await t.db('user_sessions').where({ user_id: user.id })).toHaveLength(0);
    expect(await t.db('user_sessions').where({ user_id: live.id })).toHaveLength(1);
  });
});

describe('15. the user form offers only what the caller may assign', () => {
  it('lists a branch-scoped manager its own branch and the roles within its own', async () => {
    const own = await createBranch(t.db);
    await createBranch(t.db);
    const { user, client } = await signedIn(t);
    const roleId = await createRole(t.db, ['users.view', 'users.create'], 'branch');
    await t.db('users').where({ id: user.id }).update({ role_id: roleId, branch_id: own });
    const weaker = await createRole(t.db, ['users.view'], 'branch');
    const wider = await createRole(t.db, ['users.view'], 'all');
    const stronger = await createRole(t.db, ['users.view', 'orders.void'], 'branch');
    const form = (await client.get('/api/users/create').expect(200)).body;
    expect(form.branches.map((b: { id: number }) => b.id)).toEqual([own]);
    const offered = form.roles.map((r: { id: number }) => r.id);
    expect(offered).toEqual(expect.arrayContaining([roleId, weaker]));
    expect(offered).not.toContain(wider);
    expect(offered).not.toContain(stronger);
  });
});

describe('also: the portal’s allow-list, control characters in text', () => {
  it('answers a student only the allow-listed fields of its own record', async () => {
    const student = await createStudent(t.db);
    await t.db('students').where({ id: student.id }).update({ remark: 'staff only: owes a deposit' });
    const c = new Client(t.app, PORTAL_HOST);
    await c.login(student.email, student.password);
    const res = await c.get('/api/student').expect(200);
    expect(Object.keys(res.body).sort()).toEqual([...PORTAL_STUDENT_FIELDS].sort());
    expect(JSON.stringify(res.body)).not.toMatch(/owes a deposit|\$2b\$/);
  });

  it('refuses NUL and text-direction controls in names and text, and keeps the record', async () => {
    const { user, client } = await signedIn(t);
    for (const name of ['Chan\u0000Tai Man', 'Chan \u202Enam iaT', 'a\u2066b']) {
      const res = await client.put('/api/user/profile', { name });
      expect(res.status).toBe(422);
      expect(res.body.errors.name).toEqual([FIELD_MESSAGES.textControl]);
    }
    expect((await t.db('users').where({ id: user.id }).first()).name).toBe('Test User');
    // line breaks and tabs in text are no controls of that kind
    await client.put('/api/user/profile', { name: 'Chan Tai Man' }).expect(200);
  });
});

import { clock } from '../../src/lib/clock';
import { totpCode } from '../../src/modules/two-factor/totp';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { auditRows, confirmPassword, enableTwoFactor, signedIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  // X-Forwarded-For counts from the loopback proxy here, so one test can come from many addresses
  t = await createTestApp({ TRUST_PROXY: 'loopback' });
});
afterAll(() => t.close());
afterEach(() => clock.reset());

/** Moves to the start of a fresh 30 s step, so that codes of neighbouring steps are predictable. */
function freshStep(): void {
  const into = clock.now() % 30_000;
  clock.advance(30_000 - into + 1000);
}

async function passwordStep(email: string, password: string, ip = '10.1.1.1') {
  const c = new Client(t.app);
  await c.refreshToken();
  const res = await c.post('/api/login', { email, password }).set('X-Forwarded-For', ip);
  return { c, res };
}

describe('enrolment', () => {
  it('enables with a secret, an otpauth URL and a QR code, confirms with a code, and shows 8 recovery codes', async () => {
    const { user, client } = await signedIn(t);
    await confirmPassword(client, user.password);
    const enabled = await client.post('/api/user/two-factor-authentication').expect(200);
    expect(enabled.body.secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(enabled.body.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(enabled.body.otpauth_url).toContain(`secret=${enabled.body.secret}`);
    expect(enabled.body.qr_code).toMatch(/^data:image\/png;base64,/);
    // not in force until confirmed
    expect((await client.get('/api/user/two-factor-authentication')).body).toMatchObject({
      enabled: false,
      pending_confirmation: true,
    });
    const row = await t.db('users').where({ id: user.id }).first();
    expect(row.two_factor_secret).toBeTruthy();
    expect(row.two_factor_secret).not.toContain(enabled.body.secret);

    const wrong = await client.post('/api/user/confirmed-two-factor-authentication', { code: '000000' });
    expect(wrong.status).toBe(422);
    const ok = await client
      .post('/api/user/confirmed-two-factor-authentication', { code: totpCode(enabled.body.secret) })
      .expect(200);
    expect(ok.body.recovery_codes).toHaveLength(8);
    expect(new Set(ok.body.recovery_codes).size).toBe(8);
    const stored = (await t.db('users').where({ id: user.id }).first()).two_factor_recovery_codes;
    for (const code of ok.body.recovery_codes) expect(stored).not.toContain(code);
    expect((await client.get('/api/user')).body.user.two_factor_enabled).toBe(true);
  });

  it('needs a recent password confirmation to enable, regenerate and disable (423 otherwise)', async () => {
    const { user, client } = await signedIn(t);
    const res = await client.post('/api/user/two-factor-authentication');
    expect(res.status).toBe(423);
    expect(res.body.code).toBe('password_confirmation_required');
    const wrong = await client.post('/api/user/confirm-password', { password: 'Nope12345' });
    expect(wrong.status).toBe(422);
    expect((await client.get('/api/user/confirmed-password-status')).body.confirmed).toBe(false);
    const { secret } = await enableTwoFactor(client, user.password);
    expect(secret).toBeTruthy();
    // an active session (never idle for long) whose confirmation grows old
    const hour = 60 * 60_000;
    for (let waited = 0; waited <= t.config.session.passwordConfirmMs; waited += hour) {
      clock.advance(hour);
      await client.get('/api/user').expect(200);
    }
    expect((await client.get('/api/user/confirmed-password-status')).body.confirmed).toBe(false);
    expect((await client.post('/api/user/two-factor-recovery-codes')).status).toBe(423);
    expect((await client.delete('/api/user/two-factor-authentication')).status).toBe(423);
    await confirmPassword(client, user.password);
    await client.delete('/api/user/two-factor-authentication').expect(204);
    const row = await t.db('users').where({ id: user.id }).first();
    expect(row.two_factor_secret).toBeNull();
    expect(row.two_factor_confirmed_at).toBeNull();
  });
});

describe('sign-in challenge', () => {
  it('after the password step alone every protected route answers 401; the challenge signs in under a new session id', async () => {
    const admin = await createUser(t.db, { is_admin: true });
    const setup = new Client(t.app);
    await setup.login(admin.email, admin.password);
    const { secret } = await enableTwoFactor(setup, admin.password);

    const { c, res } = await passwordStep(admin.email, admin.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ two_factor: true });
    const pendingCookie = c.cookie();
    await c.refreshToken();
    // every registered route that is not public
    let walked = 0;
    for (const route of t.api.routes.filter((r) => r.access !== 'public')) {
      const url = `/api${route.path.replace(/:[a-z_]+/g, '1')}`;
      const res = route.method === 'get' ? await c.get(url) : await c.send(route.method, url, {});
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
      walked++;
    }
    expect(walked).toBeGreaterThan(30);
    expect((await c.get('/api/heartbeat')).body.auth).toBe(false);

    freshStep();
    const ok = await c.post('/api/two-factor-challenge', { code: totpCode(secret) });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(admin.id);
    expect(c.cookie()).not.toBe(pendingCookie);
    await c.get('/api/users').expect(200);
    // the pre-challenge cookie is not signed in
    const old = new Client(t.app);
    old.agent.jar.setCookie(`sa_session=${pendingCookie}`, '127.0.0.1', '/');
    expect((await old.get('/api/user')).status).toBe(401);
    const audit = await auditRows(t, { entity: 'user', entity_id: admin.id, action: 'login' });
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('accepts a code once: a replay in the same window is refused; one step either side works, two do not', async () => {
    const { user, client } = await signedIn(t);
    const { secret } = await enableTwoFactor(client, user.password);
    freshStep();
    const code = totpCode(secret);
    const first = await passwordStep(user.email, user.password);
    await first.c.refreshToken();
    await first.c.post('/api/two-factor-challenge', { code }).expect(200);
    const replay = await passwordStep(user.email, user.password);
    await replay.c.refreshToken();
    const again = await replay.c.post('/api/two-factor-challenge', { code });
    expect(again.status).toBe(422);
    expect(again.body.errors.code).toBeDefined();

    // the next step's code (clock one step behind on the server) is accepted once
    const next = totpCode(secret, clock.now() + 30_000);
    await replay.c.post('/api/two-factor-challenge', { code: next }).expect(200);

    freshStep();
    freshStep();
    const tooFar = totpCode(secret, clock.now() + 60_000);
    const later = await passwordStep(user.email, user.password);
    await later.c.refreshToken();
    expect((await later.c.post('/api/two-factor-challenge', { code: tooFar })).status).toBe(422);
    const previous = totpCode(secret, clock.now() - 30_000);
    // a step older than the last one used is refused even inside the window
    expect((await later.c.post('/api/two-factor-challenge', { code: previous })).status).toBe(422);
    await later.c.post('/api/two-factor-challenge', { code: totpCode(secret) }).expect(200);
  });

  it('lets exactly one of several parallel challenges spend the same code or recovery code', async () => {
    const { user, client } = await signedIn(t);
    const { secret, recoveryCodes } = await enableTwoFactor(client, user.password);
    freshStep();
    const pending = await Promise.all(
      Array.from({ length: 3 }, (_, i) => passwordStep(user.email, user.password, `10.3.0.${i}`)),
    );
    for (const p of pending) await p.c.refreshToken();
    const code = totpCode(secret);
    const byCode = await Promise.all(pending.map((p) => p.c.post('/api/two-factor-challenge', { code })));
    // (three at once: the throttle's five failures a minute stay out of the way)
    expect(byCode.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    const rest = pending.filter((_, i) => byCode[i].status !== 200);
    const byRecovery = await Promise.all(
      rest.map((p) => p.c.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[5] })),
    );
    expect(byRecovery.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it('takes each recovery code once, and regeneration replaces all 8', async () => {
    const { user, client } = await signedIn(t);
    const { recoveryCodes } = await enableTwoFactor(client, user.password);
    const a = await passwordStep(user.email, user.password);
    await a.c.refreshToken();
    await a.c.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] }).expect(200);
    const b = await passwordStep(user.email, user.password);
    await b.c.refreshToken();
    expect((await b.c.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[0] })).status).toBe(
      422,
    );
    expect((await client.get('/api/user/two-factor-authentication')).body.recovery_codes_left).toBe(7);

    await confirmPassword(client, user.password);
    const regenerated = await client.post('/api/user/two-factor-recovery-codes').expect(200);
    expect(regenerated.body.recovery_codes).toHaveLength(8);
    for (const old of recoveryCodes) expect(regenerated.body.recovery_codes).not.toContain(old);
    expect((await b.c.post('/api/two-factor-challenge', { recovery_code: recoveryCodes[1] })).status).toBe(
      422,
    );
    await b.c
      .post('/api/two-factor-challenge', { recovery_code: regenerated.body.recovery_codes[3] })
      .expect(200);
  });

  it('throttles the challenge at 5 failures a minute per pending user, whatever the IP', async () => {
    const { user, client } = await signedIn(t);
    const { secret } = await enableTwoFactor(client, user.password);
    for (let i = 0; i < 5; i++) {
      const { c } = await passwordStep(user.email, user.password, `10.2.0.${i}`);
      await c.refreshToken();
      const res = await c
        .post('/api/two-factor-challenge', { code: '000000' })
        .set('X-Forwarded-For', `10.2.0.${i}`);
      expect(res.status).toBe(422);
    }
    const { c } = await passwordStep(user.email, user.password, '10.2.9.9');
    await c.refreshToken();
    freshStep();
    const sixth = await c
      .post('/api/two-factor-challenge', { code: totpCode(secret) })
      .set('X-Forwarded-For', '10.2.9.9');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // another user's challenge is not affected
    const other = await signedIn(t);
    const second = await enableTwoFactor(other.client, other.user.password);
    const o = await passwordStep(other.user.email, other.user.password, '10.2.9.9');
    await o.c.refreshToken();
    freshStep();
    await o.c
      .post('/api/two-factor-challenge', { code: totpCode(second.secret) })
      .set('X-Forwarded-For', '10.2.9.9')
      .expect(200);
  });

  it('answers 401 to a challenge without a password step, and audits 2FA changes without codes or secrets', async () => {
    const c = new Client(t.app);
    await c.refreshToken();
    expect((await c.post('/api/two-factor-challenge', { code: '123456' })).status).toBe(401);
    const { user, client } = await signedIn(t);
    const { secret, recoveryCodes } = await enableTwoFactor(client, user.password);
    const rows = await auditRows(t, { entity: 'user', entity_id: user.id });
    const actions = rows.map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['two_factor_enabling', 'two_factor_enabled']));
    for (const r of rows) {
      const text = String(r.changes);
      expect(text).not.toContain(secret);
      for (const code of recoveryCodes) expect(text).not.toContain(code);
    }
  });
});

describe('require 2FA for all staff', () => {
  it('lets an account without 2FA reach only its profile’s 2FA setup until it has enrolled', async () => {
    const admin = await signedInAdmin(t);
    const { user, client } = await signedIn(t, { permissions: ['users.view'] });
    await admin.put('/api/settings/accounts', { require_two_factor: true }).then((r) => {
      // the admin has no 2FA either: the setting itself is outside the setup routes, so it is refused next time
      expect(r.status).toBe(200);
    });
    try {
      const denied = await client.get('/api/users');
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('two_factor_required');
      const audit = await auditRows(t, { action: 'permission_denied', actor_id: user.id });
      expect(JSON.parse(audit[audit.length - 1].changes)).toMatchObject({
        permission: 'two_factor_required',
      });
      expect((await client.get('/api/user').expect(200)).body.two_factor_setup_required).toBe(true);
      await client.get('/api/user/profile').expect(200);
      await enableTwoFactor(client, user.password);
      await client.get('/api/users').expect(200);
      expect((await client.get('/api/user')).body.two_factor_setup_required).toBe(false);
      expect((await admin.get('/api/settings/accounts')).status).toBe(403);
    } finally {
      await t.db('settings').where({ key: 'require_two_factor' }).update({ value: 'false' });
    }
  });
});

describe('admin reset of a user’s 2FA', () => {
  it('lets an admin (or a users manager, for non-admins) switch off a user’s 2FA; the next sign-in needs no code', async () => {
    const { user, client } = await signedIn(t);
    await enableTwoFactor(client, user.password);
    const manager = await signedIn(t, { permissions: ['users.view', 'users.update'] });
    const adminUser = await signedIn(t, { is_admin: true });
    await enableTwoFactor(adminUser.client, adminUser.user.password);
    expect(
      (await manager.client.delete(`/api/users/${adminUser.user.id}/two-factor-authentication`)).status,
    ).toBe(403);
    await manager.client.delete(`/api/users/${user.id}/two-factor-authentication`).expect(204);
    const again = await passwordStep(user.email, user.password);
    expect(again.res.body.user.id).toBe(user.id);
    const rows = await auditRows(t, { entity: 'user', entity_id: user.id, action: 'two_factor_disabled' });
    expect(rows[0].actor_id).toBe(manager.user.id);
  });
});

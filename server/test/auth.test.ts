import { MESSAGES } from '../../shared/errors';
import { clock } from '../src/lib/clock';
import { sha256 } from '../src/lib/crypto';
import { Client, PORTAL_HOST, createStudent, createTestApp, createUser, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => clock.reset());

describe('staff sign-in', () => {
  it('answers the heartbeat without a session, and never with 401', async () => {
    const res = await new Client(t.app).get('/api/heartbeat').expect(200);
    expect(res.body).toEqual({ auth: false });
  });

  it('signs in with the CSRF token, then the heartbeat and /api/user see the user', async () => {
    const user = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    const res = await c.login(user.email, user.password);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: user.id,
      email: user.email,
      is_admin: false,
      permissions: ['settings.view'],
    });
    expect((await c.get('/api/heartbeat')).body).toEqual({ auth: true });
    expect((await c.get('/api/user').expect(200)).body.user.id).toBe(user.id);
  });

  it('refuses a login without the CSRF token', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    const res = await c.post('/api/login', { email: user.email, password: user.password });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf');
  });

  it('answers a wrong password with the spec message on the email field', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    const res = await c.login(user.email, 'Wrong1234');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(MESSAGES.credentials);
    expect(res.body.errors.email).toEqual([MESSAGES.credentials]);
    expect((await c.get('/api/heartbeat')).body.auth).toBe(false);
  });

  it('answers an unknown address exactly like a wrong password', async () => {
    const c = new Client(t.app);
    const res = await c.login('nobody@example.com', 'Whatever1');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(MESSAGES.credentials);
  });

  it('does not let an inactive user sign in', async () => {
    const user = await createUser(t.db, { is_active: false });
    const c = new Client(t.app);
    const res = await c.login(user.email, user.password);
    expect(res.status).toBe(422);
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('checks the email with the spec message and refuses unknown fields', async () => {
    const c = new Client(t.app);
    await c.refreshToken();
    const bad = await c.post('/api/login', { email: 'not-an-email', password: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.email).toEqual([MESSAGES.invalidEmail]);
    const extra = await c.post('/api/login', { email: 'a@example.com', password: 'x', is_admin: true });
    expect(extra.status).toBe(422);
    expect(Object.keys(extra.body.errors)).toEqual(['is_admin']);
  });

  it('audits a successful and a failed login without the password', async () => {
    const user = await createUser(t.db);
    await new Client(t.app).login(user.email, 'Wrong1234');
    await new Client(t.app).login(user.email, user.password);
    const rows = await t.db('audit_logs').where({ entity: 'user', entity_id: user.id }).orderBy('id');
    expect(rows.map((r) => r.action)).toEqual(['login_failed', 'login']);
    for (const row of rows) {
      expect(String(row.changes)).not.toContain('Wrong1234');
      expect(row.ip).toBeTruthy();
    }
  });
});

describe('session identity', () => {
  it('changes the session id at login, so a planted pre-login id never becomes authenticated', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.refreshToken();
    // a session id planted in the victim's browser before it signs in
    const before = 's%3Aplanted-session-id.c2lnbmF0dXJl';
    c.agent.jar.setCookie(`sa_session=${before}`, '127.0.0.1', '/');
    await c.post('/api/login', { email: user.email, password: user.password }).expect(200);
    const after = c.cookie();
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);

    // the attacker kept the pre-login cookie: it is not signed in
    const attacker = new Client(t.app);
    attacker.agent.jar.setCookie(`sa_session=${before}`, '127.0.0.1', '/');
    expect((await attacker.get('/api/heartbeat')).body.auth).toBe(false);
    expect((await attacker.get('/api/user')).status).toBe(401);
  });

  it('keeps a browser-session row in step and ends the session at logout; a replayed cookie answers 401', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    const cookie = c.cookie()!;
    expect(await t.db('user_sessions').where({ user_id: user.id }).count({ n: '*' }).first()).toMatchObject({
      n: 1,
    });
    await c.post('/api/logout').expect(204);
    expect(await t.db('user_sessions').where({ user_id: user.id }).count({ n: '*' }).first()).toMatchObject({
      n: 0,
    });
    const replay = new Client(t.app);
    replay.agent.jar.setCookie(`sa_session=${cookie}`, '127.0.0.1', '/');
    expect((await replay.get('/api/user')).status).toBe(401);
  });

  it('ends a session at once when its browser-session row is removed', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    await c.get('/api/user').expect(200);
    await t.db('user_sessions').where({ user_id: user.id }).delete();
    const res = await c.get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.timeout).toBeUndefined();
  });

  it('ends the session of a user who is deactivated', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    await t.db('users').where({ id: user.id }).update({ is_active: false });
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('survives a restart of the app (same database and store)', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    const restarted = t.restart();
    const again = new Client(restarted.app);
    again.agent.jar.setCookie(`sa_session=${c.cookie()}`, '127.0.0.1', '/');
    expect((await again.get('/api/user').expect(200)).body.user.id).toBe(user.id);
  });
});

describe('timeouts', () => {
  it('answers 401 with the timeout flag after the idle timeout, measured on the server', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    clock.advance(t.config.session.idleMs - 60_000);
    await c.get('/api/user').expect(200);
    clock.advance(t.config.session.idleMs + 1000);
    const res = await c.get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ timeout: true, message: MESSAGES.sessionExpired });
    expect(await t.db('user_sessions').where({ user_id: user.id }).first()).toBeUndefined();
  });

  it('keeps saying the session expired, whichever call comes first, until the next sign-in', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    clock.advance(t.config.session.idleMs + 1000);
    expect((await c.get('/api/heartbeat').expect(200)).body).toEqual({ auth: false, timeout: true });
    expect((await c.get('/api/app-config')).status).toBe(200);
    const res = await c.get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.timeout).toBe(true);
    clock.reset();
    await c.login(user.email, user.password);
    expect((await c.get('/api/heartbeat')).body).toEqual({ auth: true });
    await c.get('/api/user').expect(200);
  });

  it('does not let the heartbeat keep an idle session alive', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    for (let i = 0; i < 4; i++) {
      clock.advance(t.config.session.idleMs / 3);
      await c.get('/api/heartbeat').expect(200);
    }
    const res = await c.get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.timeout).toBe(true);
  });

  it('ends a busy session at the absolute lifetime', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    const step = t.config.session.idleMs / 2;
    let elapsed = 0;
    while (elapsed + step < t.config.session.absoluteMs) {
      clock.advance(step);
      elapsed += step;
      await c.get('/api/user').expect(200);
    }
    clock.advance(step);
    const res = await c.get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.timeout).toBe(true);
  });
});

describe('login throttling', () => {
  const attempt = (email: string, password = 'Wrong1234', ip = '10.0.0.1') => {
    const c = new Client(t.app);
    return c.refreshToken().then(() => c.post('/api/login', { email, password }).set('X-Forwarded-For', ip));
  };

  it('answers the 6th failure within a minute with 429 and Retry-After', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 5; i++) expect((await attempt(user.email)).status).toBe(422);
    const sixth = await attempt(user.email);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // even the right password is refused while throttled
    expect((await attempt(user.email, user.password)).status).toBe(429);
  });

  it('counts look-alike spellings of one address together', async () => {
    const user = await createUser(t.db, { email: 'alike@example.com' });
    const spellings = [
      'ALIKE@example.com',
      'Alike@Example.com',
      'ａｌｉｋｅ@example.com',
      'alike@EXAMPLE.COM',
      ' alike@example.com',
    ];
    for (const s of spellings) await attempt(s.trim());
    expect((await attempt(user.email)).status).toBe(429);
  });

  it('clears the counter on a successful login', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 4; i++) await attempt(user.email);
    expect((await attempt(user.email, user.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await attempt(user.email)).status).toBe(422);
    expect((await attempt(user.email)).status).toBe(429);
  });
});

describe('two front ends, one server', () => {
  it('signs a student in on the portal host with the portal message for a wrong password', async () => {
    const student = await createStudent(t.db);
    const portal = new Client(t.app, PORTAL_HOST);
    const wrong = await portal.login(student.email, 'Nope12345');
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe(MESSAGES.portalCredentials);
    const ok = await portal.login(student.email, student.password);
    expect(ok.status).toBe(200);
    expect(ok.body.student.id).toBe(student.id);
    const me = await portal.get('/api/student').expect(200);
    expect(me.body.id).toBe(student.id);
    expect(me.body.portal_password_hash).toBeUndefined();
  });

  it('refuses a portal session on staff routes, and a staff session on portal routes', async () => {
    const student = await createStudent(t.db);
    const portal = new Client(t.app, PORTAL_HOST);
    await portal.login(student.email, student.password);
    const asStaff = new Client(t.app);
    asStaff.agent.jar.setCookie(`sa_session=${portal.cookie()}`, '127.0.0.1', '/');
    expect((await asStaff.get('/api/user')).status).toBe(401);
    expect((await asStaff.get('/api/holidays')).status).toBe(401);

    const user = await createUser(t.db, { is_admin: true });
    const staff = new Client(t.app);
    await staff.login(user.email, user.password);
    const onPortal = new Client(t.app, PORTAL_HOST);
    onPortal.agent.jar.setCookie(`sa_session=${staff.cookie()}`, '127.0.0.1', '/');
    expect((await onPortal.get('/api/student')).status).toBe(401);
    expect((await onPortal.get('/api/heartbeat')).body.auth).toBe(false);
  });

  it('does not sign staff in on the portal host', async () => {
    const user = await createUser(t.db);
    const portal = new Client(t.app, PORTAL_HOST);
    expect((await portal.login(user.email, user.password)).status).toBe(422);
  });

  it('serves the portal entry on student.* and the back-office elsewhere', async () => {
    const office = await new Client(t.app).get('/students/basic/1').expect(200);
    expect(office.text).toContain('back-office');
    const portal = await new Client(t.app, PORTAL_HOST).get('/index').expect(200);
    expect(portal.text).toContain('portal');
  });
});

it('stores only a hash of the session id', async () => {
  const user = await createUser(t.db);
  const c = new Client(t.app);
  await c.login(user.email, user.password);
  const row = await t.db('user_sessions').where({ user_id: user.id }).first();
  const sid = decodeURIComponent(c.cookie()!).slice(2).split('.')[0];
  expect(row.session_id_hash).toBe(sha256(sid));
});

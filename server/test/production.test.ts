import { messageEnglish } from '../../shared/messages';
import { logger } from '../src/lib/logger';
import { Client, createTestApp, createUser, type TestApp } from './harness';

const KEY = `base64:${Buffer.alloc(32, 1).toString('base64')}`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    NODE_ENV: 'production',
    SESSION_SECRET: 's'.repeat(40),
    APP_KEY: KEY,
    TRUST_PROXY: 'loopback',
    BCRYPT_COST: '10',
  });
});
afterAll(() => t.close());

it('marks the cookies Secure and sends HSTS in production, behind a TLS-terminating trusted proxy', async () => {
  const user = await createUser(t.db);
  const c = new Client(t.app);
  const token = await c.get('/api/csrf-token').set('X-Forwarded-Proto', 'https').expect(200);
  expect(String(token.headers['set-cookie'])).toMatch(/^sa_csrf=.*Secure/);
  expect(token.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  c.token = token.body.token;
  // the test's cookie jar keeps a Secure cookie to itself over plain HTTP: hand it on as the browser would
  const csrfCookie = String(token.headers['set-cookie']).split(';')[0];
  const login = await c
    .post('/api/login', { email: user.email, password: user.password })
    .set('X-Forwarded-Proto', 'https')
    .set('Cookie', csrfCookie)
    .expect(200);
  expect(String(login.headers['set-cookie'])).toMatch(/sa_session=.*Secure/);
});

describe('sign-in over plain HTTP while the cookies are Secure', () => {
  afterEach(() => jest.restoreAllMocks());

  /** A refusal saying HTTPS is needed: 403 `https_required`, its catalogued message, and no cookie set. */
  const expectHttpsRequired = (res: { status: number; body: any; headers: Record<string, any> }) => {
    expect({ status: res.status, code: res.body.code, key: res.body.message_key }).toEqual({
      status: 403,
      code: 'https_required',
      key: 'httpsRequired',
    });
    expect(res.body.message).toBe(messageEnglish({ key: 'httpsRequired' }));
    expect(res.body.message).toMatch(/HTTPS/);
    expect(String(res.headers['set-cookie'] ?? '')).toBe('');
  };

  it('answers the token call and the sign-in (staff and portal, localhost or a named host) with https_required, logged once', async () => {
    const warn = jest.spyOn(logger, 'warn');
    const user = await createUser(t.db);
    for (const host of ['localhost:3000', 'admin.agency.test', 'student.localhost:3000']) {
      const c = new Client(t.app, host);
      expectHttpsRequired(await c.get('/api/csrf-token'));
      // a client that sends a token anyway hears the same, not "CSRF token mismatch", and no session is made
      c.token = 'x'.repeat(43);
      const login = await c
        .post('/api/login', { email: user.email, password: user.password })
        .set('Cookie', `sa_csrf=${'x'.repeat(43)}`);
      expectHttpsRequired(login);
    }
    // the operator reads why, once for the flood, naming the fixes
    const lines = warn.mock.calls.filter(([message]) => String(message).includes('HTTPS'));
    expect(lines).toHaveLength(1);
    expect(String(lines[0][0])).toMatch(/COOKIE_SECURE=false/);
    expect(String(lines[0][0])).toMatch(/TRUST_PROXY/);
    // anything else over plain HTTP answers as before (the heartbeat, a signed-out user)
    const c = new Client(t.app);
    expect((await c.get('/api/heartbeat')).status).toBe(200);
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('believes X-Forwarded-Proto only from the trusted proxy', async () => {
    const direct = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      APP_KEY: KEY,
      BCRYPT_COST: '10',
    });
    try {
      // no TRUST_PROXY: the header is anyone's, and the request is still plain HTTP
      const res = await new Client(direct.app).get('/api/csrf-token').set('X-Forwarded-Proto', 'https');
      expectHttpsRequired(res);
    } finally {
      await direct.close();
    }
    // behind the trusted proxy (loopback here) it is believed
    const behind = await new Client(t.app).get('/api/csrf-token').set('X-Forwarded-Proto', 'https');
    expect(behind.status).toBe(200);
  });
});

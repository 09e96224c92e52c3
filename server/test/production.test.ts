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

it('sets no session cookie over plain HTTP in production', async () => {
  const user = await createUser(t.db);
  const c = new Client(t.app);
  await c.refreshToken();
  const login = await c.post('/api/login', { email: user.email, password: user.password });
  expect(String(login.headers['set-cookie'] ?? '')).not.toMatch(/sa_session=/);
});

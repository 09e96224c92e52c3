import { Client, createTestApp, type TestApp } from './harness';

const KEY = `base64:${Buffer.alloc(32, 1).toString('base64')}`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    NODE_ENV: 'production',
    SESSION_SECRET: 's'.repeat(40),
    APP_KEY: KEY,
    TRUST_PROXY: 'loopback',
  });
});
afterAll(() => t.close());

it('marks the cookie Secure and sends HSTS in production, behind a TLS-terminating trusted proxy', async () => {
  const res = await new Client(t.app).get('/api/csrf-token').set('X-Forwarded-Proto', 'https').expect(200);
  expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
  expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
});

it('sets no session cookie over plain HTTP in production', async () => {
  const res = await new Client(t.app).get('/api/csrf-token').expect(200);
  expect(res.headers['set-cookie']).toBeUndefined();
});

import { Client, createTestApp, createUser, type TestApp } from './harness';

async function failLogin(t: TestApp, email: string, forwardedFor?: string) {
  const c = new Client(t.app);
  await c.refreshToken();
  const req = c.post('/api/login', { email, password: 'Wrong1234' });
  if (forwardedFor) req.set('X-Forwarded-For', forwardedFor);
  return req;
}

describe('without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a spoofed address per attempt does not escape the throttle', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 5; i++) expect((await failLogin(t, user.email, `203.0.113.${i}`)).status).toBe(422);
    expect((await failLogin(t, user.email, '198.51.100.7')).status).toBe(429);
  });
});

describe('per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('blocks an address after 100 failures in a day, whatever the accounts', async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => createUser(t.db)));
    for (const user of users) {
      for (let i = 0; i < 5; i++) expect((await failLogin(t, user.email)).status).toBe(422);
    }
    const fresh = await createUser(t.db);
    const res = await failLogin(t, fresh.email);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3600);
  });
});

describe('behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  it('counts each client address the proxy reports on its own', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 5; i++) expect((await failLogin(t, user.email, '203.0.113.1')).status).toBe(422);
    expect((await failLogin(t, user.email, '203.0.113.1')).status).toBe(429);
    expect((await failLogin(t, user.email, '203.0.113.2')).status).toBe(422);
  });
});

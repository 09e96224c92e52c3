import { Client, createTestApp, signedInAdmin, type TestApp } from './harness';

let t: TestApp;
/** every route walked, several requests each (over 350 routes): more than the default 30 s on a busy machine */
const WALK_MS = 180_000;
let admin: Client;
let other: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  other = await signedInAdmin(t);
});
afterAll(() => t.close());

const concrete = (path: string) => `/api${path.replace(/:[a-z_]+/g, '1')}`;

describe('CSRF (quality §17)', () => {
  it(
    'refuses every state-changing route reached with a session cookie but a missing, wrong, foreign or cross-site token',
    async () => {
      const unsafe = t.api.routes.filter((r) => r.method !== 'get');
      expect(unsafe.length).toBeGreaterThan(0);
      let covered = 0;
      for (const route of unsafe) {
        const url = concrete(route.path);
        const key = `${route.method} ${route.path}`;
        const missing = await admin.agent[route.method](url).set('Host', admin.host).send({});
        const wrong = await admin.agent[route.method](url)
          .set('Host', admin.host)
          .set('X-CSRF-Token', 'x'.repeat(64))
          .send({});
        const foreign = await admin.agent[route.method](url)
          .set('Host', admin.host)
          .set('X-CSRF-Token', other.token)
          .send({});
        const crossSite = await admin.agent[route.method](url)
          .set('Host', admin.host)
          .set('X-CSRF-Token', admin.token)
          .set('Origin', 'https://evil.example')
          .send({});
        const fetchSite = await admin.agent[route.method](url)
          .set('Host', admin.host)
          .set('X-CSRF-Token', admin.token)
          .set('Sec-Fetch-Site', 'cross-site')
          .send({});
        expect({
          key,
          statuses: [missing, wrong, foreign, crossSite, fetchSite].map((r) => r.status),
        }).toEqual({
          key,
          statuses: [403, 403, 403, 403, 403],
        });
        covered++;
      }
      // and the session is still signed in: none of the refused requests did anything
      expect((await admin.get('/api/heartbeat')).body.auth).toBe(true);
      console.log(`CSRF enumeration: ${covered} state-changing routes refused without the session's token`);
    },
    WALK_MS,
  );

  it('accepts the session token from the same origin', async () => {
    const res = await admin
      .post('/api/holidays', { date: '2031-01-01', name_en: 'New Year', name_zh: '元旦' })
      .set('Origin', `http://${admin.host}`)
      .set('Sec-Fetch-Site', 'same-origin');
    expect(res.status).toBe(201);
  });
});

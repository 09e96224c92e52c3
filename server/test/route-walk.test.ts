import { Client, createTestApp, signedInAdmin, type TestApp } from './harness';

let t: TestApp;
/** every route walked, several requests each (over 350 routes): more than the default 30 s on a busy machine */
const WALK_MS = 180_000;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Fills `:id`-style parameters with a plausible value. */
const concrete = (path: string) => `/api${path.replace(/:[a-z_]+/g, '1')}`;

/** Routes anyone may call, by design (api.md "Authentication"). */
const PUBLIC = new Set([
  'get /heartbeat',
  'get /csrf-token',
  'get /app-config',
  'post /login',
  'post /logout',
  // accounts (issue 4): the second sign-in step, password reset, registration, email verification links
  'post /two-factor-challenge',
  'post /forgot-password',
  'post /reset-password',
  'post /register',
  'post /email/verify',
  // students (issue 13): the portal's set-password with an invitation link (portal host only; 404 elsewhere)
  'post /password/set',
]);

describe('route walk (quality §13)', () => {
  it(
    'answers 401 without credentials on every /api route that is not on the public list',
    async () => {
      const routes = t.api.routes;
      expect(routes.length).toBeGreaterThan(10);
      let checked = 0;
      for (const route of routes) {
        const key = `${route.method} ${route.path}`;
        if (PUBLIC.has(key)) {
          expect(route.access).toBe('public');
          continue;
        }
        expect(route.access).not.toBe('public');
        const c = new Client(t.app);
        // a token of an anonymous session: CSRF passes, so the answer is about authentication
        await c.refreshToken();
        const url = concrete(route.path);
        const anon = route.method === 'get' ? await c.get(url) : await c.send(route.method, url, {});
        expect({ route: key, status: anon.status }).toEqual({ route: key, status: 401 });
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
      console.log(
        `route walk: ${checked} protected routes answered 401 without credentials (${routes.length} routes registered)`,
      );
    },
    WALK_MS,
  );

  it('knows every public route it allows', () => {
    const registeredPublic = t.api.routes
      .filter((r) => r.access === 'public')
      .map((r) => `${r.method} ${r.path}`);
    expect(registeredPublic.sort()).toEqual([...PUBLIC].sort());
  });

  it(
    'does not change state on GET: every GET leaves the audit log and row counts as they were',
    async () => {
      const admin = await signedInAdmin(t);
      const count = async () => Number((await t.db('audit_logs').count({ n: '*' }).first())?.n);
      const before = await count();
      for (const route of t.api.routes.filter((r) => r.method === 'get'))
        await admin.get(concrete(route.path));
      expect(await count()).toBe(before);
    },
    WALK_MS,
  );
});

import inject from 'light-my-request';

// light-my-request's own `cookie` is ESM only (jest runs CommonJS): it is used only for the `cookies` option,
// which this test does not use (the session cookie goes in the Cookie header)
jest.mock('../../node_modules/light-my-request/node_modules/cookie/dist/index.js', () => ({
  stringifySetCookie: () => {
    throw new Error('the cookies option is not used here');
  },
}));
import { createTestApp, signedInAdmin, STAFF_HOST, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'loopback' });
});
afterAll(() => t.close());

it('probe', async () => {
  const admin = await signedInAdmin(t);
  const cookie = `sa_session=${admin.cookie()}`;
  const writes = t.api.routes.filter((r) => r.method !== 'get');
  console.log(writes.map((r) => `${r.method} ${r.path} ${r.access} ${r.permission ?? ''}`).join('\n'));
  const time = async (label: string, payload: string, url = '/api/holidays', extra: Record<string, string> = {}) => {
    const started = Date.now();
    const statuses: Record<string, number> = {};
    for (let i = 0; i < 500; i++) {
      const res = await inject(t.app as any, {
        method: 'POST',
        url,
        headers: { host: STAFF_HOST, cookie, 'x-csrf-token': admin.token, 'content-type': 'application/json', ...extra },
        payload,
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
    console.log(label, statuses, Date.now() - started, 'ms');
  };
  await time('warm', '{}');
  await time('invalid json', '{');
  await time('valid {}', '{}');
  await time('no cookie', '{}', '/api/holidays', { cookie: '' });
  await time('heartbeat', '{}', '/api/heartbeat');
});

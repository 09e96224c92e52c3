import Transport from 'winston-transport';
import { msg } from '../../shared/messages';
import { AppError } from '../src/lib/app-error';
import { logger } from '../src/lib/logger';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // routes that exist only in this test, to prove the error mapping
  t.api.add({
    method: 'get',
    path: '/__test/boom',
    access: 'public',
    handler: () => {
      throw new Error("SELECT * FROM users WHERE password = 'x' -- secret detail");
    },
  });
  t.api.add({
    method: 'get',
    path: '/__test/refused',
    access: 'public',
    handler: () => {
      throw new AppError('referenced', msg('stillUsedBy', { entity: 'school', references: '3 subjects' }), {
        references: { subjects: 3 },
      });
    },
  });
});
afterAll(() => t.close());

describe('errors', () => {
  it('answers 500 with no detail: no stack, no SQL', async () => {
    const res = await new Client(t.app).get('/api/__test/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Server Error', code: 'internal', message_key: 'server' });
    expect(res.text).not.toMatch(/SELECT|stack|at /);
  });

  it('maps AppError codes to statuses and bodies once', async () => {
    const res = await new Client(t.app).get('/api/__test/refused');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: 'This school is still used by 3 subjects.',
      code: 'referenced',
      message_key: 'stillUsedBy',
      message_params: { entity: 'school', references: '3 subjects' },
      references: { subjects: 3 },
    });
  });

  it('answers unknown API paths with a JSON 404 and bad JSON with 422', async () => {
    const res = await new Client(t.app).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const c = new Client(t.app);
    await c.refreshToken();
    const bad = await c.agent
      .post('/api/login')
      .set('Host', c.host)
      .set('X-CSRF-Token', c.token)
      .set('Content-Type', 'application/json')
      .send('{"email": ');
    expect(bad.status).toBe(422);
  });
});

describe('headers (quality §18)', () => {
  it('sends a strict CSP, nosniff, no X-Powered-By, and no-store on API answers', async () => {
    const admin = await signedInAdmin(t);
    const res = await admin.get('/api/holidays').expect(200);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, host-only, under its own name', async () => {
    const user = await createUser(t.db);
    const c = new Client(t.app);
    await c.refreshToken();
    const res = await c.post('/api/login', { email: user.email, password: user.password }).expect(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sa_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).not.toMatch(/Secure/i); // Secure in production only; see the production test
  });
});

describe('logging', () => {
  it('puts the request id on every log line of a request', async () => {
    const lines: Record<string, unknown>[] = [];
    const capture = new (class extends Transport {
      override log(info: Record<string, unknown>, next: () => void) {
        lines.push(info);
        next();
      }
    })();
    const wasSilent = logger.silent;
    const level = logger.level;
    // hear every line, but only through the capturing transport (the console stays quiet)
    const quiet = logger.transports.map((transport) => [transport, transport.silent] as const);
    for (const [transport] of quiet) transport.silent = true;
    logger.silent = false;
    logger.level = 'debug';
    logger.add(capture);
    try {
      const res = await new Client(t.app).get('/api/__test/boom');
      const id = res.headers['x-request-id'];
      expect(id).toBeTruthy();
      const mine = lines.filter((l) => l.request_id === id);
      expect(mine.length).toBeGreaterThanOrEqual(2); // the error and the access line
      expect(lines.filter((l) => !l.request_id)).toEqual([]);
      expect(mine.some((l) => String(l.error ?? '').includes('secret detail'))).toBe(true);
    } finally {
      logger.remove(capture);
      for (const [transport, silent] of quiet) transport.silent = silent;
      logger.silent = wasSilent;
      logger.level = level;
    }
  });
});

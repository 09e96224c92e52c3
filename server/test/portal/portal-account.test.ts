/**
 * The portal account (issue 14, deliverable 1): a forgotten password on the portal host (the staff reset's neutral
 * answer for known and unknown addresses, its throttle, a `reset` portal link mailed through SMTP in the student's
 * language, spent once by `POST /api/password/set`), changing the password (the current one checked, the spec's
 * rules, the must-change flag cleared, other sessions ended), the must-change gate (403 on every portal route but
 * the account's own until the password is changed), and the language kept in the student's row.
 */
import { clock } from '../../src/lib/clock';
import { logger } from '../../src/lib/logger';
import { RESET_SENT } from '../../src/modules/password-reset/password-reset.service';
import { Client, PORTAL_HOST, createTestApp, type TestApp } from '../harness';
import { TestSmtp } from '../accounts/helpers';
import { portalStudent } from './portal-helpers';

let smtp: TestSmtp;
let t: TestApp;

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  t = await createTestApp({ ...smtp.env(), APP_URL: 'https://office.example.com' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
afterEach(() => clock.reset());

async function portalClient(ip: string): Promise<Client> {
  const c = new Client(t.app, PORTAL_HOST);
  const send = c.send.bind(c);
  c.send = (method, url, body) => send(method, url, body).set('X-Forwarded-For', ip);
  await c.refreshToken();
  return c;
}

describe('forgot password on the portal host', () => {
  it('tells a visitor nothing about the mail setup: without SMTP the same answer, the reason logged', async () => {
    const bare = await createTestApp({ APP_URL: 'https://office.example.com' });
    const warn = jest.spyOn(logger, 'warn');
    try {
      const s = await portalStudent(bare);
      const c = new Client(bare.app, PORTAL_HOST);
      await c.refreshToken();
      const res = await c.post('/api/forgot-password', { email: s.email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: RESET_SENT });
      await bare.background.flush();
      expect(warn).toHaveBeenCalledWith(
        'portal password reset link not sent: SMTP is not configured',
        expect.objectContaining({ student_id: s.id }),
      );
    } finally {
      warn.mockRestore();
      await bare.close();
    }
  });

  it('answers alike for known and unknown addresses, mails a single-use portal link in the student’s language', async () => {
    const s = await portalStudent(t);
    await t.db('students').where({ id: s.id }).update({ language: 'zh_HK' });
    const c = await portalClient('10.1.0.1');
    const known = await c.post('/api/forgot-password', { email: s.email.toUpperCase() });
    const unknown = await c.post('/api/forgot-password', { email: 'nobody-here@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    await t.background.flush();
    expect(smtp.for('nobody-here@example.com')).toHaveLength(0);
    const mail = await smtp.waitFor(s.email);
    expect(mail.subject).not.toBe('Reset your password'); // the student's language (zh_HK)
    const m = /(https?:\/\/\S+\/password\/reset\?\S+)/.exec(mail.text);
    expect(m).not.toBeNull();
    const url = new URL(m![1]);
    expect(url.origin).toBe('https://student.office.example.com');
    const token = url.searchParams.get('token')!;
    const [stored] = await t.db('student_portal_tokens').where({ student_id: s.id, purpose: 'reset' });
    expect(stored.token_hash).not.toBe(token);
    // a staff account's reset is untouched
    expect(await t.db('password_reset_tokens').where({ email: s.email })).toEqual([]);

    // throttled like staff: one request per address a minute
    const again = await c.post('/api/forgot-password', { email: s.email });
    expect(again.status).toBe(429);

    const set = await c.post('/api/password/set', {
      token,
      password: 'Forgot123',
      password_confirmation: 'Forgot123',
    });
    expect(set.status).toBe(200);
    expect(
      (
        await c.post('/api/password/set', {
          token,
          password: 'Again1234',
          password_confirmation: 'Again1234',
        })
      ).status,
    ).toBe(422);
    expect((await new Client(t.app, PORTAL_HOST).login(s.email, 'Forgot123')).status).toBe(200);
  });

  it('expires the link after 60 minutes', async () => {
    const s = await portalStudent(t);
    const c = await portalClient('10.1.0.2');
    await c.post('/api/forgot-password', { email: s.email }).expect(200);
    const mail = await smtp.waitFor(s.email);
    const token = new URL(/(https?:\/\/\S+\/password\/reset\?\S+)/.exec(mail.text)![1]).searchParams.get(
      'token',
    )!;
    clock.advance(61 * 60_000);
    const late = await c.post('/api/password/set', {
      token,
      password: 'Late12345',
      password_confirmation: 'Late12345',
    });
    expect(late.status).toBe(422);
    expect(late.body.error_keys.token[0].key).toBe('portalLinkInvalid');
  });
});

describe('change password and the must-change gate', () => {
  it('keeps a student with a password staff chose to the account routes until it is changed', async () => {
    const s = await portalStudent(t);
    await t.db('students').where({ id: s.id }).update({ portal_must_change_password: true });
    const other = new Client(t.app, PORTAL_HOST);
    await other.login(s.email, s.password);
    const c = s.client;
    const gated = t.api.routes.filter(
      (r) =>
        r.access === 'student' && !['/student', '/student/password', '/student/language'].includes(r.path),
    );
    expect(gated.length).toBeGreaterThanOrEqual(20);
    const answers: string[] = [];
    for (const route of gated) {
      const url = `/api${route.path.replace(/:[A-Za-z_]+/g, '1')}`;
      const res = route.method === 'get' ? await c.get(url) : await c.send(route.method, url, {});
      answers.push(`${route.method} ${route.path} ${res.status} ${res.body.message_key}`);
    }
    expect(answers).toEqual(gated.map((r) => `${r.method} ${r.path} 403 portalMustChangePassword`));
    expect((await c.get('/api/student').expect(200)).body.must_change_password).toBe(true);
    await c.put('/api/student/language', { language: 'en' }).expect(200);
    await c.get('/api/heartbeat').expect(200);

    const wrong = await c.put('/api/student/password', {
      current_password: 'Wrong1234',
      password: 'Better123',
      password_confirmation: 'Better123',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error_keys.current_password[0].key).toBe('currentPasswordWrong');
    const weak = await c.put('/api/student/password', {
      current_password: s.password,
      password: 'weakpass',
      password_confirmation: 'weakpass',
    });
    expect(weak.status).toBe(422);
    const changed = await c.put('/api/student/password', {
      current_password: s.password,
      password: 'Better123',
      password_confirmation: 'Better123',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.message_key).toBe('passwordUpdated');
    const row = await t.db('students').where({ id: s.id }).first();
    expect(Boolean(row.portal_must_change_password)).toBe(false);
    // this session goes on, the other one ended
    await c.get('/api/family').expect(200);
    expect((await other.get('/api/student')).status).toBe(401);
    const relogin = await new Client(t.app, PORTAL_HOST).login(s.email, 'Better123');
    expect(relogin.body.must_change_password).toBe(false);
  });

  it('keeps the language in the student’s row', async () => {
    const s = await portalStudent(t);
    const res = await s.client.put('/api/student/language', { language: 'zh_HK' }).expect(200);
    expect(res.body.language).toBe('zh_HK');
    expect((await t.db('students').where({ id: s.id }).first()).language).toBe('zh_HK');
    expect((await s.client.put('/api/student/language', { language: 'ko' })).status).toBe(422);
  });
});

/**
 * Portal access, staff side (issue 13, deliverable 8): the invitation mail through a real SMTP server with its
 * single-use, expiring set-password link (spent on the portal host), a first password staff set that the portal's
 * sign-in asks the student to change, reopening a submitted student (audited, 409 when nothing was submitted), and
 * the routes' permission (403 without `students.update`) and branch scope (404 outside it).
 */
import { MESSAGES } from '../../../shared/errors';
import { clock, toDbDateTime } from '../../src/lib/clock';
import { Client, PORTAL_HOST, createTestApp, signedInAdmin, type TestApp } from '../harness';
import { auditRows, TestSmtp } from '../accounts/helpers';
import { signIn } from '../resources/helpers';
import { branch, count, createStudentVia, nextSeq } from './students-helpers';

type Row = Record<string, any>;

let smtp: TestSmtp;
let t: TestApp;
let admin: Client;

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  t = await createTestApp({ ...smtp.env(), APP_URL: 'https://office.example.com' });
  admin = await signedInAdmin(t);
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
afterEach(() => {
  clock.reset();
  smtp.refuse = false;
});

/** A student with portal access on and a portal email (lower-case), in the given language. */
async function portalStudent(extra: Row = {}): Promise<Row> {
  const b = await branch(t);
  const n = nextSeq();
  return createStudentVia(admin, b, {
    portal_enabled: true,
    portal_email: `student${n}.${Math.random().toString(36).slice(2, 7)}@example.com`,
    ...extra,
  });
}

/** The set-password link of a mail: its host and token. */
function invitationLink(text: string): { url: URL; token: string } {
  const m = /(https?:\/\/\S+\/password\/set\?\S+)/.exec(text);
  if (!m) throw new Error(`no set-password link in ${text}`);
  const url = new URL(m[1]);
  return { url, token: url.searchParams.get('token')! };
}

async function portalClient(): Promise<Client> {
  const c = new Client(t.app, PORTAL_HOST);
  await c.refreshToken();
  return c;
}

const strong = { password: 'NewPass123', password_confirmation: 'NewPass123' };

describe('POST /api/students/:id/portal/invite', () => {
  it('needs the portal email and portal access first (422), sending nothing', async () => {
    const b = await branch(t);
    const none = await createStudentVia(admin, b);
    const res = await admin.post(`/api/students/${none.id}/portal/invite`);
    expect(res.status).toBe(422);
    expect(res.body.error_keys.portal_email[0].key).toBe('portalEmailFirst');
    const off = await createStudentVia(admin, b, { portal_email: `off${nextSeq()}@example.com` });
    const refused = await admin.post(`/api/students/${off.id}/portal/invite`);
    expect(refused.status).toBe(422);
    expect(refused.body.message_key).toBe('portalEmailFirst');
    expect(smtp.for(off.portal_email)).toHaveLength(0);
    expect(await count(t.db, 'student_portal_tokens', { student_id: off.id })).toBe(0);
  });

  it('mails a single-use set-password link to the portal host, stored hashed; the student sets a password with it once', async () => {
    const s = await portalStudent({ language: 'en' });
    const res = await admin.post(`/api/students/${s.id}/portal/invite`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: `The invitation was sent to ${s.portal_email}.`,
      message_key: 'portalInvitationSent',
      message_params: { email: s.portal_email },
    });
    expect(res.body.student.portal_invited_at).toEqual(expect.any(String));
    const mail = await smtp.waitFor(s.portal_email);
    expect(mail.subject).toBe('Your student portal account');
    const { url, token } = invitationLink(mail.text);
    expect(url.origin).toBe('https://student.office.example.com');
    expect(url.pathname).toBe('/password/set');
    const [stored] = await t.db('student_portal_tokens').where({ student_id: s.id });
    expect(stored.token_hash).toMatch(/^[a-f0-9]{64}$/);
    expect(stored.token_hash).not.toBe(token);
    expect(mail.text).not.toContain(stored.token_hash);
    expect(stored.purpose).toBe('invitation');
    // audited, without the token
    const [audit] = await auditRows(t, { action: 'portal_invite', entity_id: s.id });
    expect(audit.entity).toBe('student');
    expect(String(audit.changes)).toContain(s.portal_email);
    expect(String(audit.changes)).not.toContain(token);

    const portal = await portalClient();
    // the spec's password rule
    const weak = await portal.post('/api/password/set', {
      token,
      password: 'weakpass',
      password_confirmation: 'weakpass',
    });
    expect(weak.status).toBe(422);
    expect(await count(t.db, 'student_portal_tokens', { student_id: s.id })).toBe(1);
    // not on the staff host
    const office = new Client(t.app);
    await office.refreshToken();
    expect((await office.post('/api/password/set', { token, ...strong })).status).toBe(404);

    const set = await portal.post('/api/password/set', { token, ...strong });
    expect(set.status).toBe(200);
    expect(set.body.message_key).toBe('portalPasswordSet');
    // never signs in by itself
    expect((await portal.get('/api/student')).status).toBe(401);
    const again = await (
      await portalClient()
    ).post('/api/password/set', { token, password: 'Other1234', password_confirmation: 'Other1234' });
    expect(again.status).toBe(422);
    expect(again.body.error_keys.token[0].key).toBe('portalLinkInvalid');

    const login = await new Client(t.app, PORTAL_HOST).login(s.portal_email, strong.password);
    expect(login.status).toBe(200);
    expect(login.body.student.id).toBe(s.id);
    expect(login.body.must_change_password).toBe(false);
    const [audited] = await auditRows(t, { action: 'portal_password_set', entity_id: s.id });
    expect(audited.actor_type).toBe('student');
    expect(String(audited.changes)).not.toContain(strong.password);
  });

  it('writes the mail in the student’s language (zh_HK)', async () => {
    const s = await portalStudent({ language: 'zh_HK', name_zh: '陳小明' });
    await admin.post(`/api/students/${s.id}/portal/invite`).expect(200);
    const mail = await smtp.waitFor(s.portal_email);
    expect(mail.subject).toBe('您的學生平台帳戶');
    expect(mail.text).toContain('請於 7 日內開啟以下連結設定密碼');
    expect(invitationLink(mail.text).url.host).toBe('student.office.example.com');
  });

  it('expires after seven days, and a new invitation replaces the last link', async () => {
    const s = await portalStudent();
    await admin.post(`/api/students/${s.id}/portal/invite`).expect(200);
    const first = invitationLink((await smtp.waitFor(s.portal_email, 1)).text).token;
    await admin.post(`/api/students/${s.id}/portal/invite`).expect(200);
    const second = invitationLink((await smtp.waitFor(s.portal_email, 2)).text).token;
    expect(second).not.toBe(first);
    const replaced = await (await portalClient()).post('/api/password/set', { token: first, ...strong });
    expect(replaced.status).toBe(422);
    expect(replaced.body.error_keys.token[0].key).toBe('portalLinkInvalid');

    clock.advance(7 * 86_400_000 + 60_000);
    const late = await (await portalClient()).post('/api/password/set', { token: second, ...strong });
    expect(late.status).toBe(422);
    expect(late.body.error_keys.token[0].key).toBe('portalLinkInvalid');
    expect((await t.db('students').where({ id: s.id }).first()).portal_password_hash).toBeNull();
  });

  it('takes the link back when portal access is turned off or the portal email changes', async () => {
    const s = await portalStudent();
    await admin.post(`/api/students/${s.id}/portal/invite`).expect(200);
    const token = invitationLink((await smtp.waitFor(s.portal_email)).text).token;
    await admin.put(`/api/students/${s.id}`, { portal_email: `moved${nextSeq()}@example.com` }).expect(200);
    expect(await count(t.db, 'student_portal_tokens', { student_id: s.id })).toBe(0);
    expect((await (await portalClient()).post('/api/password/set', { token, ...strong })).status).toBe(422);
  });

  it('keeps nothing when the mail fails: no link, the invitation date as it was', async () => {
    const s = await portalStudent();
    smtp.refuse = true;
    const res = await admin.post(`/api/students/${s.id}/portal/invite`);
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(MESSAGES.emailFailed);
    expect(await count(t.db, 'student_portal_tokens', { student_id: s.id })).toBe(0);
    expect((await t.db('students').where({ id: s.id }).first()).portal_invited_at).toBeNull();
    expect(await auditRows(t, { action: 'portal_invite', entity_id: s.id })).toHaveLength(0);
  });
});

describe('POST /api/students/:id/portal/password', () => {
  it('sets a first password (spec rules) the student must change; the portal sign-in says so', async () => {
    const s = await portalStudent();
    const url = `/api/students/${s.id}/portal/password`;
    for (const password of [
      'short1A',
      'alllower123',
      'ALLUPPER123',
      'NoDigitsHere',
      `Aa1${'x'.repeat(70)}`,
    ]) {
      const res = await admin.post(url, { password, password_confirmation: password });
      expect({ password, status: res.status }).toEqual({ password, status: 422 });
    }
    const mismatch = await admin.post(url, { password: 'Portal123', password_confirmation: 'Portal124' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password_confirmation).toBeDefined();
    expect((await t.db('students').where({ id: s.id }).first()).portal_password_hash).toBeNull();

    const res = await admin.post(url, { password: 'Portal123', password_confirmation: 'Portal123' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: s.id,
      portal_password_set: true,
      portal_must_change_password: true,
    });
    expect(res.body).not.toHaveProperty('portal_password_hash');
    const stored = await t.db('students').where({ id: s.id }).first();
    expect(stored.portal_password_hash).toMatch(/^\$2[aby]\$/);
    const [audit] = await auditRows(t, { action: 'portal_password_set', entity_id: s.id });
    expect(audit.actor_type).toBe('user');
    expect(String(audit.changes ?? '')).not.toContain('Portal123');
    expect(String(audit.changes ?? '')).not.toContain(stored.portal_password_hash);

    const portal = new Client(t.app, PORTAL_HOST);
    const login = await portal.login(s.portal_email, 'Portal123');
    expect(login.status).toBe(200);
    expect(login.body.must_change_password).toBe(true);
    await portal.get('/api/student').expect(200);

    // staff set it again: the session the student opened ends
    await admin.post(url, { password: 'Portal456', password_confirmation: 'Portal456' }).expect(200);
    expect((await portal.get('/api/student')).status).toBe(401);

    // the student sets their own through an invitation: nothing left to change
    await admin.post(`/api/students/${s.id}/portal/invite`).expect(200);
    const token = invitationLink((await smtp.waitFor(s.portal_email)).text).token;
    await (await portalClient()).post('/api/password/set', { token, ...strong }).expect(200);
    const own = await new Client(t.app, PORTAL_HOST).login(s.portal_email, strong.password);
    expect(own.body.must_change_password).toBe(false);
  });
});

describe('POST /api/students/:id/reopen', () => {
  it('answers 409 when nothing was submitted; reopens a submitted student, audited with before and after', async () => {
    const s = await portalStudent();
    const refused = await admin.post(`/api/students/${s.id}/reopen`);
    expect(refused.status).toBe(409);
    expect(refused.body.message_key).toBe('studentNotSubmitted');
    expect(await auditRows(t, { action: 'reopen', entity_id: s.id })).toHaveLength(0);

    const submittedAt = toDbDateTime();
    await t
      .db('students')
      .where({ id: s.id })
      .update({ info_submitted_at: submittedAt, info_confirmed_at: submittedAt });
    const shown = await admin.get(`/api/students/${s.id}`).expect(200);
    expect(shown.body.info_submitted_at).toEqual(expect.any(String));

    const res = await admin.post(`/api/students/${s.id}/reopen`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, info_submitted_at: null, info_confirmed_at: null });
    // answered as GET answers it
    const read = await admin.get(`/api/students/${s.id}`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(read.body).sort());
    const row = await t.db('students').where({ id: s.id }).first();
    expect([row.info_submitted_at, row.info_confirmed_at]).toEqual([null, null]);
    const [audit] = await auditRows(t, { action: 'reopen', entity_id: s.id });
    expect(audit.entity).toBe('student');
    const changes = JSON.parse(audit.changes);
    expect(changes.before.info_submitted_at).toBeTruthy();
    expect(changes.after.info_submitted_at).toBeNull();
    expect(JSON.stringify(changes)).not.toContain('portal_password_hash');

    expect((await admin.post(`/api/students/${s.id}/reopen`)).status).toBe(409);
  });
});

describe('permissions and branch scope of the portal-access routes', () => {
  it('answers 403 without students.update and 404 for a student of another branch', async () => {
    const s = await portalStudent();
    await t.db('students').where({ id: s.id }).update({ info_submitted_at: toDbDateTime() });
    const routes: [string, Row | undefined][] = [
      [`/api/students/${s.id}/portal/invite`, undefined],
      [
        `/api/students/${s.id}/portal/password`,
        { password: 'Portal123', password_confirmation: 'Portal123' },
      ],
      [`/api/students/${s.id}/reopen`, undefined],
    ];
    const reader = await signIn(t, ['students.view']);
    for (const [url, body] of routes)
      expect({ url, status: (await reader.post(url, body)).status }).toEqual({ url, status: 403 });

    const elsewhere = await branch(t);
    const clerk = await signIn(t, ['students.view', 'students.update'], { branchId: elsewhere });
    for (const [url, body] of routes)
      expect({ url, status: (await clerk.post(url, body)).status }).toEqual({ url, status: 404 });
    const unknown = await admin.post('/api/students/999999/reopen');
    expect(unknown.status).toBe(404);

    // nothing happened
    const row = await t.db('students').where({ id: s.id }).first();
    expect(row.portal_password_hash).toBeNull();
    expect(row.info_submitted_at).not.toBeNull();
    expect(smtp.for(s.portal_email)).toHaveLength(0);
    expect(await count(t.db, 'student_portal_tokens', { student_id: s.id })).toBe(0);

    // a clerk of the student's own branch with the permission may
    const own = await signIn(t, ['students.view', 'students.update'], { branchId: s.branch_id });
    await own.post(`/api/students/${s.id}/reopen`).expect(200);
  });
});

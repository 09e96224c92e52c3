/**
 * Mail reminders (issue 30, item 2), in one process on SQLite or MariaDB, through a real SMTP server: what is due is
 * mailed once, in each recipient's language; a second run (a restart, the next day's run within the window) sends
 * nothing again; a refused mail is tried again at the next run; nothing goes when they are off or not due yet;
 * overdue invoices (issue 27) go to their branch's staff who may view orders. The settings: admins only, password confirmed, audited.
 * The two-instance run is reminders-instances.test.ts.
 */
import { REMINDER_DEFAULTS } from '../../../shared/schemas/reminders';
import { clock, toDbDateTime } from '../../src/lib/clock';
import { dueAtToday } from '../../src/modules/reminders/reminders.service';
import { settingsRepository } from '../../src/modules/settings/settings.repository';
import { TestSmtp } from '../accounts/helpers';
import { addDays } from '../../src/modules/calendar/calendar.sources';
import { businessToday } from '../../src/modules/numbering/business-time';
import { Client, createBranch, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { reminderScene, type ExpectedMail } from './scene';

let t: TestApp;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  t = await createTestApp(smtp.env());
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const setReminders = async (enabled: boolean, time: string) => {
  await settingsRepository.set(t.db, 'reminders_enabled', String(enabled));
  await settingsRepository.set(t.db, 'reminders_time', time);
};
const forgetRuns = () => t.db('reminder_runs').delete();

function expectMails(expected: ExpectedMail[]) {
  const received = smtp.mails.map((m) => ({ to: m.to.join(','), subject: m.subject, text: m.text }));
  expect(received).toHaveLength(expected.length);
  for (const want of expected) {
    const found = received.filter((m) => m.to === want.to.toLowerCase() && want.subject.test(m.subject));
    expect({ to: want.to, subject: String(want.subject), found: found.length }).toEqual({
      to: want.to,
      subject: String(want.subject),
      found: 1,
    });
    for (const text of want.text) expect(found[0].text).toMatch(text);
  }
}

describe('the reminders run', () => {
  let expected: ExpectedMail[];

  beforeAll(async () => {
    ({ expected } = await reminderScene(t.db));
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  it('sends nothing while off (the default) or before the day’s time', async () => {
    expect(REMINDER_DEFAULTS.enabled).toBe(false);
    expect(await t.reminders.runIfDue()).toMatchObject({ ran: false });
    // later today than now, Hong Kong time: not due yet
    const inAMinute = new Date(clock.now() + 8 * 3_600_000 + 60_000).toISOString().slice(11, 16);
    if (inAMinute !== '00:00') {
      await setReminders(true, inAMinute);
      expect(await t.reminders.runIfDue()).toMatchObject({ ran: false });
    }
    expect(smtp.mails).toHaveLength(0);
  });

  it('mails each reminder due today once, in its recipient’s language', async () => {
    await setReminders(true, '00:00');
    const outcome = await t.reminders.runIfDue();
    expect(outcome).toEqual({ ran: true, sent: 6, skipped: 0, failed: 0 });
    expectMails(expected);
    console.log(
      `reminders: ${smtp.mails.length} mails — ${smtp.mails.map((m) => `${m.to.join()}: ${m.subject}`).join('; ')}`,
    );
    // run again the same day: it was run
    expect(await t.reminders.runIfDue()).toMatchObject({ ran: false });
    const run = await t.db('reminder_runs').first();
    expect(run).toMatchObject({ due_at: dueAtToday('00:00'), sent: 6, failed: 0 });
    expect(Number((await t.db('sent_reminders').count({ n: '*' }).first())?.n)).toBe(6);
  });

  it('sends nothing again at a later run (a restart, the next day’s run): every reminder was claimed', async () => {
    await forgetRuns();
    const again = await t.restart().reminders.runIfDue();
    expect(again).toEqual({ ran: true, sent: 0, skipped: 6, failed: 0 });
    expect(smtp.mails).toHaveLength(0);
  });

  it('tries a refused mail again at the next run, and sends it once it goes', async () => {
    await t.db('sent_reminders').delete();
    await forgetRuns();
    smtp.refuse = true;
    try {
      expect(await t.reminders.runIfDue()).toEqual({ ran: true, sent: 0, skipped: 0, failed: 6 });
    } finally {
      smtp.refuse = false;
    }
    expect(Number((await t.db('sent_reminders').count({ n: '*' }).first())?.n)).toBe(0);
    await forgetRuns();
    expect(await t.reminders.runIfDue()).toEqual({ ran: true, sent: 6, skipped: 0, failed: 0 });
    expectMails(expected);
  });

  it('without mail settings records the run and sends nothing', async () => {
    await forgetRuns();
    await t.db('sent_reminders').delete();
    const noMail = await createTestApp();
    try {
      await reminderScene(noMail.db);
      await settingsRepository.set(noMail.db, 'reminders_enabled', 'true');
      await settingsRepository.set(noMail.db, 'reminders_time', '00:00');
      expect(await noMail.reminders.runIfDue()).toMatchObject({ ran: true, sent: 0 });
      expect((await noMail.db('reminder_runs').first())?.note).toMatch(/no mail settings/);
      expect(Number((await noMail.db('sent_reminders').count({ n: '*' }).first())?.n)).toBe(0);
    } finally {
      await noMail.close();
    }
  });

  it('reminds the branch’s staff who may view orders of an overdue invoice, the amount as the screen shows it', async () => {
    // the scene's reminders claimed first, so that this run sends the invoice's alone
    await forgetRuns();
    await t.reminders.runIfDue();
    await forgetRuns();
    const branchId = await createBranch(t.db);
    const clerk = await createUser(t.db, { permissions: ['orders.view'] });
    await t.db('users').where({ id: clerk.id }).update({ branch_id: branchId, language: 'en' });
    const now = toDbDateTime();
    const [studentId] = await t.db('students').insert({
      student_no: 'OV-1',
      branch_id: branchId,
      surname_en: 'KIM',
      given_name_en: 'Minjun',
      created_at: now,
      updated_at: now,
    });
    const order = {
      branch_id: branchId,
      student_id: Number(studentId),
      date: addDays(businessToday(), -30),
      due_date: addDays(businessToday(), -1),
      currency: 'KRW',
      total: 150_000_000,
      outstanding: 150_000_000,
      status: 'issued',
      created_at: now,
      updated_at: now,
    };
    await t.db('orders').insert({ ...order, order_no: 'INV-OVERDUE-1' });
    // not yet due, paid, or void: no reminder
    await t.db('orders').insert({ ...order, order_no: 'INV-NOT-DUE', due_date: businessToday() });
    await t.db('orders').insert({ ...order, order_no: 'INV-PAID', outstanding: 0, status: 'paid' });
    await t.db('orders').insert({ ...order, order_no: 'INV-VOID', status: 'void' });
    const outcome = await t.reminders.runIfDue();
    expect(outcome).toMatchObject({ ran: true, sent: 1, failed: 0 });
    const mail = await smtp.waitFor(clerk.email);
    expect(mail.text).toContain('INV-OVERDUE-1');
    expect(mail.text).toContain('KRW 1,500,000');
    for (const other of ['INV-NOT-DUE', 'INV-PAID', 'INV-VOID']) expect(mail.text).not.toContain(other);
  });
});

describe('GET|PUT /api/settings/reminders', () => {
  let admin: Client;
  beforeAll(async () => {
    admin = await signedInAdmin(t);
  });

  it('shows and saves them for an admin, audited, and every admin is told', async () => {
    smtp.mails.length = 0;
    const shown = await admin.get('/api/settings/reminders').expect(200);
    expect(shown.body).toMatchObject({
      enabled: true,
      time: '00:00',
      time_zone: 'Asia/Hong_Kong',
      days_ahead: 7,
      mail_configured: true,
    });
    expect(shown.body.last_run).toMatchObject({ sent: expect.any(Number), failed: 0 });
    const saved = await admin.put('/api/settings/reminders', { enabled: false, time: '08:30' }).expect(200);
    expect(saved.body).toMatchObject({ enabled: false, time: '08:30' });
    const audit = await t.db('audit_logs').where({ entity: 'settings' }).orderBy('id', 'desc').first();
    expect(JSON.parse(audit.changes)).toEqual({
      before: { reminders_enabled: true, reminders_time: '00:00' },
      after: { reminders_enabled: false, reminders_time: '08:30' },
    });
    await t.background.flush();
    expect(smtp.mails.some((m) => /Security settings were changed|保安設定已被更改/.test(m.subject))).toBe(
      true,
    );
    expect(smtp.mails.find((m) => /Security settings/.test(m.subject))?.text).toMatch(/Mail reminders/);
  });

  it('refuses a time that is not HH:mm, and changes nothing', async () => {
    const refused = await admin.put('/api/settings/reminders', { time: '25:00' }).expect(422);
    expect(refused.body.error_keys.time[0].key).toBe('timeOfDay');
    await admin.put('/api/settings/reminders', { time: '8:30', extra: 1 }).expect(422);
    expect((await admin.get('/api/settings/reminders')).body.time).toBe('08:30');
  });

  it('is for admins only: staff who may update settings get 403', async () => {
    const user = await createUser(t.db, { permissions: ['settings.view', 'settings.update'] });
    const staff = new Client(t.app);
    await staff.login(user.email, user.password);
    await staff.get('/api/settings/reminders').expect(403);
    await staff.put('/api/settings/reminders', { enabled: true }).expect(403);
    expect((await admin.get('/api/settings/reminders')).body.enabled).toBe(false);
  });
});

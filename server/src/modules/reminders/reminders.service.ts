import { Cron } from 'croner';
import type { Knex } from 'knex';
import {
  REMINDER_DAYS_AHEAD,
  REMINDER_DEFAULTS,
  REMINDER_SETTING_KEYS,
  type ReminderSettings,
  type ReminderSettingsUpdate,
} from '../../../../shared/schemas/reminders';
import type { Config } from '../../config';
import { withDatabaseLock, type Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { clock, fromDbDateTime, toDbDateTime } from '../../lib/clock';
import { logger } from '../../lib/logger';
import { formatMoneyText } from '../../../../shared/money';
import type { Row } from '../../resources/resource';
import { parsePermissions } from '../access/access-rules';
import { auditService } from '../audit/audit.service';
import { addDays, daysBetween, nameIn } from '../calendar/calendar.sources';
import { mailLanguage, renderMail, type MailLanguage } from '../mail/mail-templates';
import type { MailService, SmtpSettings } from '../mail/mail.service';
import { BUSINESS_UTC_OFFSET_MS, businessToday } from '../numbering/business-time';
import { appUrl } from '../profile/profile.service';
import type { SettingsGuard } from '../settings/protected-settings';
import { settingsRepository } from '../settings/settings.repository';
import { portalUrl } from '../students/portal-access.service';
import { studentName } from '../students/student-names';
import { remindersRepository, type SentKey } from './reminders.repository';

/** The kinds of reminder, as `sent_reminders.kind` stores them. */
export const REMINDER_KINDS = ['intake_deadline', 'pending_documents', 'overdue_invoice'] as const;
type Kind = (typeof REMINDER_KINDS)[number];

/**
 * One mail to one recipient about one or more records: it goes when at least one of its keys was not sent yet, and
 * then names only those (`mail` gets the lines of the keys it claimed).
 */
interface Reminder {
  recipient: string;
  to: string;
  language: MailLanguage;
  items: { key: SentKey; line: string }[];
  mail(lines: string[]): { subject: string; text: string };
}

interface SourceDeps {
  db: Knex;
  config: Config;
  today: string;
}

const LOCK = 'reminders';

const day = (value: unknown): string => String(value).slice(0, 10);
const languageOf = (value: unknown): MailLanguage => mailLanguage(typeof value === 'string' ? value : null);
const dbTime = (value: unknown): string | null => fromDbDateTime(value as string | null);
const key = (kind: Kind, record: unknown, recipient: string, due: unknown): SentKey => ({
  kind,
  record_id: Number(record),
  recipient,
  due_date: day(due),
});

/** Groups rows by a key, keeping the first row's order. */
function groupBy(rows: Row[], by: (row: Row) => string): Row[][] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(by(row), [...(groups.get(by(row)) ?? []), row]);
  return [...groups.values()];
}

/** Intake deadlines within the window: one mail per intake to each consultant, naming their students applying. */
async function intakeDeadlines({ db, config, today }: SourceDeps): Promise<Reminder[]> {
  const rows = await remindersRepository.intakeDeadlines(db, today, addDays(today, REMINDER_DAYS_AHEAD));
  return groupBy(rows, (r) => `${r.admission_id}:${r.consultant_id}`).map((group) => {
    const first = group[0];
    const language = languageOf(first.consultant_language);
    const recipient = `user:${Number(first.consultant_id)}`;
    return {
      recipient,
      to: String(first.consultant_email),
      language,
      // one key for the intake: the students are its lines
      items: [
        { key: key('intake_deadline', first.admission_id, recipient, first.application_deadline), line: '' },
      ],
      mail: () =>
        renderMail('intakeDeadline', language, {
          deadline: day(first.application_deadline),
          days: daysBetween(today, day(first.application_deadline)),
          intake: nameIn(language, first.intake_name_en, first.intake_name_zh),
          school: nameIn(language, first.school_name_en, first.school_name_zh),
          students: group.map(
            (r) =>
              `${studentName(r, language)} (${r.student_no}): ${appUrl(config)}/students/application/${r.student_id}`,
          ),
          link: `${appUrl(config)}/calendar`,
        }),
    };
  });
}

/**
 * Checklist documents still pending before a deadline within the window: one mail per application to the student
 * (when the portal is open to them, in their language, linking to the portal's documents page) and one to their
 * consultant.
 */
async function pendingDocuments({ db, config, today }: SourceDeps): Promise<Reminder[]> {
  const rows = await remindersRepository.pendingDocuments(db, today, addDays(today, REMINDER_DAYS_AHEAD));
  const out: Reminder[] = [];
  for (const group of groupBy(rows, (r) => String(r.application_id))) {
    const first = group[0];
    const deadline = day(first.application_deadline);
    const days = daysBetween(today, deadline);
    const documents = (language: MailLanguage) =>
      group.map((r) => nameIn(language, r.document_name_en, r.document_name_zh));
    if (first.portal_enabled && first.portal_email) {
      const language = languageOf(first.student_language);
      const recipient = `student:${Number(first.student_id)}`;
      out.push({
        recipient,
        to: String(first.portal_email),
        language,
        items: [{ key: key('pending_documents', first.application_id, recipient, deadline), line: '' }],
        mail: () =>
          renderMail('pendingDocumentsStudent', language, {
            deadline,
            days,
            name: studentName(first, language),
            school: nameIn(language, first.school_name_en, first.school_name_zh),
            documents: documents(language),
            link: `${portalUrl(config)}/document`,
          }),
      });
    }
    if (first.consultant_id && first.consultant_active && first.consultant_email) {
      const language = languageOf(first.consultant_language);
      const recipient = `user:${Number(first.consultant_id)}`;
      out.push({
        recipient,
        to: String(first.consultant_email),
        language,
        items: [{ key: key('pending_documents', first.application_id, recipient, deadline), line: '' }],
        mail: () =>
          renderMail('pendingDocumentsConsultant', language, {
            deadline,
            days,
            student: `${studentName(first, language)} (${first.student_no})`,
            school: nameIn(language, first.school_name_en, first.school_name_zh),
            documents: documents(language),
            link: `${appUrl(config)}/students/application/${first.student_id}`,
          }),
      });
    }
  }
  return out;
}

/**
 * Invoices past due with money outstanding (issue 27's `orders`; nothing until that table exists): one mail per
 * staff member of the invoice's branch who may view orders, listing the invoices not reminded of yet.
 */
async function overdueInvoices({ db, config, today }: SourceDeps): Promise<Reminder[]> {
  if (!(await remindersRepository.hasTable(db, 'orders'))) return [];
  const orders = await remindersRepository.overdueOrders(db, today);
  const branches = [...new Set(orders.map((o) => Number(o.branch_id)))];
  const staff = (await remindersRepository.branchStaff(db, branches)).filter(
    (u) => Boolean(u.is_admin) || parsePermissions(u.permissions as string | null).includes('orders.view'),
  );
  const out: Reminder[] = [];
  for (const user of staff) {
    const language = languageOf(user.language);
    const recipient = `user:${Number(user.id)}`;
    const mine = orders.filter((o) => Number(o.branch_id) === Number(user.branch_id));
    if (!mine.length) continue;
    out.push({
      recipient,
      to: String(user.email),
      language,
      items: mine.map((o) => ({
        key: key('overdue_invoice', o.id, recipient, o.due_date),
        line:
          `${o.order_no} — ${studentName(o, language)} — ${day(o.due_date)} — ` +
          // the amount as the screens show it: integer minor units, the currency's own decimals (none for KRW)
          formatMoneyText(Number(o.outstanding), o.currency ? String(o.currency) : null),
      })),
      mail: (lines) =>
        renderMail('overdueInvoices', language, { invoices: lines, link: `${appUrl(config)}/orders/order` }),
    });
  }
  return out;
}

const SOURCES: Record<Kind, (deps: SourceDeps) => Promise<Reminder[]>> = {
  intake_deadline: intakeDeadlines,
  pending_documents: pendingDocuments,
  overdue_invoice: overdueInvoices,
};

export interface RunOutcome {
  /** false: not due, turned off, or run already (by this instance or another) */
  ran: boolean;
  sent: number;
  skipped: number;
  failed: number;
  note?: string;
}

async function readSettings(db: Trx): Promise<{ enabled: boolean; time: string }> {
  const stored = await settingsRepository.getMany(db, REMINDER_SETTING_KEYS);
  return {
    enabled: stored.reminders_enabled ? stored.reminders_enabled === 'true' : REMINDER_DEFAULTS.enabled,
    time: stored.reminders_time || REMINDER_DEFAULTS.time,
  };
}

/** The UTC `YYYY-MM-DD HH:mm:ss` of today's run: Hong Kong's today at `time` (`HH:mm`, Hong Kong time). */
export function dueAtToday(time: string, now = clock.now()): string {
  const [hours, minutes] = time.split(':').map(Number);
  const today = new Date(now + BUSINESS_UTC_OFFSET_MS).toISOString().slice(0, 10);
  const local = Date.parse(`${today}T00:00:00Z`) + (hours * 60 + minutes) * 60_000;
  return toDbDateTime(local - BUSINESS_UTC_OFFSET_MS);
}

/**
 * The reminders (issue 30, item 2): what is due, sent once, in each recipient's language, through the mail settings.
 * A run is due when reminders are on and Hong Kong's today has reached the settings' time; it runs under the
 * database lock `reminders` (two instances take turns: the second finds the run done), records itself in
 * `reminder_runs`, and claims every reminder in `sent_reminders` before its mail goes — so a reminder never goes
 * twice, whatever instance, run or restart reaches it again.
 */
export function createRemindersService(deps: { db: Knex; config: Config; mail: MailService }) {
  const { db, config, mail } = deps;

  async function send(reminders: Reminder[], smtp: SmtpSettings): Promise<Omit<RunOutcome, 'ran'>> {
    let sent = 0;
    let skipped = 0;
    let failed = 0;
    for (const reminder of reminders) {
      const claimed: Reminder['items'] = [];
      for (const item of reminder.items) {
        if (await remindersRepository.claim(db, item.key, reminder.to)) claimed.push(item);
      }
      if (!claimed.length) {
        skipped++;
        continue;
      }
      try {
        await mail.sendWith(smtp, { to: reminder.to, ...reminder.mail(claimed.map((i) => i.line)) });
        sent++;
      } catch {
        // the mail service logged why; the claims go back so that the next run tries again
        for (const item of claimed) await remindersRepository.release(db, item.key);
        failed++;
      }
    }
    return { sent, skipped, failed };
  }

  /** Every reminder due today, sent once; the outcome of each source logged. */
  async function runDue(runId: number): Promise<Omit<RunOutcome, 'ran'>> {
    const smtp = await mail.current();
    if (!smtp) {
      const note = 'no mail settings: nothing sent';
      logger.warn(`reminders: ${note} (Settings → Mail, or SMTP_HOST and SMTP_FROM)`);
      await remindersRepository.finishRun(db, runId, { sent: 0, skipped: 0, failed: 0, note });
      return { sent: 0, skipped: 0, failed: 0, note };
    }
    const today = businessToday();
    const total = { sent: 0, skipped: 0, failed: 0 };
    for (const [kind, source] of Object.entries(SOURCES)) {
      const outcome = await send(await source({ db, config, today }), smtp);
      if (outcome.sent || outcome.failed) logger.info(`reminders: ${kind}`, outcome);
      total.sent += outcome.sent;
      total.skipped += outcome.skipped;
      total.failed += outcome.failed;
    }
    await remindersRepository.finishRun(db, runId, total);
    return total;
  }

  return {
    /**
     * Runs today's reminders when they are due and nobody ran them yet; answers what it did. Called by the
     * schedule of every instance (and by tests).
     */
    async runIfDue(): Promise<RunOutcome> {
      const idle = { ran: false, sent: 0, skipped: 0, failed: 0 };
      const first = await readSettings(db);
      if (!first.enabled || toDbDateTime(clock.now()) < dueAtToday(first.time)) return idle;
      return withDatabaseLock(db, LOCK, async () => {
        // read again under the lock: another instance may have run it, or an admin changed the settings
        const settings = await readSettings(db);
        const dueAt = dueAtToday(settings.time);
        if (!settings.enabled || toDbDateTime(clock.now()) < dueAt) return idle;
        const runId = await remindersRepository.startRun(db, dueAt);
        if (runId === null) return idle;
        const outcome = await runDue(runId);
        logger.info('reminders: run finished', { due_at: dueAt, ...outcome });
        return { ran: true, ...outcome };
      });
    },

    /** The settings screen's data: on/off, time, whether mail can go, and the last run. */
    async read(): Promise<ReminderSettings> {
      const settings = await readSettings(db);
      const last = await remindersRepository.lastRun(db);
      return {
        ...settings,
        time_zone: 'Asia/Hong_Kong',
        days_ahead: REMINDER_DAYS_AHEAD,
        mail_configured: Boolean(await mail.current()),
        last_run: last
          ? {
              due_at: dbTime(last.due_at)!,
              started_at: dbTime(last.started_at)!,
              finished_at: dbTime(last.finished_at),
              sent: Number(last.sent),
              skipped: Number(last.skipped),
              failed: Number(last.failed),
              note: typeof last.note === 'string' ? last.note : null,
            }
          : null,
      };
    },
  };
}

export type RemindersService = ReturnType<typeof createRemindersService>;

/**
 * Saves the reminders' settings through the settings guard (admins, a recent password confirmation, audited, every
 * admin told): they mail students and staff.
 */
export async function updateReminderSettings(
  db: Knex,
  guard: SettingsGuard,
  input: ReminderSettingsUpdate,
  ctx: RequestContext,
): Promise<void> {
  await guard.change(ctx, async (trx, touched) => {
    const before = await readSettings(trx);
    const values: Record<string, string> = {};
    if (input.enabled !== undefined && input.enabled !== before.enabled)
      values.reminders_enabled = String(input.enabled);
    if (input.time !== undefined && input.time !== before.time) values.reminders_time = input.time;
    touched(Object.keys(values));
    for (const [settingKey, value] of Object.entries(values))
      await settingsRepository.set(trx, settingKey, value, ctx.actor.id);
    if (Object.keys(values).length) {
      await auditService.record(trx, ctx, {
        action: 'update',
        entity: 'settings',
        before: { reminders_enabled: before.enabled, reminders_time: before.time },
        after: await readSettings(trx).then((s) => ({
          reminders_enabled: s.enabled,
          reminders_time: s.time,
        })),
      });
    }
  });
}

/** How often each instance asks whether reminders are due (croner pattern, with seconds). */
export const REMINDER_CHECK_PATTERN = '*/15 * * * * *';

/**
 * Every instance's schedule (main.ts): croner asks every 15 s whether today's run is due (one read of two settings)
 * and, when it is, runs it under the database lock — so the time set on the settings screen holds on every instance
 * without a restart, and a run missed while every instance was down happens when the first one is back the same day.
 * `protect` keeps one run of an instance from overlapping the next. Answers the stop.
 */
export function startReminderSchedule(reminders: RemindersService): () => void {
  const job = new Cron(REMINDER_CHECK_PATTERN, { protect: true, catch: false }, async () => {
    try {
      await reminders.runIfDue();
    } catch (err) {
      logger.warn('reminders: run failed', { error: String((err as Error)?.message ?? err) });
    }
  });
  // and once at start, without waiting for the first tick
  void job.trigger();
  return () => job.stop();
}

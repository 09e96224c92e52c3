/**
 * Reminders with two instances (issue 30, "Done when"): two real instances (main.ts, as production runs them) on one
 * MariaDB database and one Redis, with a real SMTP server in this test. Both ask every 15 s whether the day's run is
 * due; the reminders are turned on while both run, so that both reach the same run at the same tick. Each reminder
 * arrives exactly once, in its recipient's language. Then both restart, and a later run (the next day's, within the
 * same 7-day window) is made due: nothing arrives again. Printed as figures.
 */
import type { Knex } from 'knex';
import { Redis } from 'ioredis';
import { startInstance, type Instance } from '../../../scripts/cluster-processes';
import { createDb } from '../../src/db/knex';
import { settingsRepository } from '../../src/modules/settings/settings.repository';
import { TestSmtp } from '../accounts/helpers';
import { freshDatabaseUrl, onMysql, onRedis } from '../harness';
import { reminderScene, type ExpectedMail } from './scene';

jest.setTimeout(300_000);

const twoInstances = onMysql && onRedis ? describe : describe.skip;

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, ms = 90_000) {
  for (let waited = 0; ; waited += 250) {
    const found = await check();
    if (found) return found;
    if (waited > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Longer than one tick of every instance's schedule (15 s): whatever a second instance would send has come. */
const quietWhile = () => new Promise((r) => setTimeout(r, 20_000));

twoInstances('reminders with two instances and a real SMTP server', () => {
  let smtp: TestSmtp;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let db: Knex;
  let instances: Instance[] = [];
  let expected: ExpectedMail[];
  const prefix = `satest:rem${process.pid}${Date.now().toString(36)}:`;

  const start = async () => {
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      BCRYPT_COST: '4',
      SEED_DEMO: 'false',
      SHUTDOWN_DRAIN_SECONDS: '0',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: prefix,
      ...smtp.env(),
    };
    instances = await Promise.all([startInstance('1', env), startInstance('2', env)]);
  };
  const finishedRuns = async () =>
    db('reminder_runs')
      .whereNotNull('finished_at')
      .orderBy('id')
      .select('due_at', 'sent', 'skipped', 'failed');

  beforeAll(async () => {
    smtp = await new TestSmtp().start();
    database = await freshDatabaseUrl({ migrated: true });
    db = createDb(database.url);
    ({ expected } = await reminderScene(db));
    await start();
  });

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    const redis = new Redis(process.env.REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await db?.destroy();
    await database?.drop();
    await smtp?.stop();
  });

  it('sends each reminder once though both instances reach the run, and nothing again after a restart', async () => {
    // off by default: both instances have been asking, and nothing went
    expect(smtp.mails).toHaveLength(0);
    await settingsRepository.set(db, 'reminders_time', '00:00');
    await settingsRepository.set(db, 'reminders_enabled', 'true');
    const run = await until('the run to finish', async () => (await finishedRuns())[0]);
    await until('the mails', async () => smtp.mails.length >= expected.length);
    await quietWhile();
    const received = smtp.mails.map((m) => `${m.to.join()}: ${m.subject}`);
    console.log(
      `reminders, two instances, one run due on both: ${smtp.mails.length} mails for ${expected.length} reminders ` +
        `(run: sent ${run.sent}, failed ${run.failed})\n  ${received.join('\n  ')}`,
    );
    expect(smtp.mails).toHaveLength(expected.length);
    for (const want of expected) {
      const found = smtp.mails.filter(
        (m) => m.to.includes(want.to.toLowerCase()) && want.subject.test(m.subject),
      );
      expect({ to: want.to, subject: String(want.subject), arrived: found.length }).toEqual({
        to: want.to,
        subject: String(want.subject),
        arrived: 1,
      });
      for (const text of want.text) expect(found[0].text).toMatch(text);
    }
    expect(await finishedRuns()).toHaveLength(1);

    // both restart: their first check at start finds the day's run done
    await Promise.all(instances.map((i) => i.stop('SIGTERM')));
    await start();
    // a later run becomes due (tomorrow's, within the same window): every reminder is claimed already
    await db('reminder_runs').delete();
    const later = await until('the later run', async () => (await finishedRuns())[0]);
    await quietWhile();
    console.log(
      `after both instances restarted and a later run: ${smtp.mails.length - expected.length} more mails ` +
        `(run: sent ${later.sent}, skipped ${later.skipped}, failed ${later.failed})`,
    );
    expect(smtp.mails).toHaveLength(expected.length);
    expect(later).toMatchObject({ sent: 0, skipped: expected.length, failed: 0 });
  });
});

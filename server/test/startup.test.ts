import type { Knex } from 'knex';
import { createDb } from '../src/db/knex';
import { prepareDatabase, type Prepared } from '../src/db/startup';
import { HOLIDAYS } from '../../seeds/data/holidays';
import { AREAS } from '../../seeds/data/areas';
import { OPTION_DEFAULTS } from '../../seeds/data/options';
import { freshDatabaseUrl, onMysql } from './harness';

const count = async (db: Knex, table: string) => Number((await db(table).count({ n: '*' }).first())?.n);

/** What the reference and demo data put in, counted: each exactly once. */
async function seeded(db: Knex) {
  return {
    holidays: await count(db, 'holidays'),
    options: await count(db, 'options'),
    areas: await db('areas')
      .whereNull('parent_id')
      .count({ n: '*' })
      .first()
      .then((r) => Number(r?.n)),
    users: await count(db, 'users'),
    schools: await count(db, 'schools'),
  };
}

const expected = {
  holidays: HOLIDAYS.length,
  options: Object.values(OPTION_DEFAULTS).reduce((n, entries) => n + entries.length, 0),
  areas: AREAS.length,
};

describe(`starting on ${onMysql ? 'MariaDB' : 'SQLite'}`, () => {
  /** the rows one instance starting alone leaves (the first test's) */
  let alone: Awaited<ReturnType<typeof seeded>> | undefined;

  it('a second start (a restart) applies nothing and adds no reference or demo data again', async () => {
    const database = await freshDatabaseUrl();
    const db = createDb(database.url);
    try {
      const first = await prepareDatabase(db, { seedDemo: true });
      expect(first.applied.length).toBeGreaterThan(0);
      expect(first.demoSeeded).toBe(true);
      const once = await seeded(db);
      expect(once).toMatchObject(expected);
      alone = once;
      const again = await prepareDatabase(db, { seedDemo: true });
      expect(again).toEqual({ applied: [], demoSeeded: false });
      expect(await seeded(db)).toEqual(once);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });

  // two instances behind one address (quality.md 29) start together on one empty database: one migrates and
  // seeds while the other waits for it, then finds nothing to do (SQLite serves one instance only)
  (onMysql ? it : it.skip)(
    'two instances starting at once both start, and migrate and seed once',
    async () => {
      const database = await freshDatabaseUrl();
      const instances = [createDb(database.url), createDb(database.url)];
      try {
        const results = await Promise.allSettled(
          instances.map((db) => prepareDatabase(db, { seedDemo: true })),
        );
        const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
        expect(failures).toEqual([]);
        const [a, b] = results.map((r) => (r as PromiseFulfilledResult<Prepared>).value);
        const migrations = await count(instances[0], 'knex_migrations');
        // one applied them all, the other none
        expect([a.applied.length, b.applied.length].sort((x, y) => x - y)).toEqual([0, migrations]);
        expect([a.demoSeeded, b.demoSeeded].filter(Boolean)).toHaveLength(1);
        expect(await seeded(instances[0])).toMatchObject(expected);
        // the same rows as one instance starting alone
        expect(alone).toBeDefined();
        expect(await seeded(instances[0])).toEqual(alone);
      } finally {
        await Promise.all(instances.map((db) => db.destroy()));
        await database.drop();
      }
    },
  );
});

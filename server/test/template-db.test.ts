import type { Knex } from 'knex';
import { createDb, isMysql, migrateLatest } from '../src/db/knex';
import { toDbDateTime } from '../src/lib/clock';
import { freshDatabaseUrl } from './harness';

/**
 * A test file's database is a copy of the run's migrated template (template-db.ts): it must be the database that
 * migrating gives — every table, column, key, index and foreign key, and the rows the migrations write.
 */

/** Each table's definition and rows (times left out: the two were migrated at different moments). */
async function dump(db: Knex): Promise<Record<string, { ddl: string; rows: unknown[] }>> {
  const out: Record<string, { ddl: string; rows: unknown[] }> = {};
  const tables: { name: string; ddl: string }[] = [];
  if (isMysql(db)) {
    const [names] = await db.raw(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
    );
    for (const { name } of names as { name: string }[]) {
      const [[created]] = await db.raw('SHOW CREATE TABLE ??', [name]);
      tables.push({ name, ddl: (created as Record<string, string>)['Create Table'] });
    }
  } else {
    const rows = (await db.raw("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index')")) as {
      name: string;
      sql: string | null;
    }[];
    for (const row of rows) {
      if (row.name.startsWith('sqlite_')) continue;
      out[`schema:${row.name}`] = { ddl: row.sql ?? '', rows: [] };
    }
    tables.push(
      ...(
        (await db.raw(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )) as {
          name: string;
        }[]
      ).map(({ name }) => ({ name, ddl: '' })),
    );
  }
  for (const { name, ddl } of tables) {
    const rows = (await db(name).select('*')).map((row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).filter(([column]) => !/(_at|_time)$/.test(column))),
    );
    rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    out[name] = { ddl, rows };
  }
  return out;
}

describe('a test database copied from the migrated template', () => {
  it('is the database migrating gives, foreign keys enforced', async () => {
    const migrated = await freshDatabaseUrl();
    const copied = await freshDatabaseUrl({ migrated: true });
    const a = createDb(migrated.url);
    const b = createDb(copied.url);
    try {
      await migrateLatest(a);
      // the copy is up to date: nothing left to migrate (a run without the template would migrate everything here)
      expect(await migrateLatest(b)).toEqual([]);
      const [want, got] = [await dump(a), await dump(b)];
      expect(Object.keys(want).length).toBeGreaterThan(20);
      expect(want.knex_migrations.rows.length).toBeGreaterThan(0);
      expect(got).toEqual(want);

      const now = toDbDateTime();
      const orphan = async () =>
        b('branches').insert({
          company_id: 999_999,
          code: 'NOPE',
          name_en: 'No company',
          name_zh: '沒有公司',
          created_at: now,
          updated_at: now,
        });
      // (matched by its message: the driver's error is not an Error of the test's realm, which toThrow wants)
      await expect(orphan()).rejects.toMatchObject({ message: expect.stringMatching(/foreign key/i) });
      expect(await b('branches').count({ n: '*' })).toEqual([{ n: 0 }]);
    } finally {
      await a.destroy();
      await b.destroy();
      await migrated.drop();
      await copied.drop();
    }
  });
});

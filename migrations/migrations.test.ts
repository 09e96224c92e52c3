import { migrateLatest, migrateRollback } from '../server/src/db/knex';
import { seedDemo, DEMO_ADMIN } from '../seeds';
import { createTestApp } from '../server/test/harness';

it('rolls every migration back and forward again on this database, and seeds the demo once', async () => {
  const t = await createTestApp();
  try {
    await migrateRollback(t.db, true);
    expect(await t.db.schema.hasTable('users')).toBe(false);
    const applied = await migrateLatest(t.db);
    expect(applied.length).toBeGreaterThanOrEqual(2);
    for (const table of [
      'users',
      'roles',
      'branches',
      'companies',
      'user_sessions',
      'audit_logs',
      'settings',
      'holidays',
      'areas',
      'sessions',
      'files',
    ]) {
      expect(await t.db.schema.hasTable(table)).toBe(true);
    }
    expect(await seedDemo(t.db)).toBe(true);
    expect(await seedDemo(t.db)).toBe(false);
    const admin = await t.db('users').where({ email: DEMO_ADMIN.email }).first();
    expect(admin).toBeDefined();
    // the demo student, written beside the machinery, is found by a search (its terms)
    const student = await t.db('students').first('id');
    const terms = await t
      .db('search_terms')
      .where({ entity: 'students', record_id: student.id })
      .pluck('term');
    expect(terms).toEqual(expect.arrayContaining(['chan', '大文', 'k1234567']));
    expect(Number((await t.db('holidays').count({ n: '*' }).first())?.n)).toBeGreaterThan(10);
  } finally {
    await t.close();
  }
}, 120_000); // every migration down and up again: on MariaDB each DDL statement commits on its own

/**
 * The names a list page shows (issue 25, item 2): each row's related names — the branch, the category and its
 * colour, the consultant, option labels — come from a cache kept per table, so a warm students page runs its page
 * query (and its count when the page needs one) and nothing else; a related record renamed through the API or
 * written straight to the database shows on the very next request.
 */
import knex, { type Knex } from 'knex';
import { changeEvents } from '../../src/lib/change-events';
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createTestApp, onRedis, signedInAdmin, type TestApp } from '../harness';
import { branch, createStudentVia, optionValue, staffOf } from '../students/students-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let b: number;
let categoryId: number;
let consultant: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  b = await branch(t);
  consultant = await staffOf(t, b);
  const category = await admin
    .post('/api/student-categories', { name_en: 'Gold', name_zh: '金卡', color: '#ffd700' })
    .expect(201);
  categoryId = category.body.id;
  const status = await optionValue(t.db, 'student_status', 'applied');
  const nationality = await optionValue(t.db, 'nationality', 'KR');
  for (let i = 0; i < 3; i++) {
    await createStudentVia(admin, b, {
      category_id: categoryId,
      status,
      nationality,
      gender: await optionValue(t.db, 'gender', 'F'),
      consultant_user_id: consultant,
    });
  }
});
afterAll(() => t.close());

/** A connection of its own to the test's database, without the app's write watcher (another instance's). */
function otherInstanceDb(url: string): Knex {
  return url.startsWith('mysql://')
    ? knex({ client: 'mysql2', connection: { uri: url } as Knex.MySql2ConnectionConfig })
    : knex({
        client: 'better-sqlite3',
        connection: { filename: url.slice('sqlite:'.length) },
        useNullAsDefault: true,
      });
}

/** The statements one request runs besides the session store's own (sessions kept in the database without Redis). */
async function statementsOf(send: () => PromiseLike<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  t.db.on('query', listener);
  try {
    await send();
  } finally {
    t.db.off('query', listener);
  }
  return onRedis ? seen : seen.filter((sql) => !/[`"]sessions[`"]/.test(sql));
}

const page = (query = '') => admin.get(`/api/students?branch_id=${b}${query}`).expect(200);

describe('a warm students list page', () => {
  it('runs its page query and nothing else', async () => {
    await page();
    const warm = await statementsOf(() => page());
    expect(warm).toHaveLength(1);
    expect(warm[0]).toMatch(/from [`"]students[`"]/);
    console.log(`warm students page (3 rows, every relation named): ${warm.length} SQL statement`);
  });

  it('runs its page query and its count when the page is full, then the page query only', async () => {
    const cold = await statementsOf(() => page('&per_page=2'));
    expect(cold.filter((sql) => /count\(/i.test(sql))).toHaveLength(1);
    const warm = await statementsOf(() => page('&per_page=2'));
    expect(warm).toHaveLength(1);
  });

  it('still names every relation in the caller’s language', async () => {
    const zh = (await admin.get(`/api/students?branch_id=${b}`).set('Accept-Language', 'zh-HK').expect(200))
      .body.items[0];
    const en = (await admin.get(`/api/students?branch_id=${b}`).set('Accept-Language', 'en').expect(200)).body
      .items[0];
    expect(zh).toMatchObject({ category_name: '金卡', status_label: 'applied（中）' });
    expect(en).toMatchObject({
      category_name: 'Gold',
      status_label: 'applied (en)',
      category_color: '#ffd700',
    });
    expect(en.branch_name).toEqual(expect.any(String));
    expect(en.consultant_user_name).toEqual(expect.any(String));
  });
});

describe('a related record changed', () => {
  const first = async (language = 'en'): Promise<Row> =>
    (await admin.get(`/api/students?branch_id=${b}`).set('Accept-Language', language).expect(200)).body
      .items[0];

  it('shows a category renamed through the API on the next request', async () => {
    await first();
    await admin
      .put(`/api/student-categories/${categoryId}`, { name_en: 'Platinum', color: '#e5e4e2' })
      .expect(200);
    expect(await first()).toMatchObject({ category_name: 'Platinum', category_color: '#e5e4e2' });
  });

  it('shows a branch, a user and an option label written straight to the database on the next request', async () => {
    await first();
    await t.db('branches').where({ id: b }).update({ name_en: 'Renamed branch' });
    expect((await first()).branch_name).toMatch(/ Renamed branch$/);
    await t.db('users').where({ id: consultant }).update({ name: 'Renamed consultant' });
    expect((await first()).consultant_user_name).toBe('Renamed consultant');
    await t.db('options').where({ key: 'student_status', value: 'applied' }).update({ label_en: 'Applied!' });
    expect((await first()).status_label).toBe('Applied!');
  });

  it('drops what another instance changed when told, and reads the database while caches are suspended', async () => {
    await first();
    // a write this process's database watcher never sees: another instance's
    const other = otherInstanceDb(t.config.databaseUrl);
    try {
      await other('student_categories').where({ id: categoryId }).update({ name_en: 'Elsewhere' });
      // not told yet: the name kept here (what decision 0013's counters in Redis tell every request)
      expect((await first()).category_name).not.toBe('Elsewhere');
      await changeEvents.emit(['student_categories'], 'remote');
      expect((await first()).category_name).toBe('Elsewhere');
      await other('student_categories').where({ id: categoryId }).update({ name_en: 'Unheard' });
      changeEvents.suspendCaches();
      try {
        expect((await first()).category_name).toBe('Unheard');
      } finally {
        changeEvents.resumeCaches();
      }
    } finally {
      await other.destroy();
    }
  });

  it('names a record created after the names were kept', async () => {
    await first();
    const now = toDbDateTime();
    const [id] = await t
      .db('student_categories')
      .insert({ name_en: 'Late', name_zh: '遲', sort_order: 9, created_at: now, updated_at: now });
    const [student] = (await admin.get(`/api/students?branch_id=${b}`).expect(200)).body.items;
    await admin.put(`/api/students/${student.id}`, { category_id: Number(id) }).expect(200);
    const named = (await admin.get(`/api/students/${student.id}`).expect(200)).body;
    expect(named.category_name).toBe('Late');
    const listed = (await admin.get(`/api/students?branch_id=${b}`).expect(200)).body.items.find(
      (row: Row) => row.id === student.id,
    );
    expect(listed.category_name).toBe('Late');
  });
});

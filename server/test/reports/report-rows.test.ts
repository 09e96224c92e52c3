/**
 * A report file's rows read batch by batch (report-rows.repository.ts `batches`), on SQLite and MariaDB: every row
 * once and in the order, across batches that end inside a run of equal sort values; the next batch asked for as soon
 * as a batch has come, before the caller takes it (the database reads it while the file is written); and a caller
 * that stops early leaves no read failing unhandled.
 */
import { reportRowsRepository } from '../../src/modules/reports/report-rows.repository';
import { toDbDateTime } from '../../src/lib/clock';
import { createTestApp, type TestApp } from '../harness';

let t: TestApp;
/** sort values with runs longer than a batch, so that batches end inside a run */
const SORTS = [1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3];
const expected: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const now = toDbDateTime();
  const inserted: { id: number; name: string; sort: number }[] = [];
  for (const [i, sort] of SORTS.entries()) {
    const name = `Batch area ${i}`;
    const [id] = await t.db('areas').insert({
      name_en: name,
      name_zh: `批次地區${i}`,
      sort_order: sort,
      created_at: now,
      updated_at: now,
    });
    inserted.push({ id: Number(id), name, sort });
  }
  // the order asked for: sort value descending, then id descending
  expected.push(...inserted.sort((a, b) => b.sort - a.sort || b.id - a.id).map((r) => r.name));
});

afterAll(async () => {
  await t?.close();
});

const build = () => t.db('areas').where('name_en', 'like', 'Batch area %').select('name_en');
const ORDER = { expression: 'sort_order', key: 'id', direction: 'desc' } as const;

it('reads every row once in the order, asking for the next batch before handing one over', async () => {
  const statements: string[] = [];
  const listener = (q: { sql: string }) => statements.push(q.sql);
  const batches = reportRowsRepository.batches(t.db, build, ORDER, undefined, 3);
  const got: string[] = [];
  t.db.on('query', listener);
  try {
    const first = await batches.next();
    expect(first.value).toHaveLength(3);
    // the second batch's read starts without the caller asking for it (given a moment to reach the database)
    for (let waited = 0; statements.length < 2 && waited < 2_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statements).toHaveLength(2);
    got.push(...(first.value as { name_en: string }[]).map((r) => r.name_en));
    for (let next = await batches.next(); !next.done; next = await batches.next())
      got.push(...(next.value as { name_en: string }[]).map((r) => r.name_en));
  } finally {
    t.db.removeListener('query', listener);
  }
  expect(got).toEqual(expected);
  // 11 rows in batches of 3: four reads, the last one short
  expect(statements).toHaveLength(4);
});

it('ends cleanly when the caller stops before taking the batch read ahead', async () => {
  const batches = reportRowsRepository.batches(t.db, build, ORDER, undefined, 3);
  const first = await batches.next();
  expect(first.value).toHaveLength(3);
  expect(await batches.return(undefined)).toEqual({ done: true, value: undefined });
  // the connection is free for the next read
  expect(await t.db('areas').where('name_en', 'like', 'Batch area %').count({ n: '*' }).first()).toEqual({
    n: SORTS.length,
  });
});
